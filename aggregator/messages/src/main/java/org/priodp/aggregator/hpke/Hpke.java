package org.priodp.aggregator.hpke;

import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.hpke.HPKE;
import org.bouncycastle.crypto.hpke.HPKEContext;
import org.bouncycastle.crypto.hpke.HPKEContextWithEncapsulation;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;

/**
 * RFC 9180 HPKE in base mode (section 5.1.1 SetupBaseS/SetupBaseR, section 6.1 SealBase/OpenBase)
 * for one {@link HpkeSuite}. DHKEM(X25519, HKDF-SHA256) / HKDF-SHA256 / AES-128-GCM runs on the
 * fastest engine available (measured in docs/PERFORMANCE.md "HPKE open"): OpenSSL's X25519
 * (libcrypto 3 through JNA) with the JDK's HMAC and AES-GCM when it loads, else the same with
 * Bouncy Castle's X25519; every other suite, key generation and key derivation use Bouncy
 * Castle's {@code HPKE}. Instances are immutable and thread-safe; the contexts they return are
 * not.
 */
public final class Hpke {
  private final HpkeSuite suite;
  private final HPKE bc;
  private final Engine engine;
  private final JcaHpke jca;

  /** The engines that can run a suite; {@link #available} says which this process has. */
  public enum Engine {
    /** Bouncy Castle's lightweight HPKE: every supported suite. */
    BOUNCY_CASTLE,
    /** RFC 9180 on the JDK's XDH, HmacSHA256 and AES/GCM: the X25519 / AES-128-GCM suite. */
    JDK,
    /** RFC 9180 on Bouncy Castle's X25519 and the JDK's HmacSHA256 and AES/GCM: that suite. */
    JAVA,
    /** RFC 9180 on OpenSSL 3's X25519 (libcrypto via JNA) and the JDK's HMAC and AES/GCM. */
    OPENSSL,
    /**
     * RFC 9180 on the Amazon Corretto Crypto Provider's HMAC and AES-GCM (AWS-LC) when its jar is
     * on the class path, X25519 from ACCP if it has XDH, else OpenSSL's, else Bouncy Castle's.
     */
    NATIVE
  }

  /** Creates the adapter for a supported suite on the fastest engine that covers it. */
  public Hpke(HpkeSuite suite) {
    this(suite, preferred(suite));
  }

  /**
   * Creates the adapter on a given engine (tests and benchmarks); throws IllegalArgumentException
   * if the engine does not cover the suite or is not available in this process.
   */
  public Hpke(HpkeSuite suite, Engine engine) {
    this.suite = Objects.requireNonNull(suite, "suite");
    this.engine = Objects.requireNonNull(engine, "engine");
    this.bc = new HPKE(HPKE.mode_base, (short) suite.kem().code(), (short) suite.kdf().code(),
        (short) suite.aead().code());
    if (engine == Engine.BOUNCY_CASTLE) {
      this.jca = null;
    } else if (!HpkeSuite.DAP_MANDATORY.equals(suite)) {
      throw new IllegalArgumentException(engine + " runs only " + HpkeSuite.DAP_MANDATORY + ", not " + suite);
    } else {
      this.jca = jcaEngine(engine).orElseThrow(() -> new IllegalArgumentException(
          "HPKE engine " + engine + " is not available in this process"));
    }
  }

  private static Optional<JcaHpke> jcaEngine(Engine e) {
    return switch (e) {
      case BOUNCY_CASTLE -> Optional.empty();
      case JDK -> HpkeEngines.jdk();
      case JAVA -> HpkeEngines.java();
      case OPENSSL -> HpkeEngines.openSsl();
      case NATIVE -> HpkeEngines.nativeEngine();
    };
  }

  private static Engine preferred(HpkeSuite suite) {
    return HpkeSuite.DAP_MANDATORY.equals(suite) ? Preferred.ENGINE : Engine.BOUNCY_CASTLE;
  }

  /** The engine for the X25519 suite, chosen (and a fallback logged) once per process. */
  private static final class Preferred {
    /** The order of preference, fastest first (docs/PERFORMANCE.md "HPKE open"). */
    private static final Engine[] ORDER = {Engine.OPENSSL, Engine.NATIVE, Engine.JAVA};
    static final Engine ENGINE = choose();

    private static Engine choose() {
      Engine chosen = Engine.BOUNCY_CASTLE;
      for (Engine e : ORDER) {
        if (available(e)) {
          chosen = e;
          break;
        }
      }
      if (chosen != ORDER[0]) {
        HpkeEngines.logFallback(describe(chosen));
      }
      return chosen;
    }
  }

  private static String describe(Engine e) {
    return e + ": " + jcaEngine(e).map(JcaHpke::name).orElse("Bouncy Castle lightweight HPKE");
  }

  /** Returns true if this process can run the engine (the native one needs its library). */
  public static boolean available(Engine e) {
    return e == Engine.BOUNCY_CASTLE || jcaEngine(e).isPresent();
  }

