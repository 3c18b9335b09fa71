package org.priodp.aggregator.hpke;

import java.util.Objects;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.hpke.HPKE;
import org.bouncycastle.crypto.hpke.HPKEContext;
import org.bouncycastle.crypto.hpke.HPKEContextWithEncapsulation;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;

/**
 * RFC 9180 HPKE in base mode (section 5.1.1 SetupBaseS/SetupBaseR, section 6.1 SealBase/OpenBase)
 * for one {@link HpkeSuite}, implemented with Bouncy Castle's {@code HPKE}. Instances are
 * immutable and thread-safe; the contexts they return are not.
 */
public final class Hpke {
  private final HpkeSuite suite;
  private final HPKE bc;

  /** Creates the adapter for a supported suite. */
  public Hpke(HpkeSuite suite) {
    this.suite = Objects.requireNonNull(suite, "suite");
    this.bc = new HPKE(HPKE.mode_base, (short) suite.kem().code(), (short) suite.kdf().code(),
        (short) suite.aead().code());
  }

  /** Returns the suite. */
  public HpkeSuite suite() {
    return suite;
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
    AsymmetricKeyParameter pk = publicKey(pkR);
    AsymmetricCipherKeyPair e = keyPair(ephemeral);
    try {
      return new SenderContext(bc.setupBaseS(pk, Objects.requireNonNull(info, "info").clone(), e));
    } catch (RuntimeException ex) {
      throw new HpkeException("HPKE encapsulation failed", ex);
    }
  }

  /** Sets up a receiver context from the encapsulated key (RFC 9180 SetupBaseR). */
  public ReceiverContext setupBaseReceiver(byte[] enc, HpkeKeyPair skR, byte[] info)
      throws HpkeException {
    AsymmetricCipherKeyPair kp = keyPair(skR);
    Objects.requireNonNull(enc, "enc");
    if (enc.length != suite.kem().publicKeyLength()) {
      throw new HpkeException("enc has " + enc.length + " bytes, " + suite.kem() + " needs "
          + suite.kem().publicKeyLength(), null);
    }
    try {
      return new ReceiverContext(bc.setupBaseR(enc.clone(), kp, Objects.requireNonNull(info, "info").clone()));
    } catch (RuntimeException e) {
      throw new HpkeException("HPKE decapsulation failed", e);
    }
  }

  /** An RFC 9180 sender context: seals messages in sequence and exports secrets. Not thread-safe. */
  public static final class SenderContext {
    private final HPKEContextWithEncapsulation ctx;

    private SenderContext(HPKEContextWithEncapsulation ctx) {
      this.ctx = ctx;
    }

    /** Returns the encapsulated key enc. */
    public byte[] enc() {
      return ctx.getEncapsulation().clone();
    }

    /** Seals the next message (RFC 9180 section 5.2 ContextS.Seal). */
    public byte[] seal(byte[] aad, byte[] plaintext) throws HpkeException {
      try {
        return ctx.seal(Objects.requireNonNull(aad, "aad"), Objects.requireNonNull(plaintext, "plaintext"));
      } catch (InvalidCipherTextException | RuntimeException e) {
        throw new HpkeException("HPKE seal failed", e);
      }
    }

    /** Exports a secret (RFC 9180 section 5.3 Context.Export). */
    public byte[] export(byte[] exporterContext, int length) {
      return ctx.export(exporterContext, length);
    }
  }

  /** An RFC 9180 receiver context: opens messages in sequence and exports secrets. Not thread-safe. */
  public static final class ReceiverContext {
    private final HPKEContext ctx;

    private ReceiverContext(HPKEContext ctx) {
      this.ctx = ctx;
    }

    /** Opens the next message (RFC 9180 section 5.2 ContextR.Open); fails with HpkeException. */
    public byte[] open(byte[] aad, byte[] ciphertext) throws HpkeException {
      try {
        return ctx.open(Objects.requireNonNull(aad, "aad"), Objects.requireNonNull(ciphertext, "ciphertext"));
      } catch (InvalidCipherTextException | RuntimeException e) {
        throw new HpkeException("HPKE open failed: ciphertext did not authenticate", e);
      }
    }

    /** Exports a secret (RFC 9180 section 5.3 Context.Export). */
    public byte[] export(byte[] exporterContext, int length) {
      return ctx.export(exporterContext, length);
    }
  }
}
