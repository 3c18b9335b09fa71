package org.priodp.noise;

import java.math.BigInteger;
import java.util.Objects;
import org.priodp.noise.internal.Exact;
import org.priodp.noise.internal.GaussianInversion;

/**
 * The discrete Gaussian distribution with variance parameter sigma^2 > 0: P[Z = z]
 * proportional to e^(-z^2 / (2 sigma^2)) for every integer z, sampled exactly.
 *
 * <p>For sigma^2 = n/d with n, d < 2^62 and sigma below about 2^40 (every practical budget),
 * draws come from rejection against a tight piecewise envelope (uniform blocks of width about
 * sigma/16 under e^(-(block start)^2 / (2 sigma^2)), and a geometric tail) that is itself
 * sampled by exact inversion of a lazily read uniform against certified bounds of its
 * cumulative masses (the internal class {@code GaussianInversion}); the acceptance rate is
 * about 97% and the random bits per draw stay within about 4 bits of the entropy. Outside
 * that range (sigma^2 below about 1/9, or beyond the long fast path): Canonne, Kamath and
 * Steinke (2020) Algorithm 3, which also stays available as the reference,
 * {@link #sampleReference}.
 *
 * <p>Adding it to a query of L2 sensitivity Delta with sigma^2 = Delta^2 / (2 rho) gives
 * rho-zCDP.
 */
public final class DiscreteGaussian implements NoiseSampler {
  /** sigma^2 up to this draws longs: P[|Z| >= 2^63] is below exp(-2^45). */
  private static final Rational LONG_DRAW_SIGMA2 = Rational.of(BigInteger.ONE.shiftLeft(80));

  private final Rational sigma2;
  private final GaussianInversion inversion;
  private final boolean longPath;
  private final long n;
  private final long d;
  private final long t;

  private DiscreteGaussian(Rational sigma2) {
    this.sigma2 = sigma2;
    BigInteger num = sigma2.numerator();
    BigInteger den = sigma2.denominator();
    BigInteger proposal = Exact.gaussianProposalScale(num, den);
    GaussianInversion inv = new GaussianInversion(num, den);
    this.inversion = inv.fastPath() ? inv : null;
    this.longPath = proposal.bitLength() <= 40 && num.bitLength() < 62 && den.bitLength() < 62;
    this.n = longPath ? num.longValue() : 0;
    this.d = longPath ? den.longValue() : 0;
    this.t = longPath ? proposal.longValue() : 0;
  }

  /**
   * Returns the sampler for variance parameter sigma^2.
   *
   * @throws IllegalArgumentException if sigma^2 is not > 0
   */
  public static DiscreteGaussian of(Rational sigma2) {
    Objects.requireNonNull(sigma2, "sigma2");
    if (sigma2.signum() <= 0) {
      throw new IllegalArgumentException("discrete Gaussian sigma^2 must be > 0, got " + sigma2);
    }
    return new DiscreteGaussian(sigma2);
  }

  /** Returns the sampler with sigma^2 = sensitivityL2Squared / (2 rho), which gives rho-zCDP. */
  public static DiscreteGaussian forBudget(BigInteger sensitivityL2Squared, Budget.ZCdp budget) {
    if (sensitivityL2Squared.signum() <= 0) {
      throw new IllegalArgumentException("squared L2 sensitivity must be > 0, got " + sensitivityL2Squared);
    }
    return of(Rational.of(sensitivityL2Squared).divide(budget.rho().multiply(Rational.of(2))));
  }

  /** Returns sigma^2. */
  public Rational sigma2() {
    return sigma2;
  }

  /**
   * Returns the fixed-work sampler for the same sigma^2 ({@link HardenedDiscreteGaussian}, delta
   * <= 2^-64 per draw).
   *
   * @throws IllegalArgumentException if sigma^2 is beyond its range (the message names the
   *     largest supported sigma^2)
   */
  public HardenedDiscreteGaussian hardened() {
    return HardenedDiscreteGaussian.of(sigma2);
  }

  @Override
  public long sample(RandomSource rnd) {
    if (inversion != null) {
      return inversion.sample(rnd);
    }
    return sampleReference(rnd);
  }

  @Override
  public BigInteger sampleBig(RandomSource rnd) {
    if (inversion != null) {
      return BigInteger.valueOf(inversion.sample(rnd));
    }
    if (longPath) {
      return BigInteger.valueOf(Exact.discreteGaussian(n, d, t, rnd));
    }
    return Exact.discreteGaussian(sigma2.numerator(), sigma2.denominator(), rnd);
  }

  /**
   * Draws one sample with CKS Algorithm 3 and its own CKS Laplace proposals, the reference
   * implementation of the same distribution, kept for tests and benchmarks.
   *
   * @throws ArithmeticException if the sample does not fit in a long
   */
  public long sampleReference(RandomSource rnd) {
    if (longPath) {
      return Exact.discreteGaussian(n, d, t, rnd);
    }
    return Exact.discreteGaussian(sigma2.numerator(), sigma2.denominator(), rnd).longValueExact();
  }

  /** True for sigma^2 up to 2^80: a draw beyond the long range has probability below exp(-2^45). */
  @Override
  public boolean drawsFitLong() {
    return sigma2.compareTo(LONG_DRAW_SIGMA2) <= 0;
  }

  /** Returns sigma^2, an upper bound on the variance ({@link Accuracy#gaussianVarianceBound}). */
  @Override
  public double variance() { // double: a figure shown to people, never used to sample
    return Accuracy.gaussianVarianceBound(sigma2);
  }

  @Override
  public BigInteger halfWidth(int draws, double confidence) { // double: a figure shown to people, never used to sample
    return Accuracy.halfWidth(draws, confidence, (n, c) -> Accuracy.gaussianHalfWidth(sigma2, n, c));
  }

  /** Returns 0: every draw is exact. */
  @Override
  public Rational totalVariationPerDraw() {
    return Rational.ZERO;
  }

  @Override
  public String describe() {
    return "discrete Gaussian with sigma^2 " + sigma2;
  }

  @Override
  public String toString() {
    return "DiscreteGaussian(sigma2=" + sigma2 + ")";
  }
}
