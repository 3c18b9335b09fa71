package org.priodp.noise;

import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;

/**
 * The production {@link RandomSource} ({@link RandomSource#secure()}): a fast-key-erasure
 * AES-256-CTR stream keyed from the JDK DRBG, after D. J. Bernstein, "Fast-key-erasure
 * random-number generators", 2017 (https://blog.cr.yp.to/20170723-random.html).
 *
 * <h2>Construction</h2>
 *
 * <p>The state is one 256-bit AES key {@code K}. Each refill computes {@code 32 + 65536} bytes of
 * AES-256-CTR keystream under {@code K} (initial counter block all zero, so the keystream is
 * {@code AES_K(0) || AES_K(1) || ... || AES_K(4097)}, counters as 128-bit big-endian integers);
 * the first 32 bytes replace {@code K}, which is thereby erased, and the remaining 64 KiB are the
 * output. The keystream is computed block by block: the JDK's {@code AES/ECB/NoPadding}
 * encrypts a buffer of the (public) counter blocks straight into the key array and the output
 * buffer. Every output word is overwritten with zeros in the buffer as soon as it is handed out
 * (see {@link BlockRandomSource}). Right after each refill the cipher is re-initialized with a
 * fixed all-zero dummy key, which makes the AES provider erase its copies of {@code K}.
 *
 * <h2>Keying and rekeying schedule</h2>
 *
 * <p>At construction {@code K} is 32 bytes read from the DRBG. Before every 1024th subsequent
 * refill (that is, after every 64 MiB of output, 2<sup>22</sup> output blocks) another 32 bytes
 * are read from the DRBG and XOR-ed into {@code K}; the 32 bytes are zeroed right after. Mixing
 * (rather than replacing) keeps the key secret if either the chain or the DRBG output is secret.
 * Each instance is keyed by its own read of the DRBG ({@link RandomSource#secure()} gives each
 * instance its own new DRBG as well); nothing is shared between instances (the only static
 * state is the all-zero dummy key), so two instances never share a stream. A snapshot or clone
 * of a running virtual machine duplicates the state of every generator in it, this one and the
 * DRBG alike, until the next rekey: build new sources after a restore.
 *
 * <h2>Security argument</h2>
 *
 * <ul>
 *   <li><b>Pseudorandomness.</b> Each key is used for exactly one refill of 4098 AES blocks with
 *       distinct counters and is never used again (the zero initial counter is therefore never
 *       reused under one key). If AES-256 is a pseudorandom permutation, then by the PRP/PRF
 *       switching lemma (Bellare and Rogaway, "The security of triple encryption and a
 *       framework for code-based game-playing proofs", EUROCRYPT 2006) its outputs on q = 4098
 *       distinct inputs are indistinguishable from uniform up to q<sup>2</sup>/2<sup>129</sup>
 *       &lt; 2<sup>-104</sup> per key; the output of one refill and the next key are thus
 *       uniform and independent of each other, and a hybrid argument over the chain of keys
 *       bounds the advantage against n refills by n times (the AES PRP advantage + 2<sup>-104</sup>)
 *       (Bernstein 2017; the same argument as for the generators of Barak and Halevi, "A model
 *       and architecture for pseudo-random generation with applications to /dev/random", CCS
 *       2005). The bound on output per key is 64 KiB; per DRBG read it is 64 MiB.
 *   <li><b>Forward secrecy (backtracking resistance).</b> An attacker who learns the state at
 *       some moment learns {@code K} and the not-yet-used rest of the current buffer, i.e. only
 *       future output until the next rekey. Earlier output stays secret: each earlier key
 *       {@code K_i} was overwritten by {@code K_(i+1)}, and by the PRF argument above the pair
 *       (output of refill i, {@code K_(i+1)}) is indistinguishable from uniform to anybody who
 *       does not know {@code K_i}, so knowing {@code K_(i+1)} and everything after it says nothing
 *       about that output. This needs the erasure below to hold.
 *   <li><b>Recovery (prediction resistance after compromise).</b> The next rekey mixes 256 fresh
 *       bits from the DRBG (NIST SP 800-90A, seeded by the platform entropy source), so an
 *       attacker who learned this generator's state, but not the DRBG's, loses it within 64 MiB
 *       of output.
 * </ul>
 *
 * <h2>What stays in memory (issue 25, item 7)</h2>
 *
 * <p>Between two refills, which on an idle server can be hours apart, the heap objects of a
 * generator hold exactly: {@code K} (the key of the next refill; 32 bytes in an array this
 * object owns), the not-yet-handed-out rest of the 64 KiB output buffer (handed-out words are
 * zero) and of the word being handed out bit by bit, the public counter blocks, the DRBG's own state (in the {@link SecureRandom}; SP
 * 800-90A updates it after every read), and, inside the {@code Cipher}, the provider's expanded
 * key (round keys) of the all-zero dummy key and its copy of the dummy key: no secret, and no
 * output that was handed out and no earlier key or key schedule. ECB mode keeps no state besides
 * the key, and the whole blocks of each update are written straight to the destination (no
 * partial block is buffered). The cipher is always SunJCE's (asked for by name, whatever other
 * providers are installed). This is what the JDK 17 SunJCE provider does (read from its
 * classes {@code AESCrypt}, {@code AESCipher}, {@code CipherCore}, {@code ElectronicCodeBook}
 * of OpenJDK 17.0.15) and what {@code FastKeyErasureRandomSourceTest} checks on the running JDK,
 * reflectively, after draws mid-chunk and at the end of a chunk:
 *
 * <ul>
 *   <li>The key reaches the provider only through {@link Key#getEncoded()} of a view of this
 *       object's key array; the provider zeroes every copy it takes that way before
 *       {@code Cipher.init} returns, and keeps one copy of its own plus the round keys (for
 *       encryption and decryption) while keyed. Re-initializing it with another key (the dummy)
 *       overwrites its copy and both arrays of round keys with zeros, and zeroes the temporary
 *       arrays of the key expansion. So during a refill (the time to encrypt 4098 blocks)
 *       {@code K} and its round keys are in the provider; after it, nowhere on the heap. A
 *       {@code javax.crypto.spec.SecretKeySpec} is not used because it keeps its own copy until
 *       the garbage collector reclaims it ({@code destroy()} is not implemented in Java 17).
 *   <li>AES/CTR is not used, because its {@code CounterMode} keeps the last keystream block in
 *       a field ({@code encryptedCounter}) across a re-init: with it, the last 16 output bytes of
 *       each chunk stayed in memory after they were handed out, until the next refill.
 * </ul>
 *
 * <p>Beyond what this class controls: the JVM's copying garbage collectors may move a live array
 * (the key array, the output buffer, the provider's round keys) and leave the old copy in free
 * heap until that memory is reused, so a stale copy may hold output that has since been handed
 * out, or a key that has since been replaced (Java 17 offers no way to pin or lock heap arrays);
 * the AES intrinsics hold round keys and blocks in CPU registers and the stack while they run;
 * the process memory can be swapped or dumped; and the values handed out are the caller's to
 * erase. The AES block function and the ECB loop are HotSpot intrinsics ({@code
 * AESCrypt.implEncryptBlock}, {@code ElectronicCodeBook.implECBEncrypt}), compiled to AES-NI on
 * x86-64 and the ARMv8 crypto extensions on AArch64 where the CPU has them (no table lookups
 * indexed by secrets); on a CPU without them SunJCE's Java code uses lookup tables.
 *
 * <p>Not thread-safe, like every {@link RandomSource}: give each thread its own instance, or
 * synchronize every use of a shared one on the instance.
 */
