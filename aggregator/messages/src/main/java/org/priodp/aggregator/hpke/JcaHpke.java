package org.priodp.aggregator.hpke;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.math.ec.rfc7748.X25519;

/**
 * RFC 9180 base mode (section 5.1 key schedule, section 4.1 DHKEM) for the one suite
 * DHKEM(X25519, HKDF-SHA256) / HKDF-SHA256 / AES-128-GCM on the JCA primitives of one provider:
 * XDH key agreement, HmacSHA256 (HKDF-Extract and HKDF-Expand, RFC 5869) and AES/GCM/NoPadding.
 * What does not depend on the encapsulated key is computed once: the psk_id_hash, the
 * info_hash of the last info seen and the private key object of each recipient key pair.
 * Thread-safe: the JCA objects, which are not, are kept per thread.
 */
final class JcaHpke {
  private static final byte[] HPKE_V1 = ascii("HPKE-v1");
  /** suite_id of the KEM (RFC 9180 section 4.1): "KEM" || I2OSP(0x0020, 2). */
  private static final byte[] KEM_SUITE = {'K', 'E', 'M', 0x00, 0x20};
  /** suite_id of the key schedule (RFC 9180 section 5.1): "HPKE" || kem || kdf || aead. */
  private static final byte[] HPKE_SUITE = {'H', 'P', 'K', 'E', 0x00, 0x20, 0x00, 0x01, 0x00, 0x01};
  /** DER prefix of an X.509 SubjectPublicKeyInfo for X25519 (RFC 8410 section 4). */
  private static final byte[] SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b656e032100");
  /** DER prefix of a PKCS #8 PrivateKeyInfo for X25519 (RFC 8410 section 7). */
  private static final byte[] PKCS8_PREFIX = HexFormat.of().parseHex("302e020100300506032b656e04220420");
  private static final int NH = 32;
  private static final int NK = 16;
  private static final int NN = 12;
  private static final int NT = 16;
  private static final int MAX_CACHED_KEYS = 64;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Provider provider;
  private final Provider kemProvider;
  private final RawX25519 raw;
  private final String name;
  private final byte[] pskIdHash;
  private final ThreadLocal<Primitives> primitives;
  private final ConcurrentHashMap<HpkeKeyPair, Object> privateKeys = new ConcurrentHashMap<>();
  private volatile InfoHash lastInfo = new InfoHash(new byte[0], null);

  /** X25519 on raw 32-byte strings (RFC 7748 section 5); false if the result is all zero. */
  interface RawX25519 {
    boolean agree(byte[] sk, byte[] pk, byte[] out);

    /** {@link #agree} for a key used once (an ephemeral key): keeps nothing of sk afterwards. */
    default boolean agreeEphemeral(byte[] sk, byte[] pk, byte[] out) {
      return agree(sk, pk, out);
    }

    /**
     * The X25519 part of RFC 9180 section 4.1 Encap for a fresh secret key sk: writes its public
     * key (X25519(sk, 9), the enc) to {@code enc} and DH(sk, pkR) to {@code dh}; false if the DH
     * output is all zero. Keeps nothing of sk afterwards.
     */
    default boolean encap(byte[] sk, byte[] pkR, byte[] enc, byte[] dh) {
      X25519.generatePublicKey(sk, 0, enc, 0);
      return agreeEphemeral(sk, pkR, dh);
    }
  }

  /** Bouncy Castle's RFC 7748 X25519. */
  static final RawX25519 BC_X25519 = (sk, pk, out) -> X25519.calculateAgreement(sk, 0, pk, 0, out, 0);

  /**
   * Creates the implementation with HmacSHA256 and AES/GCM from {@code provider} and X25519 from
   * {@code raw} or, if it is null, from {@code kemProvider}'s XDH (a null provider means the
   * JDK's, looked up by algorithm name); checks once that every primitive is there and fails
   * with GeneralSecurityException if not.
   */
  JcaHpke(Provider provider, Provider kemProvider, RawX25519 raw, String name)
      throws GeneralSecurityException {
    this.provider = provider;
    this.kemProvider = kemProvider;
    this.raw = raw;
    this.name = Objects.requireNonNull(name, "name");
    new Primitives(provider, kemProvider, raw != null);
    this.primitives = ThreadLocal.withInitial(() -> {
      try {
        return new Primitives(provider, kemProvider, raw != null);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(name + " lost a primitive it offered at start", e);
      }
    });
    this.pskIdHash = labeledExtract(primitives.get(), null, HPKE_SUITE, "psk_id_hash", new byte[0]);
  }

