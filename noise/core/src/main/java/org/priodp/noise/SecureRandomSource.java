package org.priodp.noise;

import java.security.SecureRandom;
import java.util.Objects;

/**
 * A {@link RandomSource} over a {@link SecureRandom} read 4 KiB at a time; {@link
 * RandomSource#jdkDrbg()} is this source over the JDK DRBG. (The default production source,
 * {@link RandomSource#secure()}, is the faster {@link FastKeyErasureRandomSource} keyed from the
 * same DRBG.)
 */
public final class SecureRandomSource extends BlockRandomSource {
  private final SecureRandom random;

  /** Wraps the given generator; it is used from one thread at a time. */
  public SecureRandomSource(SecureRandom random) {
    super(4096);
    this.random = Objects.requireNonNull(random, "random");
  }

  /**
   * Returns a new JDK DRBG ({@code SecureRandom.getInstance("DRBG")}: NIST SP 800-90A, seeded
   * from the system entropy source, non-blocking once the system is seeded), or the platform
   * default {@link SecureRandom} where DRBG is unavailable.
   */
  static SecureRandom newDrbg() {
    try {
      return SecureRandom.getInstance("DRBG");
    } catch (java.security.NoSuchAlgorithmException e) {
      return new SecureRandom();
    }
  }

  @Override
  protected void fill(byte[] out) {
    random.nextBytes(out);
  }
}
