package org.priodp.noise;

import java.math.BigInteger;

/**
 * An exact sampler of integer noise. The set is closed: the discrete Laplace, its
 * timing-hardened variant, and the discrete Gaussian.
 */
public sealed interface NoiseSampler permits DiscreteLaplace, HardenedDiscreteLaplace, DiscreteGaussian {

  /**
   * Draws one sample.
   *
   * @throws ArithmeticException if the sample does not fit in a long (only possible for scales
   *     beyond 2^55; use {@link #sampleBig})
   */
  long sample(RandomSource rnd);

  /** Draws one sample of any size. */
  BigInteger sampleBig(RandomSource rnd);

  /** Fills {@code out} with independent samples. */
  default void fill(long[] out, RandomSource rnd) {
    for (int i = 0; i < out.length; i++) {
      out[i] = sample(rnd);
    }
  }
}
