package org.priodp.noise;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The production {@link RandomSource} ({@link RandomSource#secure()}): a fast-key-erasure
 * AES-256-CTR stream keyed from the JDK DRBG, after D. J. Bernstein, "Fast-key-erasure
 * random-number generators", 2017 (https://blog.cr.yp.to/20170723-random.html).
 *
 * <h2>Construction</h2>
 *
 * <p>The state is one 256-bit AES key {@code K}. Each refill computes {@code 32 + 65536} bytes of
 * AES-256-CTR keystream under {@code K} (initial counter block all zero, so the keystream is
 * {@code AES_K(0) || AES_K(1) || ... || AES_K(4097)}); the first 32 bytes replace {@code K}, which
 * is thereby erased, and the remaining 64 KiB are the output. Every output word is overwritten with
 * zeros in the buffer as soon as it is handed out (see {@link BlockRandomSource}), so the object
 * never holds output that was already used. The AES provider's copy of {@code K} (its key schedule)
 * is replaced right after each refill by re-initializing the cipher with a fixed all-zero dummy
 * key.
 *
 * <h2>Keying and rekeying schedule</h2>
 *
 * <p>At construction {@code K} is 32 bytes read from the DRBG. Before every 1024th subsequent
 * refill (that is, after every 64 MiB of output, 2<sup>22</sup> output blocks) another 32 bytes
 * are read from the DRBG and XOR-ed into {@code K}. Mixing (rather than replacing) keeps the key
 * secret if either the chain or the DRBG output is secret. Each instance is keyed by its own
 * read of the DRBG ({@link RandomSource#secure()} gives each instance its own new DRBG as well);
 * nothing is shared between instances (there is no static state), so two instances never share a
 * stream. A snapshot or clone of a running virtual machine duplicates the state of every
 * generator in it, this one and the DRBG alike, until the next rekey: build new sources after a
 * restore.
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
 *       about that output. Used output is zeroed in the buffer, so it cannot be read back.
 *   <li><b>Recovery (prediction resistance after compromise).</b> The next rekey mixes 256 fresh
 *       bits from the DRBG (NIST SP 800-90A, seeded by the platform entropy source), so an
 *       attacker who learned this generator's state, but not the DRBG's, loses it within 64 MiB
 *       of output.
 * </ul>
 *
 * <p>Erasure on the JVM is best effort: this class overwrites its own copies of keys and output,
 * but the JDK makes transient copies of each key (for instance inside {@link SecretKeySpec} and
 * the AES provider) that are left to the garbage collector, and the memory of a process can be
 * swapped or dumped. The keystream comes from {@code Cipher.getInstance("AES/CTR/NoPadding")},
 * which HotSpot compiles to AES-NI counter-mode intrinsics on x86-64 and the ARMv8 crypto
 * extensions on AArch64.
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

  private static final IvParameterSpec ZERO_IV = new IvParameterSpec(new byte[16]);
  private static final SecretKeySpec DUMMY_KEY = new SecretKeySpec(new byte[KEY_BYTES], "AES");

  private final SecureRandom drbg;
  private final Cipher cipher;
  private final byte[] key = new byte[KEY_BYTES];
  private final byte[] fresh = new byte[KEY_BYTES];
  private final byte[] zeros;
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
    if (chunkBytes % 16 != 0) {
      throw new IllegalArgumentException("chunk must be whole AES blocks, got " + chunkBytes + " bytes");
    }
    if (refillsPerRekey < 1) {
      throw new IllegalArgumentException("refills per rekey must be >= 1, got " + refillsPerRekey);
    }
    this.drbg = Objects.requireNonNull(drbg, "drbg");
    this.refillsPerRekey = refillsPerRekey;
    this.zeros = new byte[Math.max(chunkBytes, KEY_BYTES)];
    try {
      this.cipher = Cipher.getInstance("AES/CTR/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CTR is missing from this JDK", e);
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
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), ZERO_IV);
      // the first two keystream blocks overwrite (erase) the key they were made with
      if (cipher.update(zeros, 0, KEY_BYTES, key, 0) != KEY_BYTES
          || cipher.update(zeros, 0, out.length, out, 0) != out.length) {
        throw new IllegalStateException("AES-CTR returned a short keystream");
      }
      // replace the provider's key schedule for the old key
      cipher.init(Cipher.ENCRYPT_MODE, DUMMY_KEY, ZERO_IV);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CTR failed", e);
    }
    refillsSinceRekey++;
  }
}
