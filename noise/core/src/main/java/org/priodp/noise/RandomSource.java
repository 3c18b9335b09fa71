package org.priodp.noise;

/**
 * A source of uniformly random bits, injected into every sampler.
 *
 * <p>Samplers never create their own randomness. Production code uses {@link #secure()} (a
 * fast-key-erasure AES-256-CTR stream keyed from the JDK DRBG) or {@link #jdkDrbg()} (the JDK
 * DRBG itself); tests and reproducible runs use {@link #seeded(byte[])}. Implementations are not
 * thread-safe: give each thread its own source.
 */
public interface RandomSource {

  /** Returns one uniformly random bit (0 or 1). */
  int nextBit();

  /**
   * Returns {@code k} uniformly random bits in the low bits of the result, 0 <= k <= 64.
   *
   * @throws IllegalArgumentException if k is outside [0, 64]
   */
  long nextBits(int k);

  /** Returns 64 uniformly random bits. */
  default long nextLong() {
    return nextBits(64);
  }

  /** Returns the number of random bits handed out so far, for accounting and tests. */
  long bitsConsumed();

  /**
   * Returns the production source: a new {@link FastKeyErasureRandomSource}, a fast-key-erasure
   * AES-256-CTR stream keyed from its own new JDK DRBG and rekeyed from it every 64 MiB (the
   * schedule and the security argument are in that class). Every call returns an independently
   * keyed source.
   */
  static RandomSource secure() {
    return new FastKeyErasureRandomSource(SecureRandomSource.newDrbg());
  }

  /**
   * Returns a buffered source over a new {@link java.security.SecureRandom}: the JDK's "DRBG"
   * (NIST SP 800-90A, seeded from the system entropy source), which delivers about 3.5 times
   * the throughput of the platform default NativePRNG on this project's machines; the platform
   * default when DRBG is unavailable. Slower than {@link #secure()}, for those who want every
   * bit straight from the DRBG.
   */
  static RandomSource jdkDrbg() {
    return new SecureRandomSource(SecureRandomSource.newDrbg());
  }

  /**
   * Returns a deterministic source: the AES-256-CTR keystream under the SHA-256 digest of
   * {@code seed}. The same seed always yields the same bits.
   */
  static RandomSource seeded(byte[] seed) {
    return new SeededRandomSource(seed);
  }
}
