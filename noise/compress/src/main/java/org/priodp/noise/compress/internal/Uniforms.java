package org.priodp.noise.compress.internal;

import org.priodp.noise.RandomSource;

/**
 * Uniform variates built from 53 random bits of an injected source (design brief,
 * non-negotiable 1): every value is a multiple of 2^-53, so each uniform is exact on that grid
 * and its distribution differs from the continuous one by at most 2^-53 in Kolmogorov distance.
 * Shared by the compression mechanisms of {@code org.priodp.noise.compress}.
 *
 * <p>Also the exact uniform integer of the requantization channel's sampler ({@link #below}):
 * Lumbroso's Fast Dice Roller, the same algorithm, bit for bit, as the DP core's internal
 * {@code org.priodp.noise.internal.Exact#uniform(long, RandomSource)}, which this module cannot
 * read (the core does not export its internal package).
 */
public final class Uniforms {
  /** Largest bound {@link #below} accepts: 2^61, so the doubling of its state cannot overflow. */
  public static final long MAX_BOUND = 1L << 61;

  private static final double ULP = 0x1.0p-53; // double: for the continuous mechanisms of noise.compress only (DESIGN.md)

  private Uniforms() {}

  /** Uniform on {0, 2^-53, ..., 1 - 2^-53}, i.e. on [0, 1). */
  public static double unit(RandomSource rnd) { // double: for the continuous mechanisms of noise.compress only (DESIGN.md)
    return rnd.nextBits(53) * ULP;
  }

  /** Uniform on {2^-53, ..., 1}, i.e. on (0, 1]; safe to take the logarithm of. */
  public static double openClosed(RandomSource rnd) { // double: for the continuous mechanisms of noise.compress only (DESIGN.md)
    return (rnd.nextBits(53) + 1) * ULP;
  }

  /** Uniform on [-1/2, 1/2) (the dither U and the local W of the DQL paper, Sec. 2.2). */
  public static double centered(RandomSource rnd) { // double: for the continuous mechanisms of noise.compress only (DESIGN.md)
    return rnd.nextBits(53) * ULP - 0.5;
  }

  /**
   * Returns a uniform integer in [0, n), exactly, for 1 <= n <= {@link #MAX_BOUND} (Fast Dice
   * Roller: within two bits of log2(n) on average).
   *
   * @throws IllegalArgumentException if n is outside [1, 2^61]
   */
  public static long below(long n, RandomSource rnd) {
    if (n < 1 || n > MAX_BOUND) {
      throw new IllegalArgumentException("bound must be in [1, 2^61], got " + n);
    }
    long v = 1;
    long c = 0;
    while (true) {
      v <<= 1;
      c = (c << 1) | rnd.nextBit();
      if (v >= n) {
        if (c < n) {
          return c;
        }
        v -= n;
        c -= n;
      }
    }
  }
}
