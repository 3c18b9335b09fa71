package org.priodp.noise;

import java.math.BigInteger;
import java.util.Objects;
import org.priodp.noise.internal.Exact;
import org.priodp.noise.internal.LaplaceInversion;

/**
 * The discrete Laplace distribution with scale t > 0: P[Z = z] = (e^(1/t) - 1)/(e^(1/t) + 1) *
 * e^(-|z|/t) for every integer z, sampled exactly by inversion of a lazily read uniform against
 * certified bounds of P[|Z| >= k] = 2 e^(-k/t) / (1 + e^(-1/t)) (see the internal class
 * {@code LaplaceInversion}): no rejection, and on average within about 2 random bits of the
 * entropy at every scale in [2^-10, 2^40]. Outside that range (scales no budget in practice
 * produces) draws use the Canonne, Kamath and Steinke (2020, Algorithm 2) sampler of the same
 * distribution, which also stays available as the reference, {@link #sampleReference}.
 *
 * <p>Adding it to a query of L1 sensitivity GS with t = GS/epsilon gives epsilon-DP. The
 * running time grows with |z|, which leaks the size of the noise to an observer who can time
 * the sampler; {@link #hardened()} offers a fixed-work variant.
 */
public final class DiscreteLaplace implements NoiseSampler {
  private static final BigInteger LONG_T_LIMIT = BigInteger.ONE.shiftLeft(55);
  /** Scales up to this draw longs: P[|Z| >= 2^63] is below exp(-2^23). */
  private static final Rational LONG_DRAW_SCALE = Rational.of(BigInteger.ONE.shiftLeft(40));

  private final Rational scale;
  private final LaplaceInversion inversion;
  private final boolean longPath;
  private final long t;
  private final long s;

  private DiscreteLaplace(Rational scale) {
    this.scale = scale;
    this.inversion = new LaplaceInversion(scale.numerator(), scale.denominator());
    BigInteger num = scale.numerator();
    BigInteger den = scale.denominator();
    this.longPath = num.compareTo(LONG_T_LIMIT) <= 0 && den.bitLength() < 63;
    this.t = longPath ? num.longValue() : 0;
    this.s = longPath ? den.longValue() : 0;
  }

  /**
   * Returns the sampler for scale t.
   *
   * @throws IllegalArgumentException if the scale is not > 0
   */
  public static DiscreteLaplace of(Rational scale) {
    Objects.requireNonNull(scale, "scale");
    if (scale.signum() <= 0) {
      throw new IllegalArgumentException("discrete Laplace scale must be > 0, got " + scale);
    }
    return new DiscreteLaplace(scale);
  }

  /** Returns the sampler with scale sensitivityL1 / epsilon, which gives epsilon-DP. */
  public static DiscreteLaplace forBudget(BigInteger sensitivityL1, Budget.PureDp budget) {
    if (sensitivityL1.signum() <= 0) {
      throw new IllegalArgumentException("L1 sensitivity must be > 0, got " + sensitivityL1);
    }
    return of(Rational.of(sensitivityL1).divide(budget.epsilon()));
  }

  /** Returns the scale t. */
  public Rational scale() {
    return scale;
  }

  /** Returns the fixed-work variant for this scale with the default delta bound (2^-64). */
  public HardenedDiscreteLaplace hardened() {
    return HardenedDiscreteLaplace.of(scale);
  }

  @Override
  public long sample(RandomSource rnd) {
    if (inversion.fastPath()) {
      return inversion.sample(rnd);
    }
    return sampleReference(rnd);
  }

  @Override
  public BigInteger sampleBig(RandomSource rnd) {
    if (inversion.fastPath()) {
      return inversion.sampleBig(rnd);
    }
    return Exact.discreteLaplace(scale.numerator(), scale.denominator(), rnd);
  }

  /**
   * Draws one sample with the Canonne-Kamath-Steinke sampler (Algorithm 2), the reference
   * implementation of the same distribution, kept for tests and benchmarks; it reads several
   * times more random bits than {@link #sample}.
   *
   * @throws ArithmeticException if the sample does not fit in a long
   */
  public long sampleReference(RandomSource rnd) {
    if (longPath) {
      return Exact.discreteLaplace(t, s, rnd);
    }
    return Exact.discreteLaplace(scale.numerator(), scale.denominator(), rnd).longValueExact();
  }

  /** True for scales up to 2^40: a draw beyond the long range has probability below exp(-2^23). */
  @Override
  public boolean drawsFitLong() {
    return scale.compareTo(LONG_DRAW_SCALE) <= 0;
  }

  /** Returns Var[Z] = 2r / (1 - r)^2, r = e^(-1/t) ({@link Accuracy#laplaceVariance}). */
  @Override
  public double variance() { // double: a figure shown to people, never used to sample
    return Accuracy.laplaceVariance(scale);
  }

  @Override
  public BigInteger halfWidth(int draws, double confidence) { // double: a figure shown to people, never used to sample
    return Accuracy.halfWidth(draws, confidence, (n, c) -> Accuracy.laplaceHalfWidth(scale, n, c));
  }

  /** Returns 0: every draw is exact. */
  @Override
  public Rational totalVariationPerDraw() {
    return Rational.ZERO;
  }

  @Override
  public String describe() {
    return "discrete Laplace with scale " + scale;
  }

  @Override
  public String toString() {
    return "DiscreteLaplace(scale=" + scale + ")";
  }
}
