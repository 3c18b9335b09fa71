package org.priodp.noise;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.function.Function;

/**
 * Accuracy figures for people: variances, tails and confidence intervals of the noise.
 *
 * <p>These are estimates shown to people, so they use {@code double} (allowed by the design
 * brief for reports); nothing here feeds a sampler. Discrete Laplace figures are the exact
 * closed forms evaluated in double precision with {@code expm1} for stability; discrete
 * Gaussian intervals use the sub-Gaussian tail bound of Canonne, Kamath and Steinke (2020,
 * Corollary 9), so their coverage is at least the stated confidence.
 */
public final class Accuracy {
  private Accuracy() {}

  /** Returns a rational as a double, for display. */
  public static double toDouble(Rational r) {
    return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), MathContext.DECIMAL64).doubleValue();
  }

  // ------------------------------------------------------------------ discrete Laplace

  /** Returns Var[Z] = 2r / (1 - r)^2, r = e^(-1/t), for one discrete Laplace draw of scale t. */
  public static double laplaceVariance(Rational scale) {
    double t = positive(scale);
    double oneMinusR = -Math.expm1(-1 / t);
    double r = Math.exp(-1 / t);
    return 2 * r / (oneMinusR * oneMinusR);
  }

  /**
   * Returns P[|Z| >= k] for one discrete Laplace draw of scale t: 1 for k <= 0, else
   * 2 r^k / (1 + r).
   */
  public static double laplaceTail(Rational scale, long k) {
    return laplaceTail(scale, BigInteger.valueOf(k));
  }

  /** Returns P[|Z| >= k] for one discrete Laplace draw of scale t, for any k and any scale. */
  public static double laplaceTail(Rational scale, BigInteger k) {
    positive(scale);
    if (k.signum() <= 0) {
      return 1;
    }
    double r = Math.exp(-quotient(scale.denominator(), scale.numerator()));
    return Math.min(1, 2 * Math.exp(-kOverT(scale, k)) / (1 + r));
  }

  /**
   * Returns P[|Z1 + Z2| >= k] for two independent discrete Laplace draws of scale t (each
   * aggregator adds one), from the exact PMF of the sum: P[S = s] = c^2 r^|s| ((|s| + 1) +
   * 2 r^2 / (1 - r^2)) with c = (1 - r)/(1 + r).
   */
  public static double laplaceSumTail(Rational scale, long k) {
    return laplaceSumTail(scale, BigInteger.valueOf(k));
  }

  /**
   * Returns P[|Z1 + Z2| >= k] for two independent discrete Laplace draws of scale t, for any k
   * and any scale. Summing the PMF over |s| >= k gives, for k >= 1,
   * 2 r^k / (1 + r)^2 ((k + 1)(1 - r) + r + 2 r^2 / (1 + r)); it is evaluated with u = 1/t and
   * k/t computed from the exact ratios, so no intermediate overflows whatever t and k are.
   */
  public static double laplaceSumTail(Rational scale, BigInteger k) {
    positive(scale);
    if (k.signum() <= 0) {
      return 1;
    }
    double u = quotient(scale.denominator(), scale.numerator());
    double r = Math.exp(-u);
    double oneMinusROverU = u == 0 ? 1 : -Math.expm1(-u) / u; // (1 - r)/u, -> 1 as u -> 0
    double kPlusOneTimesOneMinusR = kOverT(scale, k.add(BigInteger.ONE)) * oneMinusROverU;
    double bracket = kPlusOneTimesOneMinusR + r + 2 * r * r / (1 + r);
    return Math.min(1, 2 * Math.exp(-kOverT(scale, k)) / ((1 + r) * (1 + r)) * bracket);
  }

  /**
   * Returns the smallest k >= 0 with P[|noise| > k] <= 1 - confidence, for the noise of one
   * ({@code aggregators = 1}) or two ({@code aggregators = 2}) discrete Laplace draws: the
   * interval value ± k covers the true value with probability at least {@code confidence}. Any
   * scale is accepted; the result is as large as it needs to be.
   */
  public static BigInteger laplaceHalfWidth(Rational scale, int aggregators, double confidence) {
    checkConfidence(confidence);
    positive(scale);
    double alpha = 1 - confidence;
    Function<BigInteger, Double> tailAbove = switch (aggregators) {
      case 1 -> k -> laplaceTail(scale, k.add(BigInteger.ONE));
      case 2 -> k -> laplaceSumTail(scale, k.add(BigInteger.ONE));
      default -> throw new IllegalArgumentException("aggregators must be 1 or 2, got " + aggregators);
    };
    return smallestK(tailAbove, alpha);
  }

  // ------------------------------------------------------------------ discrete Gaussian

  /**
   * Returns sigma^2, an upper bound on the variance of one discrete Gaussian draw (CKS 2020,
   * Corollary 9: the variance is at most sigma^2).
   */
  public static double gaussianVarianceBound(Rational sigma2) {
    return positive(sigma2);
  }

  /**
   * Returns the smallest k with 2 exp(-(k + 1)^2 / (2 n sigma^2)) <= 1 - confidence, for the sum
   * of n = {@code aggregators} independent discrete Gaussians, each sigma^2-sub-Gaussian (CKS
   * 2020): the interval value ± k covers the true value with probability at least
   * {@code confidence}. Any sigma^2 is accepted.
   */
  public static BigInteger gaussianHalfWidth(Rational sigma2, int aggregators, double confidence) {
    checkConfidence(confidence);
    positive(sigma2);
    if (aggregators != 1 && aggregators != 2) {
      throw new IllegalArgumentException("aggregators must be 1 or 2, got " + aggregators);
    }
    BigInteger twoNSigma2Num = sigma2.numerator().multiply(BigInteger.valueOf(2L * aggregators));
    double alpha = 1 - confidence;
    return smallestK(k -> {
      BigInteger k1 = k.add(BigInteger.ONE);
      double x = quotient(k1.multiply(k1).multiply(sigma2.denominator()), twoNSigma2Num);
      return Math.min(1, 2 * Math.exp(-x));
    }, alpha);
  }

  // ------------------------------------------------------------------ any number of draws

  /**
   * Returns the half-width for the sum of {@code draws} independent draws of one sampler, given
   * its exact half-width for one or two draws: that one for draws <= 2, else the union bound
   * n * k1 with k1 the one-draw half-width at confidence 1 - (1 - confidence)/n.
   */
  static BigInteger halfWidth(int draws, double confidence, HalfWidth oneOrTwo) {
    if (draws < 1) {
      throw new IllegalArgumentException("aggregators must be >= 1, got " + draws);
    }
    checkConfidence(confidence);
    if (draws > 2) {
      double perDraw = 1 - (1 - confidence) / draws;
      return BigInteger.valueOf(draws).multiply(oneOrTwo.of(1, perDraw));
    }
    return oneOrTwo.of(draws, confidence);
  }

  /** The exact half-width of one sampler for one or two draws. */
  @FunctionalInterface
  interface HalfWidth {
    BigInteger of(int draws, double confidence);
  }

  // ------------------------------------------------------------------ real-valued Laplace

  /**
   * Returns the lecture's accuracy bound ln(d/delta)·Δ/ε (Theorems 9 and 12): for the continuous
   * Laplace mechanism, every coordinate's error stays below it with probability at least 1 -
   * delta.
   */
  public static double lectureLaplaceBound(Rational sensitivityL1, Rational epsilon, int dimension, double delta) {
    checkConfidence(1 - delta);
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
    }
    return Math.log(dimension / delta) * positive(sensitivityL1) / positive(epsilon);
  }

  /**
   * Returns P[max_i |error_i| >= x] for the grid Laplace mechanism, from the exact tail of the
   * discrete Laplace in grid units: 1 - (1 - P[|Z| >= m])^d with m = ceil(x 2^k) (the errors
   * are multiples of 2^-k, and the d noises are independent).
   */
  public static double gridLaplaceExceedance(GridLaplace m, double x) {
    double units = Math.ceil(x * Math.pow(2, m.gridBits()));
    long k = units >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) units;
    double single = laplaceTail(m.noise().scale(), k);
    return -Math.expm1(m.dimension() * Math.log1p(-single));
  }

  /**
   * Returns the smallest half-width h (a multiple of 2^-k) with P[max_i |error_i| > h] <= delta
   * for the grid Laplace mechanism: the exact counterpart of {@link #lectureLaplaceBound}.
   */
  public static double gridLaplaceHalfWidth(GridLaplace m, double delta) {
    checkConfidence(1 - delta);
    int d = m.dimension();
    Rational scale = m.noise().scale();
    BigInteger k = smallestK(
        h -> -Math.expm1(d * Math.log1p(-laplaceTail(scale, h.add(BigInteger.ONE)))), delta);
    return k.doubleValue() / Math.pow(2, m.gridBits());
  }

  // ------------------------------------------------------------------ helpers

  /**
   * Smallest k >= 0 with tailAbove(k) <= alpha, for a non-increasing tailAbove that tends to 0:
   * doubling, then bisection, in BigInteger so that no scale overflows.
   */
  private static BigInteger smallestK(Function<BigInteger, Double> tailAbove, double alpha) {
    BigInteger hi = BigInteger.ONE;
    while (tailAbove.apply(hi) > alpha) {
      hi = hi.shiftLeft(1);
    }
    BigInteger lo = BigInteger.ONE.negate(); // tailAbove(lo) > alpha (lo = -1 means "none below")
    while (hi.subtract(lo).compareTo(BigInteger.ONE) > 0) {
      BigInteger mid = lo.add(hi).shiftRight(1);
      if (tailAbove.apply(mid) <= alpha) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  /** Returns k / t as a double, from the exact ratio k * den / num (t = num / den > 0, k >= 0). */
  private static double kOverT(Rational t, BigInteger k) {
    return quotient(k.multiply(t.denominator()), t.numerator());
  }

  /**
   * Returns a / b (a >= 0, b > 0) as a double with relative error below 2^-52, for integers of
   * any size: the quotient is formed to 62 significant bits and then scaled by a power of two
   * (0 on underflow, infinity on overflow).
   */
  static double quotient(BigInteger a, BigInteger b) {
    if (a.signum() == 0) {
      return 0;
    }
    int shift = a.bitLength() - b.bitLength() - 62;
    BigInteger q = shift >= 0 ? a.divide(b.shiftLeft(shift)) : a.shiftLeft(-shift).divide(b);
    return Math.scalb(q.doubleValue(), shift);
  }

  private static void checkConfidence(double confidence) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
    }
  }

  private static double positive(Rational r) {
    if (r.signum() <= 0) {
      throw new IllegalArgumentException("scale must be > 0, got " + r);
    }
    return toDouble(r);
  }
}