  /** Returns the provider's name for {@link Hpke#implementation()}. */
  String name() {
    return name;
  }

  /** The per-thread JCA objects: not thread-safe, so one set per thread. */
  private static final class Primitives {
    final KeyAgreement xdh;
    final KeyFactory keys;
    final Mac hmac;
    final Mac zeroSaltHmac;
    final Cipher gcm;

    Primitives(Provider p, Provider kem, boolean bcX25519) throws GeneralSecurityException {
      xdh = bcX25519 ? null
          : kem == null ? KeyAgreement.getInstance("XDH") : KeyAgreement.getInstance("XDH", kem);
      keys = bcX25519 ? null
          : kem == null ? KeyFactory.getInstance("XDH") : KeyFactory.getInstance("XDH", kem);
      hmac = p == null ? Mac.getInstance("HmacSHA256") : Mac.getInstance("HmacSHA256", p);
      zeroSaltHmac = p == null ? Mac.getInstance("HmacSHA256") : Mac.getInstance("HmacSHA256", p);
      zeroSaltHmac.init(new SecretKeySpec(new byte[NH], "HmacSHA256"));
      gcm = newGcm(p);
    }
  }

  private static Cipher newGcm(Provider p) throws GeneralSecurityException {
    return p == null ? Cipher.getInstance("AES/GCM/NoPadding")
        : Cipher.getInstance("AES/GCM/NoPadding", p);
  }

  /** The info_hash of one info string (RFC 9180 section 5.1), kept for the next open. */
  private record InfoHash(byte[] info, byte[] hash) {}

  private byte[] infoHash(Primitives p, byte[] info) {
    InfoHash last = lastInfo;
    if (last.hash != null && Arrays.equals(last.info, info)) {
      return last.hash;
    }
    byte[] h = labeledExtract(p, null, HPKE_SUITE, "info_hash", info);
    lastInfo = new InfoHash(info.clone(), h);
    return h;
  }

  /** Returns the secret key as the DH takes it: a PrivateKey, or the 32 bytes for BC's X25519. */
  private Object privateKey(Primitives p, HpkeKeyPair kp) throws HpkeException {
    Object k = privateKeys.get(kp);
    if (k != null) {
      return k;
    }
    byte[] sk = kp.secretKey();
    if (sk.length != NH) {
      throw new HpkeException("X25519 secret key has " + sk.length + " bytes, needs 32", null);
    }
    try {
      k = raw != null ? sk : p.keys.generatePrivate(new PKCS8EncodedKeySpec(concat(PKCS8_PREFIX, sk)));
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new HpkeException("invalid X25519 secret key", e);
    }
    if (privateKeys.size() >= MAX_CACHED_KEYS) {
      privateKeys.clear();
    }
    privateKeys.put(kp, k);
    return k;
  }

  /** Returns the public key as the DH takes it: a PublicKey, or the 32 bytes for BC's X25519. */
  private Object publicKey(Primitives p, byte[] raw) throws HpkeException {
    if (this.raw != null) {
      return raw;
    }
    try {
      return p.keys.generatePublic(new X509EncodedKeySpec(concat(SPKI_PREFIX, raw)));
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new HpkeException("invalid X25519 public key", e);
    }
  }

  /** DH(sk, pk) of RFC 9180 section 4.1, rejecting the all-zero output (section 7.1.4). */
  private byte[] dh(Primitives p, Object sk, Object pk) throws HpkeException {
    byte[] z;
    try {
      if (raw != null) {
        z = new byte[NH];
        return nonZero(raw.agree((byte[]) sk, (byte[]) pk, z), z);
      } else {
        p.xdh.init((PrivateKey) sk);
        p.xdh.doPhase((PublicKey) pk, true);
        z = p.xdh.generateSecret();
      }
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new HpkeException("X25519 failed (a low-order public key?)", e);
    }
    return nonZero(true, z);
  }

  /**
   * Returns the DH output z unless the X25519 refused it or it is all zero (RFC 9180 section
   * 7.1.4: a low-order public key), which fail with HpkeException.
   */
  private static byte[] nonZero(boolean agreed, byte[] z) throws HpkeException {
    if (!agreed) {
      throw new HpkeException("X25519 refused the key (all-zero shared secret: low-order"
          + " public key)", null);
    }
    int acc = 0;
    for (byte b : z) {
      acc |= b;
    }
    if (z.length != NH || acc == 0) {
      throw new HpkeException("X25519 shared secret is all zero: low-order public key", null);
    }
    return z;
  }

