package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;
import org.priodp.aggregator.hpke.HpkeSuite;

class HpkeConfigListTest {
  private static final HexFormat HEX = HexFormat.of();

  private static HpkeConfig x25519(int id) {
    return new HpkeConfig(new HpkeConfigId(id), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, Samples.bytes(32, id));
  }

  /** HpkeConfig { id; kem_id; kdf_id; aead_id; public_key<1..2^16-1> } written by hand. */
  private static String configHex(int id, int kem, int kdf, int aead, String keyHex) {
    return String.format("%02x%04x%04x%04x%04x", id, kem, kdf, aead, keyHex.length() / 2) + keyHex;
  }

  /** HpkeConfig HpkeConfigList<10..2^16-1> written by hand. */
  private static byte[] listOf(String... configsHex) {
    String all = String.join("", configsHex);
    return HEX.parseHex(String.format("%04x", all.length() / 2) + all);
  }

  @Test
  void encodesTheListWithATwoBytePrefixAndRoundTrips() {
    HpkeConfig chacha = new HpkeConfig(new HpkeConfigId(17), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.CHACHA20_POLY1305, Samples.bytes(32, 5));
    HpkeConfigList list = new HpkeConfigList(List.of(x25519(194), chacha));
    byte[] enc = list.encode();
    assertEquals(2 + 2 * (1 + 2 + 2 + 2 + 2 + 32), enc.length);
    assertEquals("0052" + "c2" + "0020" + "0001" + "0001" + "0020", HEX.formatHex(enc, 0, 11));
    assertEquals(list, HpkeConfigList.decode(enc));
    assertTrue(list.configs().get(0).isSupported());
    assertFalse(list.configs().get(1).isSupported(), "ChaCha20Poly1305 is registered but not implemented");
    assertEquals(Optional.of(list.configs().get(0)), list.firstSupported());
  }

  @Test
  void rejectsEmptyListsAndDuplicateIds() {
    CodecChecks.assertRejects(HpkeConfigList::decode, HEX.parseHex("0000"), "hpke_config_list");
    assertThrows(IllegalArgumentException.class, () -> new HpkeConfigList(List.of()));
    assertThrows(IllegalArgumentException.class, () -> new HpkeConfigList(List.of(x25519(1), x25519(1))));
    byte[] twice = listOf(HEX.formatHex(x25519(1).encode()), HEX.formatHex(x25519(1).encode()));
    DapDecodeException e = CodecChecks.assertRejects(HpkeConfigList::decode, twice,
        "hpke_config_list");
    assertTrue(e.getMessage().contains("duplicate id 1"), e.getMessage());
  }

  @Test
  void configsWithUnknownAlgorithmIdsDecodeKeepTheirCodePointsAndAreSkipped() {
    // the daphne list: KEM, KDF and AEAD 99 are in no registry, then a config this project uses
    String unknown = configHex(23, 99, 99, 99, HEX.formatHex("this is a public key".getBytes()));
    HpkeConfig usable = x25519(7);
    byte[] enc = listOf(unknown, HEX.formatHex(usable.encode()));
    HpkeConfigList list = HpkeConfigList.decode(enc);
    assertArrayEquals(enc, list.encode(), "re-encodes byte for byte");
    HpkeConfig first = list.configs().get(0);
    assertEquals(new HpkeConfigId(23), first.id());
    assertEquals(99, first.kemId());
    assertEquals(99, first.kdfId());
    assertEquals(99, first.aeadId());
    assertEquals(Optional.empty(), first.kem());
    assertEquals(Optional.empty(), first.kdf());
    assertEquals(Optional.empty(), first.aead());
    assertEquals(Optional.empty(), first.suite());
    assertFalse(first.isSupported());
    assertEquals("KEM 0x0063 is not registered in RFC 9180; KDF 0x0063 is not registered in"
        + " RFC 9180; AEAD 0x0063 is not registered in RFC 9180",
        first.unsupportedReason().orElseThrow());
    assertEquals(Optional.of(usable), list.firstSupported(), "the Client skips the unknown config");
    // every id at the top of the uint16 range is kept as well
    byte[] top = listOf(configHex(1, 0xffff, 0xfffe, 0xffff, "01"));
    assertArrayEquals(top, HpkeConfigList.decode(top).encode());
    assertEquals(0xfffe, HpkeConfigList.decode(top).configs().get(0).kdfId());
  }

