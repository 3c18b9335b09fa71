package org.priodp.noise.local;

import java.util.Objects;
import org.priodp.noise.Budget;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;

/**
 * Binary randomized response RR_p (lecture, Section 1): report the private bit b with
 * probability 1 - p and 1 - b with probability p. By Theorem 2 it is epsilon-DP with epsilon =
 * ln((1 - p)/p); the flip is sampled exactly by {@link FlipProbability}.
 *
 * <p>Either fix epsilon (then p = 1/(1 + e^epsilon), never computed in floating point) or give
 * a rational p <= 1/2 (then e^epsilon = (1 - p)/p exactly). The collector estimates the
 * population mean with Claim 3 and bounds its error with Theorem 5; see {@link #estimator()}.
 *
 * @param flipProbability the exact flip probability p
 */
public record RandomizedResponse(FlipProbability flipProbability) implements LocalRandomizer {

  /** Validates that the flip probability is present. */
  public RandomizedResponse {
    Objects.requireNonNull(flipProbability, "flipProbability");
  }

  /** Returns RR with p = 1/(1 + e^epsilon), which is exactly epsilon-DP. */
  public static RandomizedResponse ofEpsilon(Rational epsilon) {
    return new RandomizedResponse(new FlipProbability.OfEpsilon(epsilon));
  }

  /** Returns RR for a pure-DP budget: p = 1/(1 + e^epsilon). */
  public static RandomizedResponse of(Budget.PureDp budget) {
    return ofEpsilon(budget.epsilon());
  }

  /** Returns RR_p for a rational p in (0, 1/2]; its privacy level is ln((1 - p)/p). */
  public static RandomizedResponse ofFlipProbability(Rational p) {
    return new RandomizedResponse(new FlipProbability.Given(p));
  }

  /**
   * Returns RR_p(bit): the bit, flipped with probability p.
   *
   * @throws IllegalArgumentException if bit is not 0 or 1
   */
  public int randomize(int bit, RandomSource rnd) {
    if (bit != 0 && bit != 1) {
      throw new IllegalArgumentException("randomized response takes a bit (0 or 1), got " + bit);
    }
    return flipProbability.flip(rnd) ? 1 - bit : bit;
  }

  @Override
  public int domainSize() {
    return 2;
  }

  @Override
  public LocalEstimator estimator() {
    return LocalEstimator.of(this);
  }
}