  /** One bare DH(sk, pk) of this engine (RFC 7748 section 5), keys parsed on each call. */
  byte[] x25519(byte[] sk, byte[] pk) throws HpkeException {
    Primitives p = primitives.get();
    Object k;
    try {
      k = raw != null ? sk : p.keys.generatePrivate(new PKCS8EncodedKeySpec(concat(PKCS8_PREFIX, sk)));
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new HpkeException("invalid X25519 secret key", e);
    }
    return dh(p, k, publicKey(p, pk));
  }

  /** RFC 9180 section 4.1 ExtractAndExpand with kem_context = enc || pkRm. */
  private static byte[] sharedSecret(Primitives p, byte[] dh, byte[] enc, byte[] pkR) {
    byte[] prk = labeledExtract(p, null, KEM_SUITE, "eae_prk", dh);
    return labeledExpand(p, prk, KEM_SUITE, "shared_secret", concat(enc, pkR), NH);
  }

  /** RFC 9180 section 5.1 SetupBaseR: Decap, then KeySchedule in mode_base. */
  Context setupBaseReceiver(byte[] enc, HpkeKeyPair skR, byte[] info) throws HpkeException {
    Primitives p = primitives.get();
    Object sk = privateKey(p, skR);
    byte[] z = dh(p, sk, publicKey(p, enc));
    return keySchedule(p, sharedSecret(p, z, enc, skR.publicKey()), info);
  }

  /** RFC 9180 section 5.1 SetupBaseS with a fresh ephemeral key, or the given one (tests). */
  Sender setupBaseSender(byte[] pkR, byte[] info, HpkeKeyPair ephemeral) throws HpkeException {
    Primitives p = primitives.get();
    Object pk = publicKey(p, pkR);
    Object skE;
    byte[] enc;
    if (ephemeral == null && raw != null) {
      byte[] sk = new byte[NH];
      X25519.generatePrivateKey(RANDOM, sk);
      enc = new byte[NH];
      byte[] z = new byte[NH];
      boolean agreed;
      try {
        agreed = raw.encap(sk, (byte[]) pk, enc, z); // keeps nothing of the ephemeral key
      } catch (RuntimeException e) {
        throw new HpkeException("X25519 failed (a low-order public key?)", e);
      } finally {
        Arrays.fill(sk, (byte) 0);
      }
      return new Sender(enc, keySchedule(p, sharedSecret(p, nonZero(agreed, z), enc, pkR), info));
    } else if (ephemeral == null) {
      try {
        KeyPairGenerator g = kemProvider == null ? KeyPairGenerator.getInstance("X25519")
            : KeyPairGenerator.getInstance("X25519", kemProvider);
        KeyPair kp = g.generateKeyPair();
        skE = kp.getPrivate();
        byte[] spki = kp.getPublic().getEncoded();
        enc = Arrays.copyOfRange(spki, spki.length - NH, spki.length);
      } catch (GeneralSecurityException | RuntimeException e) {
        throw new HpkeException("X25519 key generation failed", e);
      }
    } else {
      skE = privateKey(p, ephemeral);
      enc = ephemeral.publicKey();
    }
    byte[] z = dh(p, skE, pk);
    return new Sender(enc, keySchedule(p, sharedSecret(p, z, enc, pkR), info));
  }

  private Context keySchedule(Primitives p, byte[] sharedSecret, byte[] info) {
    byte[] ih = infoHash(p, info);
    byte[] ksc = new byte[1 + 2 * NH];
    System.arraycopy(pskIdHash, 0, ksc, 1, NH);
    System.arraycopy(ih, 0, ksc, 1 + NH, NH);
    byte[] secret = labeledExtract(p, sharedSecret, HPKE_SUITE, "secret", new byte[0]);
    byte[] key = labeledExpand(p, secret, HPKE_SUITE, "key", ksc, NK);
    byte[] nonce = labeledExpand(p, secret, HPKE_SUITE, "base_nonce", ksc, NN);
    return new Context(key, nonce, secret, ksc);
  }

  /** A sender context with its encapsulated key. */
  record Sender(byte[] enc, Context context) {}