  /**
   * Returns which engine runs DHKEM(X25519) / HKDF-SHA256 / AES-128-GCM in this process, named
   * with its provider, for logs and benchmark output.
   */
  public static String implementation() {
    return describe(Preferred.ENGINE);
  }

  /**
   * Computes one bare X25519 (RFC 7748 section 5, the DH of RFC 9180 section 4.1) with the
   * engine's key agreement, for benchmarks and tests: the floor under one open.
   */
  public static byte[] x25519(Engine engine, byte[] sk, byte[] pk) throws HpkeException {
    if (sk.length != 32 || pk.length != 32) {
      throw new HpkeException("X25519 keys are 32 bytes", null);
    }
    if (engine == Engine.BOUNCY_CASTLE) {
      byte[] out = new byte[32];
      if (!JcaHpke.BC_X25519.agree(sk, pk, out)) {
        throw new HpkeException("X25519 shared secret is all zero: low-order public key", null);
      }
      return out;
    }
    return jcaEngine(engine).orElseThrow(() -> new IllegalArgumentException(
        "HPKE engine " + engine + " is not available in this process")).x25519(sk, pk);
  }

  /** Returns the suite. */
  public HpkeSuite suite() {
    return suite;
  }

  /** Returns the engine this instance runs on. */
  public Engine engine() {
    return engine;
  }

  /** Generates a fresh key pair from the platform's SecureRandom (RFC 9180 GenerateKeyPair). */
  public HpkeKeyPair generateKeyPair() {
    return toKeyPair(bc.generatePrivateKey());
  }

  /** Derives a key pair deterministically from input keying material (RFC 9180 DeriveKeyPair). */
  public HpkeKeyPair deriveKeyPair(byte[] ikm) {
    Objects.requireNonNull(ikm, "ikm");
    if (ikm.length < 32) {
      throw new IllegalArgumentException("ikm: " + ikm.length + " bytes; RFC 9180 requires at least Nsk");
    }
    return toKeyPair(bc.deriveKeyPair(ikm.clone()));
  }

  private HpkeKeyPair toKeyPair(AsymmetricCipherKeyPair kp) {
    return new HpkeKeyPair(suite.kem(), bc.serializePrivateKey(kp.getPrivate()),
        bc.serializePublicKey(kp.getPublic()));
  }

  private AsymmetricKeyParameter publicKey(byte[] pk) throws HpkeException {
    Objects.requireNonNull(pk, "public key");
    if (pk.length != suite.kem().publicKeyLength()) {
      throw new HpkeException("public key has " + pk.length + " bytes, " + suite.kem() + " needs "
          + suite.kem().publicKeyLength(), null);
    }
    try {
      return bc.deserializePublicKey(pk.clone());
    } catch (RuntimeException e) {
      throw new HpkeException("invalid " + suite.kem() + " public key", e);
    }
  }

  private AsymmetricCipherKeyPair keyPair(HpkeKeyPair kp) throws HpkeException {
    Objects.requireNonNull(kp, "key pair");
    if (kp.kem() != suite.kem()) {
      throw new HpkeException("key pair is for " + kp.kem() + ", suite uses " + suite.kem(), null);
    }
    try {
      return bc.deserializePrivateKey(kp.secretKey(), kp.publicKey());
    } catch (RuntimeException e) {
      throw new HpkeException("invalid " + suite.kem() + " key pair", e);
    }
  }

  /** Encrypts one message to the recipient's serialized public key (RFC 9180 SealBase). */
  public HpkeSealed seal(byte[] pkR, byte[] info, byte[] aad, byte[] plaintext) throws HpkeException {
    SenderContext ctx = setupBaseSender(pkR, info);
    return new HpkeSealed(ctx.enc(), ctx.seal(aad, plaintext));
  }

  /** Decrypts one message (RFC 9180 OpenBase); any failure is reported as HpkeException. */
  public byte[] open(HpkeKeyPair skR, byte[] enc, byte[] info, byte[] aad, byte[] ciphertext)
      throws HpkeException {
    return setupBaseReceiver(enc, skR, info).open(aad, ciphertext);
  }

  /** Sets up a sender context with a fresh ephemeral key (RFC 9180 SetupBaseS). */
  public SenderContext setupBaseSender(byte[] pkR, byte[] info) throws HpkeException {
    if (jca != null) {
      return jcaSender(pkR, info, null);
    }
    AsymmetricKeyParameter pk = publicKey(pkR);
    try {
      return new SenderContext(bc.setupBaseS(pk, Objects.requireNonNull(info, "info").clone()));
    } catch (RuntimeException e) {
      throw new HpkeException("HPKE encapsulation failed", e);
    }
  }