public final class FastKeyErasureRandomSource extends BlockRandomSource {
  /** Output bytes per refill: 64 KiB (4096 AES blocks). */
  static final int CHUNK_BYTES = 1 << 16;
  /** Refills between two DRBG reads: 1024, so 64 MiB of output per DRBG read. */
  static final int REFILLS_PER_REKEY = 1024;
  /** Key length in bytes (AES-256). */
  static final int KEY_BYTES = 32;
  /** AES block length in bytes. */
  private static final int AES_BLOCK = 16;

  /** The key the cipher holds between refills: all zero, no secret. */
  private static final OwnedKey DUMMY_KEY = new OwnedKey(new byte[KEY_BYTES]);

  private final SecureRandom drbg;
  private final Cipher ecb;
  /** K, the only secret this object holds besides the unused rest of the output buffer. */
  private final byte[] key = new byte[KEY_BYTES];
  /** A view of {@link #key} (no copy) that the cipher reads the key through. */
  private final OwnedKey keyView = new OwnedKey(key);
  private final byte[] fresh = new byte[KEY_BYTES];
  /** The counter blocks 0, 1, ..., 32/16 + chunk/16 - 1 (128-bit big-endian): public, the same for each key. */
  private final byte[] counters;
  private final int refillsPerRekey;
  private int refillsSinceRekey;

