package org.priodp.noise;

import java.math.BigDecimal;
import java.math.MathContext;

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
    double t = positive(scale);
    if (k <= 0) {
      return 1;
    }
    double r = Math.exp(-1 / t);
    return Math.min(1, 2 * Math.exp(-k / t) / (1 + r));
  }

  /**
   * Returns P[|Z1 + Z2| >= k] for two independent discrete Laplace draws of scale t (each
   * aggregator adds one), from the exact PMF of the sum: P[S = s] = c^2 r^|s| ((|s| + 1) +
   * 2 r^2 / (1 - r^2)) with c = (1 - r)/(1 + r).
   */
  public static double laplaceSumTail(Rational scale, long k) {
    double t = positive(scale);
    if (k <= 0) {
      return 1;
    }
    double r = Math.exp(-1 / t);
    double oneMinusR = -Math.expm1(-1 / t);
    double oneMinusR2 = -Math.expm1(-2 / t);
    double c = oneMinusR / (1 + r);
    double rk = Math.exp(-k / t);
    // sum_{s >= k} r^s (s + 1) = r^k ((k + 1)/(1 - r) + r/(1 - r)^2); sum_{s >= k} r^s = r^k/(1 - r)
    double bracket = (k + 1) / oneMinusR + r / (oneMinusR * oneMinusR)
        + 2 * r * r / (oneMinusR2 * oneMinusR);
    return Math.min(1, 2 * c * c * rk * bracket);
  }

  /**
   * Returns the smallest k >= 0 with P[|noise| > k] <= 1 - confidence, for the noise of one
   * ({@code aggregators = 1}) or two ({@code aggregators = 2}) discrete Laplace draws: the
   * interval value ± k covers the true value with probability at least {@code confidence}.
   */
  public static long laplaceHalfWidth(Rational scale, int aggregators, double confidence) {
    checkConfidence(confidence);
    double alpha = 1 - confidence;
    java.util.function.LongToDoubleFunction tailAbove = switch (aggregators) {
      case 1 -> k -> laplaceTail(scale, k + 1);
      case 2 -> k -> laplaceSumTail(scale, k + 1);
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
   * {@code confidence}.
   */
  public static long gaussianHalfWidth(Rational sigma2, int aggregators, double confidence) {
    checkConfidence(confidence);
    if (aggregators != 1 && aggregators != 2) {
      throw new IllegalArgumentException("aggregators must be 1 or 2, got " + aggregators);
    }
    double v = positive(sigma2) * aggregators;
    double alpha = 1 - confidence;
    return smallestK(k -> Math.min(1, 2 * Math.exp(-(double) (k + 1) * (k + 1) / (2 * v))), alpha);
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
    long k = smallestK(h -> -Math.expm1(d * Math.log1p(-laplaceTail(scale, h + 1))), delta);
    return k / Math.pow(2, m.gridBits());
  }

  // ------------------------------------------------------------------ helpers

  /** Smallest k >= 0 with tailAbove(k) <= alpha, for a non-increasing tailAbove. */
  private static long smallestK(java.util.function.LongToDoubleFunction tailAbove, double alpha) {
    long hi = 1;
    while (tailAbove.applyAsDouble(hi) > alpha) {
      if (hi > Long.MAX_VALUE / 4) {
        throw new ArithmeticException("interval half-width exceeds the long range");
      }
      hi *= 2;
    }
    long lo = -1; // tailAbove(lo) > alpha (lo = -1 means "none below")
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      if (tailAbove.applyAsDouble(mid) <= alpha) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
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
