package org.priodp.noise;

import java.math.BigInteger;

/**
 * A sampler of integer noise, exact or within a stated total variation of exact. The set is
 * closed: the discrete Laplace and the discrete Gaussian (Canonne, Kamath and Steinke 2020),
 * each with its timing-hardened (fixed-work) variant.
 *
 * <p>Each sampler also answers, for people, what its noise looks like: its variance, the
 * half-width of a confidence interval for the sum of independent draws, and a one-line
 * description. These figures are doubles or tail bounds (see {@link Accuracy}); nothing on the
 * sampling path uses them.
 */
public sealed interface NoiseSampler permits DiscreteLaplace, HardenedDiscreteLaplace, DiscreteGaussian,
    HardenedDiscreteGaussian {

  /**
   * Draws one sample.
   *
   * @throws ArithmeticException if the sample does not fit in a long (only possible for scales
   *     beyond 2^55; use {@link #sampleBig})
   */
  long sample(RandomSource rnd);

  /** Draws one sample of any size. */
  BigInteger sampleBig(RandomSource rnd);

  /**
   * Returns an exact upper bound on the total variation distance between one draw and the
   * distribution the sampler stands for: 0 for the exact samplers ({@link DiscreteLaplace},
   * {@link DiscreteGaussian}), {@code delta()} for the fixed-work ones ({@link
   * HardenedDiscreteLaplace}, {@link HardenedDiscreteGaussian}). A vector of n independent
   * draws is within n times this of the exact noise vector, so a mechanism that is (epsilon,
   * delta_0)-DP with exact noise is (epsilon, delta_0 + (1 + e^epsilon) n tv)-DP with this
   * sampler.
   */
  Rational totalVariationPerDraw();

  /** Fills {@code out} with independent samples. */
  default void fill(long[] out, RandomSource rnd) {
    for (int i = 0; i < out.length; i++) {
      out[i] = sample(rnd);
    }
  }

  /**
   * Returns true if {@link #sample} (and so {@link #fill}) is safe to use for every draw: a draw
   * beyond the long range has probability below exp(-2^23), and if it ever happens the sampler
   * throws instead of returning a wrong value. False for scales where {@link #sampleBig} is the
   * right call.
   */
  boolean drawsFitLong();

  /**
   * Returns the variance of one draw, for people (for the discrete Gaussian the upper bound
   * sigma^2, Canonne, Kamath and Steinke 2020, Corollary 9).
   */
  double variance(); // double: a figure shown to people, never used to sample

  /**
   * Returns the smallest k such that the sum of {@code draws} independent draws lies in [-k, k]
   * with probability at least {@code confidence}: the exact discrete Laplace tails for one and
   * two draws, the sub-Gaussian bound for the discrete Gaussian, and for more than two draws the
   * union bound n * k1 with k1 the one-draw half-width at confidence 1 - (1 - confidence)/n. Any
   * scale is accepted (no overflow).
   *
   * @throws IllegalArgumentException if draws < 1 or confidence is not in (0, 1)
   */
  BigInteger halfWidth(int draws, double confidence); // double: a figure shown to people, never used to sample

  /** Returns a one-line description for people, e.g. "discrete Laplace with scale 2". */
  String describe();
}