  /**
   * Creates a generator keyed from a new JDK DRBG ({@code SecureRandom.getInstance("DRBG")}, the
   * platform default {@link SecureRandom} where DRBG is unavailable); both are non-blocking once
   * the system is seeded.
   */
  public FastKeyErasureRandomSource() {
    this(SecureRandomSource.newDrbg());
  }

  /**
   * Creates a generator keyed from {@code drbg}, which it owns from now on (it reads 32 bytes at
   * construction and 32 bytes per 64 MiB of output; use it from no other thread).
   */
  public FastKeyErasureRandomSource(SecureRandom drbg) {
    this(null, drbg, CHUNK_BYTES, REFILLS_PER_REKEY);
  }

  /**
   * For tests: starts from {@code initialKey} if it is non-null (without reading {@code drbg}),
   * else from 32 bytes of {@code drbg}; outputs {@code chunkBytes} per refill and mixes 32 bytes of
   * {@code drbg} into the key before every {@code refillsPerRekey}-th refill after the first.
   */
  FastKeyErasureRandomSource(byte[] initialKey, SecureRandom drbg, int chunkBytes, int refillsPerRekey) {
    super(chunkBytes, true);
    if (chunkBytes % AES_BLOCK != 0) {
      throw new IllegalArgumentException("chunk must be whole AES blocks, got " + chunkBytes + " bytes");
    }
    if (refillsPerRekey < 1) {
      throw new IllegalArgumentException("refills per rekey must be >= 1, got " + refillsPerRekey);
    }
    this.drbg = Objects.requireNonNull(drbg, "drbg");
    this.refillsPerRekey = refillsPerRekey;
    this.counters = new byte[KEY_BYTES + chunkBytes];
    for (int b = 0; b < counters.length / AES_BLOCK; b++) {
      // block b is the 128-bit big-endian integer b; b < 2^31, so only the last 4 bytes are set
      for (int i = 0; i < 4; i++) {
        counters[AES_BLOCK * b + AES_BLOCK - 1 - i] = (byte) (b >>> (8 * i));
      }
    }
    try {
      // the JDK's own provider, whose handling of keys the class javadoc describes
      this.ecb = Cipher.getInstance("AES/ECB/NoPadding", "SunJCE");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES of the JDK's SunJCE provider is missing", e);
    }
    if (initialKey != null) {
      if (initialKey.length != KEY_BYTES) {
        throw new IllegalArgumentException("key must be 32 bytes, got " + initialKey.length);
      }
      System.arraycopy(initialKey, 0, key, 0, KEY_BYTES);
    } else {
      drbg.nextBytes(key);
    }
  }

  /** XORs 32 fresh DRBG bytes into the key. */
  private void rekey() {
    drbg.nextBytes(fresh);
    for (int i = 0; i < KEY_BYTES; i++) {
      key[i] ^= fresh[i];
    }
    Arrays.fill(fresh, (byte) 0);
  }

  @Override
  protected void fill(byte[] out) {
    if (refillsSinceRekey == refillsPerRekey) {
      rekey();
      refillsSinceRekey = 0;
    }
    try {
      // the provider expands K into its round keys; each copy of K it takes it zeroes
      ecb.init(Cipher.ENCRYPT_MODE, keyView);
      // AES_K(0) || AES_K(1) overwrite (erase) K; AES_K(2) ... are the output, written straight
      // into the caller's buffer, which zeroes each word as it hands it out
      if (ecb.update(counters, 0, KEY_BYTES, key, 0) != KEY_BYTES
          || ecb.update(counters, KEY_BYTES, out.length, out, 0) != out.length) {
        throw new IllegalStateException("AES-ECB returned a short output");
      }
      // the provider zeroes the round keys of K and its copy of K, and expands the dummy key
      ecb.init(Cipher.ENCRYPT_MODE, DUMMY_KEY);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES failed", e);
    }
    refillsSinceRekey++;
  }

  /**
   * A raw AES key that is a view of a byte array owned by the generator (no copy): each
   * {@link #getEncoded()} returns a new copy, which the JDK's AES provider zeroes after use. Not
   * serializable, so the key cannot leave the object that way. Package-private for the test,
   * which records the copies.
   */
  static class OwnedKey implements SecretKey {
    private static final long serialVersionUID = 1L;
    private final transient byte[] bytes;

    OwnedKey(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public String getAlgorithm() {
      return "AES";
    }

    @Override
    public String getFormat() {
      return "RAW";
    }

    @Override
    public byte[] getEncoded() {
      return bytes.clone();
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      throw new NotSerializableException("a FastKeyErasureRandomSource key is not serializable");
    }
  }
}