  /**
   * An RFC 9180 section 5.2 encryption context: key, base_nonce, the sequence number, and the
   * secret from which the exporter secret is expanded when first needed. Not thread-safe.
   */
  final class Context {
    private final SecretKeySpec key;
    private final byte[] baseNonce;
    private final byte[] secret;
    private final byte[] keyScheduleContext;
    private byte[] exporterSecret;
    private long seq;

    private Context(byte[] key, byte[] baseNonce, byte[] secret, byte[] keyScheduleContext) {
      this.key = new SecretKeySpec(key, "AES");
      this.baseNonce = baseNonce;
      this.secret = secret;
      this.keyScheduleContext = keyScheduleContext;
    }

    private byte[] nextNonce() throws HpkeException {
      if (seq == Long.MAX_VALUE) {
        throw new HpkeException("HPKE message limit reached (RFC 9180 section 5.2)", null);
      }
      byte[] n = baseNonce.clone();
      for (int i = 0; i < 8; i++) {
        n[NN - 1 - i] ^= (byte) (seq >>> (8 * i));
      }
      return n;
    }

    /** ContextS.Seal (RFC 9180 section 5.2), on a fresh Cipher (GCM forbids IV reuse per object). */
    byte[] seal(byte[] aad, byte[] pt) throws HpkeException {
      try {
        Cipher c = newGcm(provider);
        c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(8 * NT, nextNonce()));
        c.updateAAD(aad);
        byte[] ct = c.doFinal(pt);
        seq++;
        return ct;
      } catch (GeneralSecurityException | RuntimeException e) {
        throw new HpkeException("HPKE seal failed", e);
      }
    }

    /** ContextR.Open (RFC 9180 section 5.2); every failure is an HpkeException. */
    byte[] open(byte[] aad, byte[] ct) throws HpkeException {
      if (ct.length < NT) {
        throw new HpkeException("HPKE open failed: ciphertext shorter than the tag", null);
      }
      Cipher c = primitives.get().gcm;
      try {
        c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(8 * NT, nextNonce()));
        c.updateAAD(aad);
        byte[] pt = c.doFinal(ct);
        seq++;
        return pt;
      } catch (GeneralSecurityException | RuntimeException e) {
        throw new HpkeException("HPKE open failed: ciphertext did not authenticate", e);
      }
    }

    /** Context.Export (RFC 9180 section 5.3). */
    byte[] export(byte[] exporterContext, int length) {
      Primitives p = primitives.get();
      if (exporterSecret == null) {
        exporterSecret = labeledExpand(p, secret, HPKE_SUITE, "exp", keyScheduleContext, NH);
      }
      return labeledExpand(p, exporterSecret, HPKE_SUITE, "sec", exporterContext, length);
    }
  }

  /** LabeledExtract (RFC 9180 section 4): HKDF-Extract(salt, "HPKE-v1" || suite || label || ikm). */
  private static byte[] labeledExtract(Primitives p, byte[] salt, byte[] suite, String label,
      byte[] ikm) {
    try {
      Mac m;
      if (salt == null || salt.length == 0) {
        m = p.zeroSaltHmac;
      } else {
        m = p.hmac;
        m.init(new SecretKeySpec(salt, "HmacSHA256"));
      }
      m.update(HPKE_V1);
      m.update(suite);
      m.update(ascii(label));
      m.update(ikm);
      return m.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 rejected a key", e);
    }
  }

  /**
   * LabeledExpand (RFC 9180 section 4): HKDF-Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite ||
   * label || info, L), RFC 5869 section 2.3.
   */
  private static byte[] labeledExpand(Primitives p, byte[] prk, byte[] suite, String label,
      byte[] info, int length) {
    if (length < 0 || length > 255 * NH) {
      throw new IllegalArgumentException("HKDF-Expand length " + length + " exceeds 255*Nh");
    }
    try {
      Mac m = p.hmac;
      m.init(new SecretKeySpec(prk, "HmacSHA256"));
      byte[] out = new byte[length];
      byte[] t = new byte[0];
      for (int i = 1, off = 0; off < length; i++) {
        m.update(t);
        m.update((byte) (length >>> 8));
        m.update((byte) length);
        m.update(HPKE_V1);
        m.update(suite);
        m.update(ascii(label));
        m.update(info);
        m.update((byte) i);
        t = m.doFinal();
        int n = Math.min(NH, length - off);
        System.arraycopy(t, 0, out, off, n);
        off += n;
      }
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 rejected a key", e);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
