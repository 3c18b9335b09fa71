package org.priodp.noise.local;

import java.util.Objects;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.internal.Exact;

/**
 * The probability p of flipping a private bit in randomized response (lecture, Section 1, RR_p),
 * held exactly: either p = 1/(1 + e^epsilon) for a rational epsilon, or a rational p in
 * (0, 1/2]. Theorem 2 of the lecture gives RR_p the privacy level epsilon = ln((1 - p)/p).
 *
 * <p>The set is closed. Neither form ever evaluates p in floating point: {@link #flip} draws
 * the coin exactly.
 */
public sealed interface FlipProbability permits FlipProbability.OfEpsilon, FlipProbability.Given {

  /** Returns true ("flip") with probability exactly p. */
  boolean flip(RandomSource rnd);

  /**
   * p = 1/(1 + e^epsilon): the flip probability that gives exactly epsilon-DP (Theorem 2).
   *
   * <p>Sampling, exactly: draw a uniform bit c. If c = 0, answer "keep". If c = 1, draw
   * Bernoulli(e^-epsilon) (exactly, {@link org.priodp.noise.internal.Exact#bernoulliExp}); on
   * success answer "flip", on failure start over. A round answers "keep" with probability 1/2,
   * "flip" with probability e^-epsilon/2 and starts over otherwise, and rounds are independent,
   * so P[flip] = (e^-epsilon/2) / (1/2 + e^-epsilon/2) = 1/(1 + e^epsilon). A round ends with
   * probability (1 + e^-epsilon)/2 >= 1/2, so at most two rounds are expected.
   *
   * @param epsilon the privacy level, > 0
   */
  record OfEpsilon(Rational epsilon) implements FlipProbability {
    /** Validates epsilon > 0. */
    public OfEpsilon {
      Objects.requireNonNull(epsilon, "epsilon");
      if (epsilon.signum() <= 0) {
        throw new IllegalArgumentException("epsilon must be > 0, got " + epsilon);
      }
    }

    @Override
    public boolean flip(RandomSource rnd) {
      while (true) {
        if (rnd.nextBit() == 0) {
          return false;
        }
        if (Exact.bernoulliExp(epsilon.numerator(), epsilon.denominator(), rnd)) {
          return true;
        }
      }
    }

    @Override
    public String toString() {
      return "p = 1/(1 + e^" + epsilon + "), epsilon = " + epsilon;
    }
  }

  /**
   * A given rational p in (0, 1/2]; the privacy level is epsilon = ln((1 - p)/p) (Theorem 2),
   * so {@link #expEpsilon()} = (1 - p)/p is exact. p = 1/2 gives epsilon = 0 (perfect privacy,
   * no information; lecture, Example 1); p = 0 would give no privacy and is rejected.
   *
   * @param p the flip probability
   */
  record Given(Rational p) implements FlipProbability {
    private static final Rational HALF = Rational.of(1, 2);

    /** Validates 0 < p <= 1/2. */
    public Given {
      Objects.requireNonNull(p, "p");
      if (p.signum() <= 0 || p.compareTo(HALF) > 0) {
        throw new IllegalArgumentException(
            "flip probability p must be in (0, 1/2] (p = 0 gives no privacy; RR_p and RR_(1-p) are"
                + " equivalent), got " + p);
      }
    }

    /** Returns e^epsilon = (1 - p)/p exactly (Theorem 2). */
    public Rational expEpsilon() {
      return Rational.ONE.subtract(p).divide(p);
    }

    @Override
    public boolean flip(RandomSource rnd) {
      return Exact.bernoulli(p.numerator(), p.denominator(), rnd);
    }

    @Override
    public String toString() {
      return "p = " + p + ", epsilon = ln(" + expEpsilon() + ")";
    }
  }
}
