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

  /**
   * Returns RR(bit) with fixed work: exactly 64 random bits and the same operations (a
   * branch-free comparison and an exclusive or) whatever the bit and the outcome, so the running
   * time does not show whether the bit was flipped.
   *
   * <p>The bit flips iff a 64-bit uniform is below an integer W with p' = W / 2^64 >= p, the
   * exact p rounded towards privacy: for p = 1/(1 + e^epsilon), W = ceil(2^64 / (L + 1)) with L
   * <= e^epsilon a certified lower bound ({@link
   * org.priodp.noise.internal.FixedWork#weightAtLeast}); for a given rational p, W = ceil(p
   * 2^64). Since p' <= 1/2 and p' >= p, (1 - p')/p' <= (1 - p)/p: the report is exactly as
   * private as RR_p or more (pure DP). p' exceeds p by less than 2^-64, so {@link #estimator()}'s
   * debiasing is off by at most about 2^-64 / (1 - 2p).
   *
   * @throws IllegalArgumentException if bit is not 0 or 1
   */
  public int randomizeFixedWork(int bit, RandomSource rnd) {
    if (bit != 0 && bit != 1) {
      throw new IllegalArgumentException("randomized response takes a bit (0 or 1), got " + bit);
    }
    return (int) (bit ^ org.priodp.noise.internal.FixedWork.lessThan(rnd.nextLong(), flipWeight()));
  }

  private static final java.util.Map<FlipProbability, Long> FLIP_WEIGHTS =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The integer W of {@link #randomizeFixedWork} (W / 2^64 >= p, W <= 2^63), computed once per p. */
  long flipWeight() {
    return FLIP_WEIGHTS.computeIfAbsent(flipProbability, f -> {
      java.math.BigInteger w;
      if (f instanceof FlipProbability.OfEpsilon e) {
        w = org.priodp.noise.internal.FixedWork.weightAtLeast(
            e.epsilon().numerator(), e.epsilon().denominator(), 1);
      } else {
        Rational p = ((FlipProbability.Given) f).p();
        java.math.BigInteger[] qr = p.numerator().shiftLeft(64).divideAndRemainder(p.denominator());
        w = qr[1].signum() == 0 ? qr[0] : qr[0].add(java.math.BigInteger.ONE);
      }
      if (w.bitLength() > 64 || w.compareTo(java.math.BigInteger.ONE.shiftLeft(63)) > 0) {
        throw new IllegalArgumentException("flip probability " + f + " is too close to 1/2 for fixed-work RR");
      }
      return w.longValue();
    });
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
