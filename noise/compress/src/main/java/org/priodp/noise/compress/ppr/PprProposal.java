package org.priodp.noise.compress.ppr;

import org.priodp.noise.RandomSource;

/**
 * The proposal distribution Q of Poisson private representation: the distribution of the shared
 * samples Z_1, Z_2, ... that encoder and decoder both see. Only Q is shared; the simulated
 * mechanism ({@link PprTarget}) is known to the encoder alone.
 *
 * @param <Z> the output space
 */
public interface PprProposal<Z> {
  /**
   * Draws one sample of Q from {@code shared}, reading at most {@link #maxBitsPerSample()} bits
   * (the codec checks this: each sample owns a fixed slice of the shared stream).
   */
  Z sample(RandomSource shared);

  /** An upper bound on the number of bits one call of {@link #sample} reads; >= 1. */
  int maxBitsPerSample();
}
