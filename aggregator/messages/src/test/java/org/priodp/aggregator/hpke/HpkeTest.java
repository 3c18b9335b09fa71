package org.priodp.aggregator.hpke;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.hpke.HPKE;
import org.bouncycastle.crypto.hpke.HPKEContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class HpkeTest {
  private static final HexFormat HEX = HexFormat.of();

  static Path vectorFile() {
    String root = System.getProperty("priodp.root");
    if (root == null) {
      throw new AssertionError("system property priodp.root is not set (surefire sets it to the repository root)");
    }
    Path p = Path.of(root).resolve("../shared/vectors/hpke/rfc9180-dhkem-hkdfsha256-aes128gcm.json").normalize();
    if (!Files.isRegularFile(p)) {
      throw new AssertionError("missing HPKE test vectors: " + p);
    }
    return p;
  }

  private static byte[] hex(JsonNode n, String field) {
    return HEX.parseHex(n.get(field).asText());
  }

  /**
   * Bouncy Castle serializes X25519 secret keys clamped (RFC 7748 section 5: clear bits 0-2 and
   * 255, set bit 254); the vectors list them unclamped. Both denote the same scalar, so compare
   * against the clamped form.
   */
  private static byte[] serializedSecret(HpkeKemId kem, byte[] sk) {
    if (kem == HpkeKemId.DHKEM_X25519_HKDF_SHA256) {
      sk[0] &= (byte) 248;
      sk[31] &= 127;
      sk[31] |= 64;
    }
    return sk;
  }

  private static void check(List<String> mismatches, String where, byte[] expected, byte[] actual) {
    if (!java.util.Arrays.equals(expected, actual)) {
      mismatches.add(where + ": expected " + HEX.formatHex(expected) + " got "
          + (actual == null ? "null" : HEX.formatHex(actual)));
    }
  }

  /**
   * Checks one base-mode vector on an engine: enc with the vector's ephemeral key, every
   * sequential seal and open (and the first as a one-shot open), every export from both sides;
   * returns the numbers of encryptions and exports checked.
   */
  private static int[] checkBaseMode(List<String> mismatches, String id, Hpke hpke, HpkeKeyPair r,
      HpkeKeyPair e, JsonNode v) throws HpkeException {
    byte[] info = hex(v, "info");
    byte[] enc = hex(v, "enc");
    Hpke.SenderContext s = hpke.setupBaseSender(hex(v, "pkRm"), info, e);
    check(mismatches, id + " enc", enc, s.enc());
    Hpke.ReceiverContext rc = hpke.setupBaseReceiver(enc, r, info);
    int i = 0;
    for (JsonNode x : v.get("encryptions")) {
      check(mismatches, id + " seal #" + i, hex(x, "ct"), s.seal(hex(x, "aad"), hex(x, "pt")));
      check(mismatches, id + " open #" + i, hex(x, "pt"), rc.open(hex(x, "aad"), hex(x, "ct")));
      if (i == 0) {
        check(mismatches, id + " one-shot open", hex(x, "pt"),
            hpke.open(r, enc, info, hex(x, "aad"), hex(x, "ct")));
      }
      i++;
    }
    int exports = 0;
    for (JsonNode x : v.get("exports")) {
      byte[] ctx = hex(x, "exporter_context");
      int len = x.get("L").asInt();
      check(mismatches, id + " export S", hex(x, "exported_value"), s.export(ctx, len));
      check(mismatches, id + " export R", hex(x, "exported_value"), rc.export(ctx, len));
      exports++;
    }
    return new int[] {i, exports};
  }

  /**
   * Runs every RFC 9180 vector in the shared file: base mode through this adapter (key derivation,
   * enc, every sequential seal with the vector's ephemeral key, every open, every export); the
   * PSK, Auth and AuthPSK modes through Bouncy Castle's receiver API only, because its public API
   * cannot fix the ephemeral key for those modes. shared_secret, key and base_nonce are not
   * exposed by Bouncy Castle; the exports check the key schedule instead.
   */
  @Test
  void reproducesEveryRfc9180Vector() throws Exception {
    JsonNode vectors = new ObjectMapper().readTree(vectorFile().toFile());
    List<String> mismatches = new ArrayList<>();
    int base = 0;
    int other = 0;
    int encryptions = 0;
    int exports = 0;
    for (JsonNode v : vectors) {
      int mode = v.get("mode").asInt();
      HpkeKemId kem = HpkeKemId.fromCode(v.get("kem_id").asInt());
      HpkeSuite suite = new HpkeSuite(kem, HpkeKdfId.fromCode(v.get("kdf_id").asInt()),
          HpkeAeadId.fromCode(v.get("aead_id").asInt()));
      String id = "mode " + mode + " " + kem;
      Hpke hpke = new Hpke(suite);
      HpkeKeyPair r = hpke.deriveKeyPair(hex(v, "ikmR"));
      HpkeKeyPair e = hpke.deriveKeyPair(hex(v, "ikmE"));
      check(mismatches, id + " skRm", serializedSecret(kem, hex(v, "skRm")), r.secretKey());
      check(mismatches, id + " pkRm", hex(v, "pkRm"), r.publicKey());
      check(mismatches, id + " skEm", serializedSecret(kem, hex(v, "skEm")), e.secretKey());
      check(mismatches, id + " pkEm", hex(v, "pkEm"), e.publicKey());
      byte[] info = hex(v, "info");
      byte[] enc = hex(v, "enc");
      if (mode == 0) {
        base++;
        int[] n = checkBaseMode(mismatches, id, hpke, r, e, v);
        encryptions += n[0];
        exports += n[1];
      } else {
        other++;
        if (v.has("ikmS")) {
          HpkeKeyPair sk = hpke.deriveKeyPair(hex(v, "ikmS"));
          check(mismatches, id + " skSm", serializedSecret(kem, hex(v, "skSm")), sk.secretKey());
          check(mismatches, id + " pkSm", hex(v, "pkSm"), sk.publicKey());
        }
        HPKE bc = new HPKE((byte) mode, (short) kem.code(), (short) 1, (short) 1);
        AsymmetricCipherKeyPair skR = bc.deserializePrivateKey(r.secretKey(), r.publicKey());
        HPKEContext rc;
        switch (mode) {
          case 1:
            rc = bc.setupPSKR(enc, skR, info, hex(v, "psk"), hex(v, "psk_id"));
            break;
          case 2:
            rc = bc.setupAuthR(enc, skR, info, bc.deserializePublicKey(hex(v, "pkSm")));
            break;
          default:
            rc = bc.setupAuthPSKR(enc, skR, info, hex(v, "psk"), hex(v, "psk_id"),
                bc.deserializePublicKey(hex(v, "pkSm")));
        }
        int i = 0;
        for (JsonNode x : v.get("encryptions")) {
          check(mismatches, id + " open #" + i++, hex(x, "pt"), rc.open(hex(x, "aad"), hex(x, "ct")));
          encryptions++;
        }
        for (JsonNode x : v.get("exports")) {
          check(mismatches, id + " export R", hex(x, "exported_value"),
              rc.export(hex(x, "exporter_context"), x.get("L").asInt()));
          exports++;
        }
      }
    }
    System.out.println("HPKE vectors: X25519 secret keys compared clamped (RFC 7748); " + base + " base-mode vectors (derive, enc, seal, open, export via"
        + " Hpke), " + other + " psk/auth/auth_psk vectors (derive via Hpke; open and export via Bouncy"
        + " Castle; sender side SKIPPED: no fixed-ephemeral API), " + encryptions + " encryptions, "
        + exports + " exports; shared_secret/key/base_nonce NOT CHECKED (not exposed by Bouncy Castle);"
        + " mismatches: " + mismatches.size());
    mismatches.forEach(m -> System.out.println("  MISMATCH " + m));
    assertEquals(2, base, "the file should hold one base-mode vector per KEM");
    assertEquals(6, other);
    assertTrue(mismatches.isEmpty(), "HPKE vector mismatches:\n" + String.join("\n", mismatches));
  }

  @Test
  void sealsAndOpensWithFreshKeysForBothKems() throws HpkeException {
    for (HpkeKemId kem : new HpkeKemId[] {HpkeKemId.DHKEM_X25519_HKDF_SHA256, HpkeKemId.DHKEM_P256_HKDF_SHA256}) {
      Hpke hpke = new Hpke(new HpkeSuite(kem, HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM));
      HpkeKeyPair kp = hpke.generateKeyPair();
      byte[] info = "info".getBytes();
      byte[] aad = "aad".getBytes();
      HpkeSealed a = hpke.seal(kp.publicKey(), info, aad, "hello".getBytes());
      HpkeSealed b = hpke.seal(kp.publicKey(), info, aad, "hello".getBytes());
      assertNotEquals(a, b, "a fresh ephemeral key per seal");
      assertEquals(kem.publicKeyLength(), a.enc().length);
      assertArrayEquals("hello".getBytes(), hpke.open(kp, a.enc(), info, aad, a.ciphertext()));
    }
  }

  @Test
  void openFailsCleanlyOnAnyTampering() throws HpkeException {
    Hpke hpke = new Hpke(HpkeSuite.DAP_MANDATORY);
    HpkeKeyPair kp = hpke.generateKeyPair();
    HpkeSealed s = hpke.seal(kp.publicKey(), new byte[] {1}, new byte[] {2}, new byte[] {3});
    byte[] ct = s.ciphertext();
    ct[0] ^= 1;
    assertThrows(HpkeException.class, () -> hpke.open(kp, s.enc(), new byte[] {1}, new byte[] {2}, ct));
    assertThrows(HpkeException.class, () -> hpke.open(kp, s.enc(), new byte[] {9}, new byte[] {2}, s.ciphertext()));
    assertThrows(HpkeException.class, () -> hpke.open(kp, s.enc(), new byte[] {1}, new byte[] {9}, s.ciphertext()));
    assertThrows(HpkeException.class, () -> hpke.open(kp, new byte[5], new byte[] {1}, new byte[] {2}, s.ciphertext()));
    assertThrows(HpkeException.class, () -> hpke.open(kp, new byte[32], new byte[] {1}, new byte[] {2}, s.ciphertext()));
    assertThrows(HpkeException.class, () -> hpke.open(kp, s.enc(), new byte[] {1}, new byte[] {2}, new byte[3]));
    HpkeKeyPair other = hpke.generateKeyPair();
    assertThrows(HpkeException.class, () -> hpke.open(other, s.enc(), new byte[] {1}, new byte[] {2}, s.ciphertext()));
    assertThrows(HpkeException.class, () -> hpke.seal(new byte[31], new byte[0], new byte[0], new byte[0]));
  }

  @Test
  void rejectsUnsupportedSuitesWithAClearMessage() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new HpkeSuite(
        HpkeKemId.DHKEM_X448_HKDF_SHA512, HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM));
    assertTrue(e.getMessage().contains("unsupported HPKE suite"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new HpkeSuite(
        HpkeKemId.DHKEM_X25519_HKDF_SHA256, HpkeKdfId.HKDF_SHA256, HpkeAeadId.CHACHA20_POLY1305));
    assertThrows(IllegalArgumentException.class, () -> HpkeKemId.fromCode(0x0099));
    assertTrue(new HpkeKeyPair(HpkeKemId.DHKEM_X25519_HKDF_SHA256, new byte[32], new byte[32])
        .toString().contains("redacted"));
  }

  /** Returns the adapter on one engine, or skips the test (with a line) if it is absent here. */
  private static Hpke onEngine(Hpke.Engine engine) {
    if (!Hpke.available(engine)) {
      System.out.println("HPKE engine " + engine + " NOT AVAILABLE here: SKIPPED");
    }
    assumeTrue(Hpke.available(engine), engine + " is not available in this process");
    return new Hpke(HpkeSuite.DAP_MANDATORY, engine);
  }

  /** The engines this process can run; the native one is skipped, with a line, if absent. */
  private static List<Hpke> engines() {
    List<Hpke> r = new ArrayList<>();
    for (Hpke.Engine e : Hpke.Engine.values()) {
      if (Hpke.available(e)) {
        r.add(new Hpke(HpkeSuite.DAP_MANDATORY, e));
      } else {
        System.out.println("HPKE engine " + e + " NOT AVAILABLE here: its tests are skipped");
      }
    }
    return r;
  }

  /**
   * Runs the X25519 base-mode vector on one engine: key pair, enc with the vector's ephemeral key,
   * every sequential seal and open, every export.
   */
  @ParameterizedTest
  @EnumSource(Hpke.Engine.class)
  void everyEngineReproducesTheX25519BaseModeVector(Hpke.Engine engine) throws Exception {
    Hpke hpke = onEngine(engine);
    Hpke keys = new Hpke(HpkeSuite.DAP_MANDATORY, Hpke.Engine.BOUNCY_CASTLE);
    List<String> mismatches = new ArrayList<>();
    int checked = 0;
    for (JsonNode v : new ObjectMapper().readTree(vectorFile().toFile())) {
      if (v.get("mode").asInt() != 0 || v.get("kem_id").asInt() != 0x0020) {
        continue;
      }
      int[] n = checkBaseMode(mismatches, engine.name(), hpke, keys.deriveKeyPair(hex(v, "ikmR")),
          keys.deriveKeyPair(hex(v, "ikmE")), v);
      checked += n[0] + n[1];
    }
    System.out.println("HPKE engine " + engine + ": X25519 base-mode vector, " + checked
        + " encryptions and exports checked, mismatches: " + mismatches.size());
    assertTrue(checked > 0, "the vector file has no X25519 base-mode vector");
    assertTrue(mismatches.isEmpty(), engine + " vector mismatches:\n" + String.join("\n", mismatches));
  }

  /** Seals with each engine and opens with every engine, for report-sized and empty messages. */
  @Test
  void everyEngineOpensWhatEveryEngineSeals() throws HpkeException {
    List<Hpke> all = engines();
    System.out.println("HPKE default: " + Hpke.implementation() + "; cross-testing " + all.size()
        + " engines");
    HpkeKeyPair kp = all.get(0).generateKeyPair();
    byte[] info = "dap-18 input share\u0001\u0002".getBytes();
    for (int len : new int[] {0, 1, 16, 177, 1000}) {
      byte[] pt = new byte[len];
      for (int i = 0; i < len; i++) {
        pt[i] = (byte) (31 * i + len);
      }
      byte[] aad = ("aad" + len).getBytes();
      for (Hpke sealer : all) {
        HpkeSealed sealed = sealer.seal(kp.publicKey(), info, aad, pt);
        for (Hpke opener : all) {
          assertArrayEquals(pt, opener.open(kp, sealed.enc(), info, aad, sealed.ciphertext()),
              sealer.engine() + " -> " + opener.engine() + ", " + len + " bytes");
        }
      }
    }
  }

  /**
   * X25519 public keys of small order (RFC 7748 section 6.1; the all-zero DH output RFC 9180
   * section 7.1.4 requires DH to reject): u = 0, u = 1 and a point of order 8.
   */
  private static final String[] LOW_ORDER = {
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  };

  /** Every engine rejects a low-order key as enc (SetupBaseR) and as pkR (SetupBaseS). */
  @ParameterizedTest
  @EnumSource(Hpke.Engine.class)
  void everyEngineRejectsLowOrderKeys(Hpke.Engine engine) throws HpkeException {
    Hpke hpke = onEngine(engine);
    HpkeKeyPair kp = hpke.generateKeyPair();
    for (String h : LOW_ORDER) {
      byte[] point = HEX.parseHex(h);
      assertThrows(HpkeException.class, () -> hpke.setupBaseReceiver(point, kp, new byte[0]),
          engine + " accepted enc " + h);
      assertThrows(HpkeException.class, () -> hpke.setupBaseSender(point, new byte[0]),
          engine + " sealed to " + h);
    }
  }

  /** Malformed enc, ciphertext, tag, aad or key fail with HpkeException on every engine. */
  @ParameterizedTest
  @EnumSource(Hpke.Engine.class)
  void everyEngineFailsWithHpkeExceptionOnBadInput(Hpke.Engine engine) throws HpkeException {
    Hpke hpke = onEngine(engine);
    HpkeKeyPair kp = hpke.generateKeyPair();
    byte[] info = {1};
    byte[] aad = {2};
    HpkeSealed s = hpke.seal(kp.publicKey(), info, aad, new byte[177]);
    byte[] ct = s.ciphertext();
    for (int i : new int[] {0, ct.length - 17, ct.length - 16, ct.length - 1}) {
      byte[] bad = ct.clone();
      bad[i] ^= (byte) 0x80;
      assertThrows(HpkeException.class, () -> hpke.open(kp, s.enc(), info, aad, bad), "byte " + i);
    }
    byte[] enc = s.enc();
    enc[5] ^= 1;
    assertThrows(HpkeException.class, () -> hpke.open(kp, enc, info, aad, ct));
    for (int len : new int[] {0, 1, 15, 16}) {
      assertThrows(HpkeException.class,
          () -> hpke.open(kp, s.enc(), info, aad, java.util.Arrays.copyOf(ct, len)), len + " bytes");
    }
    assertThrows(HpkeException.class, () -> hpke.open(kp, new byte[31], info, aad, ct));
    assertThrows(HpkeException.class, () -> hpke.open(kp, new byte[33], info, aad, ct));
    assertThrows(HpkeException.class, () -> hpke.open(kp, s.enc(), new byte[0], aad, ct));
    assertThrows(HpkeException.class, () -> hpke.open(kp, s.enc(), info, new byte[0], ct));
    HpkeKeyPair p256 = new Hpke(new HpkeSuite(HpkeKemId.DHKEM_P256_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM)).generateKeyPair();
    assertThrows(HpkeException.class, () -> hpke.open(p256, s.enc(), info, aad, ct));
    assertThrows(HpkeException.class, () -> hpke.seal(new byte[31], info, aad, new byte[1]));
    assertThrows(HpkeException.class, () -> hpke.seal(new byte[65], info, aad, new byte[1]));
  }

  @Test
  void nonX25519SuitesAndAbsentEnginesAreRefusedOrRunOnBouncyCastle() {
    HpkeSuite p256 = new HpkeSuite(HpkeKemId.DHKEM_P256_HKDF_SHA256, HpkeKdfId.HKDF_SHA256,
        HpkeAeadId.AES_128_GCM);
    assertEquals(Hpke.Engine.BOUNCY_CASTLE, new Hpke(p256).engine());
    assertThrows(IllegalArgumentException.class, () -> new Hpke(p256, Hpke.Engine.JDK));
    assertTrue(Hpke.implementation().startsWith(new Hpke(HpkeSuite.DAP_MANDATORY).engine().name()),
        Hpke.implementation());
    System.out.println("HPKE default for the DAP suite: " + Hpke.implementation());
  }

}