  /**
   * Sets up a sender context with the given ephemeral key pair (RFC 9180 SetupBaseS with a fixed
   * skE); for known-answer tests only, never reuse an ephemeral key.
   */
  public SenderContext setupBaseSender(byte[] pkR, byte[] info, HpkeKeyPair ephemeral)
      throws HpkeException {
    if (jca != null) {
      keyPair(ephemeral);
      return jcaSender(pkR, info, ephemeral);
    }
    AsymmetricKeyParameter pk = publicKey(pkR);
    AsymmetricCipherKeyPair e = keyPair(ephemeral);
    try {
      return new SenderContext(bc.setupBaseS(pk, Objects.requireNonNull(info, "info").clone(), e));
    } catch (RuntimeException ex) {
      throw new HpkeException("HPKE encapsulation failed", ex);
    }
  }

  private SenderContext jcaSender(byte[] pkR, byte[] info, HpkeKeyPair ephemeral)
      throws HpkeException {
    checkLength("public key", Objects.requireNonNull(pkR, "public key"));
    JcaHpke.Sender s = jca.setupBaseSender(pkR, Objects.requireNonNull(info, "info"), ephemeral);
    return new SenderContext(null, s.enc(), s.context());
  }

  private void checkLength(String what, byte[] key) throws HpkeException {
    if (key.length != suite.kem().publicKeyLength()) {
      throw new HpkeException(what + " has " + key.length + " bytes, " + suite.kem() + " needs "
          + suite.kem().publicKeyLength(), null);
    }
  }

  /** Sets up a receiver context from the encapsulated key (RFC 9180 SetupBaseR). */
  public ReceiverContext setupBaseReceiver(byte[] enc, HpkeKeyPair skR, byte[] info)
      throws HpkeException {
    Objects.requireNonNull(enc, "enc");
    if (jca != null) {
      Objects.requireNonNull(skR, "key pair");
      if (skR.kem() != suite.kem()) {
        throw new HpkeException("key pair is for " + skR.kem() + ", suite uses " + suite.kem(), null);
      }
      checkLength("enc", enc);
      return new ReceiverContext(null, jca.setupBaseReceiver(enc, skR,
          Objects.requireNonNull(info, "info")));
    }
    AsymmetricCipherKeyPair kp = keyPair(skR);
    checkLength("enc", enc);
    try {
      return new ReceiverContext(bc.setupBaseR(enc.clone(), kp, Objects.requireNonNull(info, "info").clone()));
    } catch (RuntimeException e) {
      throw new HpkeException("HPKE decapsulation failed", e);
    }
  }

  /** An RFC 9180 sender context: seals messages in sequence and exports secrets. Not thread-safe. */
  public static final class SenderContext {
    private final HPKEContextWithEncapsulation ctx;
    private final byte[] enc;
    private final JcaHpke.Context jca;

    private SenderContext(HPKEContextWithEncapsulation ctx) {
      this(ctx, ctx.getEncapsulation(), null);
    }

    private SenderContext(HPKEContextWithEncapsulation ctx, byte[] enc, JcaHpke.Context jca) {
      this.ctx = ctx;
      this.enc = enc.clone();
      this.jca = jca;
    }

    /** Returns the encapsulated key enc. */
    public byte[] enc() {
      return enc.clone();
    }

    /** Seals the next message (RFC 9180 section 5.2 ContextS.Seal). */
    public byte[] seal(byte[] aad, byte[] plaintext) throws HpkeException {
      Objects.requireNonNull(aad, "aad");
      Objects.requireNonNull(plaintext, "plaintext");
      if (jca != null) {
        return jca.seal(aad, plaintext);
      }
      try {
        return ctx.seal(aad, plaintext);
      } catch (InvalidCipherTextException | RuntimeException e) {
        throw new HpkeException("HPKE seal failed", e);
      }
    }

    /** Exports a secret (RFC 9180 section 5.3 Context.Export). */
    public byte[] export(byte[] exporterContext, int length) {
      return jca != null ? jca.export(exporterContext, length) : ctx.export(exporterContext, length);
    }
  }

  /** An RFC 9180 receiver context: opens messages in sequence and exports secrets. Not thread-safe. */
  public static final class ReceiverContext {
    private final HPKEContext ctx;
    private final JcaHpke.Context jca;

    private ReceiverContext(HPKEContext ctx) {
      this(ctx, null);
    }

    private ReceiverContext(HPKEContext ctx, JcaHpke.Context jca) {
      this.ctx = ctx;
      this.jca = jca;
    }

    /** Opens the next message (RFC 9180 section 5.2 ContextR.Open); fails with HpkeException. */
    public byte[] open(byte[] aad, byte[] ciphertext) throws HpkeException {
      Objects.requireNonNull(aad, "aad");
      Objects.requireNonNull(ciphertext, "ciphertext");
      if (jca != null) {
        return jca.open(aad, ciphertext);
      }
      try {
        return ctx.open(aad, ciphertext);
      } catch (InvalidCipherTextException | RuntimeException e) {
        throw new HpkeException("HPKE open failed: ciphertext did not authenticate", e);
      }
    }

    /** Exports a secret (RFC 9180 section 5.3 Context.Export). */
    public byte[] export(byte[] exporterContext, int length) {
      return jca != null ? jca.export(exporterContext, length) : ctx.export(exporterContext, length);
    }
  }
}
