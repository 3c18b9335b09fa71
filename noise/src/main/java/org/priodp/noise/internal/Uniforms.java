package org.priodp.noise.internal;

import org.priodp.noise.RandomSource;

/**
 * Uniform variates built from 53 random bits of an injected source (design brief,
 * non-negotiable 1): every value is a multiple of 2^-53, so each uniform is exact on that grid
 * and its distribution differs from the continuous one by at most 2^-53 in Kolmogorov distance.
 * Shared by the compression mechanisms of {@code org.priodp.noise.compress}.
 */
public final class Uniforms {
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
}