  @Test
  void aListWithoutAUsableConfigDecodesButHasNoFirstSupported() {
    // P-384 is registered but not implemented; an X25519 key of 16 bytes cannot be a key (Npk 32)
    String p384 = configHex(1, 0x0011, 0x0002, 0x0002, "00".repeat(97));
    String shortKey = configHex(2, 0x0020, 0x0001, 0x0001, "ab".repeat(16));
    byte[] enc = listOf(p384, shortKey);
    HpkeConfigList list = HpkeConfigList.decode(enc);
    assertArrayEquals(enc, list.encode());
    assertEquals(Optional.empty(), list.firstSupported());
    HpkeConfig a = list.configs().get(0);
    assertEquals(Optional.of(HpkeKemId.DHKEM_P384_HKDF_SHA384), a.kem());
    assertEquals(Optional.of(HpkeAeadId.AES_256_GCM), a.aead());
    assertEquals("KEM DHKEM_P384_HKDF_SHA384 (0x0011) is not implemented; KDF HKDF_SHA384 (0x0002)"
        + " is not implemented; AEAD AES_256_GCM (0x0002) is not implemented",
        a.unsupportedReason().orElseThrow());
    HpkeConfig b = list.configs().get(1);
    assertEquals(Optional.of(HpkeSuite.DAP_MANDATORY), b.suite(), "the algorithms are implemented");
    assertFalse(b.isSupported(), "but the key has the wrong length");
    assertEquals("public_key has 16 bytes, DHKEM_X25519_HKDF_SHA256 public keys have 32",
        b.unsupportedReason().orElseThrow());
  }

  @Test
  void wireBoundsAreStillEnforced() {
    // an empty public_key violates HpkePublicKey<1..2^16-1> (the list is padded to 10 bytes)
    byte[] emptyKey = listOf(configHex(12, 0x0010, 0x0003, 0x0002, ""), "00");
    CodecChecks.assertRejects(HpkeConfigList::decode, emptyKey,
        "hpke_config_list[0].public_key");
    // a list shorter than its 10-byte floor
    CodecChecks.assertRejects(HpkeConfigList::decode, HEX.parseHex("0009" + "00".repeat(9)),
        "hpke_config_list");
    // a config cut short inside the list
    byte[] cut = listOf(configHex(1, 0x0020, 0x0001, 0x0001, "01020304").substring(0, 22));
    CodecChecks.assertRejects(HpkeConfigList::decode, cut, "hpke_config_list[0].public_key");
    CodecChecks.assertEveryTruncationRejected(new HpkeConfigList(List.of(x25519(3))).encode(),
        HpkeConfigList::decode);
  }

  @Test
  void theConstructorChecksTheUint16RangeOfEachId() {
    ByteString key = ByteString.copyOf(new byte[32]);
    HpkeConfigId id = new HpkeConfigId(1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new HpkeConfig(id, 0x10000, 1, 1, key));
    assertEquals("kem_id out of uint16 range: 65536", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new HpkeConfig(id, 0x20, -1, 1, key));
    assertEquals("kdf_id out of uint16 range: -1", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new HpkeConfig(id, 0x20, 1, 0x10000, key));
    assertEquals("aead_id out of uint16 range: 65536", e.getMessage());
    assertEquals(new HpkeConfig(id, 0x20, 1, 1, key), new HpkeConfig(id,
        HpkeKemId.DHKEM_X25519_HKDF_SHA256, HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, key),
        "the typed constructor stores the code points");
  }

  @Test
  void toStringNamesRegisteredIdsAndShowsUnknownOnesInHex() {
    HpkeConfig c = new HpkeConfig(new HpkeConfigId(5), 0x0020, 0x0063, 0x0001,
        ByteString.copyOf(new byte[] {1, 2}));
    assertEquals("HpkeConfig[id=5, kem_id=0x0020(DHKEM_X25519_HKDF_SHA256), kdf_id=0x0063,"
        + " aead_id=0x0001(AES_128_GCM), public_key=0102]", c.toString());
  }
}
