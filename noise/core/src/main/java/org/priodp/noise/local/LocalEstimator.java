package org.priodp.noise.local;

import org.priodp.noise.Accuracy;
import org.priodp.noise.Rational;

/**
 * The collector's unbiased estimator of true counts from locally randomized reports, and its
 * variance (lecture, Claim 3 and Theorem 5, generalised per coordinate).
 *
 * <p>Each randomizer reports, per coordinate j, a bit that is 1 with probability {@code a} if
 * the client's true value is j and with probability {@code b} otherwise (RR: a = 1 - p, b = p;
 * k-RR: a = e^eps/(e^eps + k - 1), b = 1/(e^eps + k - 1); RAPPOR: a and b of the truncated
 * report). With c_j true values j among n clients the observed sum Y_j has E[Y_j] = b n + (a - b)
 * c_j, so c_j^ = (Y_j - b n)/(a - b) is unbiased, and Var[c_j^] = (c_j a(1 - a) + (n - c_j) b(1 -
 * b) + V)/(a - b)^2 where V is the variance of central noise added to Y_j by the aggregators
 * (0 without it; e.g. 2 x {@link Accuracy#laplaceVariance} for two aggregators adding discrete
 * Laplace), which is zero-mean and so leaves the estimator unbiased. For RR this is Claim 3:
 * the lecture's p there is the probability of reporting the truth, our 1 - p.
 *
 * <p>Estimates shown to people: this class uses {@code double} on purpose (allowed by the design
 * brief); nothing here feeds a sampler, whose probabilities stay exact.
 *
 * @param a P[coordinate j is reported 1 | true value is j]
 * @param b P[coordinate j is reported 1 | true value is not j], with a > b
 */
public record LocalEstimator(double a, double b) {

  /** Validates 0 <= b < a <= 1. */
  public LocalEstimator {
    if (!(b >= 0 && a > b && a <= 1)) {
      throw new IllegalArgumentException(
          "need 0 <= b < a <= 1 (reports must carry information), got a = " + a + ", b = " + b);
    }
  }

  /** A debiased count with its variance (plug-in: the variance at the estimate clamped to [0, n]). */
  public record Debiased(double count, double variance) {
    /** Returns the standard deviation, sqrt(variance). */
    public double standardDeviation() {
      return Math.sqrt(variance);
    }
  }

  /** Returns the estimator for binary RR: a = 1 - p, b = p. */
  public static LocalEstimator of(RandomizedResponse rr) {
    double p = flipProbability(rr.flipProbability());
    if (!(p < 0.5)) {
      throw new IllegalArgumentException("RR with p = 1/2 reports no information; no estimator exists");
    }
    return new LocalEstimator(1 - p, p);
  }

  /** Returns the estimator for k-RR: a = 1/(1 + (k - 1) e^-eps), b = e^-eps a. */
  public static LocalEstimator of(KaryRandomizedResponse krr) {
    double q = Math.exp(-Accuracy.toDouble(krr.epsilon()));
    double a = 1 / (1 + (krr.k() - 1) * q);
    return new LocalEstimator(a, q * a);
  }

  /**
   * Returns the estimator for symmetric RAPPOR, accounting for the truncation to max weight w:
   * with f the per-bit flip probability, L the length and F_m the CDF of Binomial(m, f),
   * P[A] = (1 - f) F_(L-1)(w - 1) + f F_(L-1)(w), a = (1 - f) F_(L-1)(w - 1)/P[A] and b = f ((1 -
   * f) F_(L-2)(w - 2) + f F_(L-2)(w - 1))/P[A]. Without truncation a = 1 - f, b = f.
   */
  public static LocalEstimator of(SymmetricRappor r) {
    double f = flipProbability(r.perBitFlip());
    int len = r.length();
    int w = r.maxWeight();
    double logAcc = logRapporAcceptance(f, len, w);
    double logA = Math.log1p(-f) + logBinomialCdf(len - 1, f, w - 1) - logAcc;
    double logB = Math.log(f)
        + logSumExp(Math.log1p(-f) + logBinomialCdf(len - 2, f, w - 2),
            Math.log(f) + logBinomialCdf(len - 2, f, w - 1))
        - logAcc;
    return new LocalEstimator(Math.exp(logA), Math.exp(logB));
  }

  /** Returns P[weight of an untruncated report <= max weight], the acceptance probability of one attempt. */
  public static double rapporAcceptance(SymmetricRappor r) {
    return Math.exp(logRapporAcceptance(flipProbability(r.perBitFlip()), r.length(), r.maxWeight()));
  }

  /** Returns p as a double: 1/(1 + e^epsilon), or the given p. */
  public static double flipProbability(FlipProbability p) {
    if (p instanceof FlipProbability.OfEpsilon e) {
      double eps = Accuracy.toDouble(e.epsilon());
      return Math.exp(-eps) / (1 + Math.exp(-eps));
    }
    return Accuracy.toDouble(((FlipProbability.Given) p).p());
  }

  /** Returns the privacy level as a double: epsilon, or ln((1 - p)/p) (Theorem 2). */
  public static double epsilon(FlipProbability p) {
    if (p instanceof FlipProbability.OfEpsilon e) {
      return Accuracy.toDouble(e.epsilon());
    }
    Rational ratio = ((FlipProbability.Given) p).expEpsilon();
    return Math.log(Accuracy.toDouble(ratio));
  }

  /** Returns c^ = (Y - b n)/(a - b), the unbiased estimate of the true count from the observed sum Y. */
  public double estimateCount(double observedSum, long n) {
    checkN(n);
    return (observedSum - b * n) / (a - b);
  }

  /** Returns c^/n, the unbiased estimate of the population mean (Claim 3 for RR). */
  public double estimateMean(double observedSum, long n) {
    return estimateCount(observedSum, n) / n;
  }

  /**
   * Returns Var[c^] = (c a(1 - a) + (n - c) b(1 - b) + V)/(a - b)^2 for true count c among n
   * reports and central-noise variance V (0 if none).
   */
  public double countVariance(double trueCount, long n, double centralVariance) {
    checkN(n);
    if (!(trueCount >= 0 && trueCount <= n) || !(centralVariance >= 0)) {
      throw new IllegalArgumentException("need 0 <= count <= n and central variance >= 0, got count "
          + trueCount + ", n " + n + ", variance " + centralVariance);
    }
    double d = a - b;
    return (trueCount * a * (1 - a) + (n - trueCount) * b * (1 - b) + centralVariance) / (d * d);
  }

  /** Returns the largest {@link #countVariance} over all true counts: (n max(a(1-a), b(1-b)) + V)/(a - b)^2. */
  public double countVarianceBound(long n, double centralVariance) {
    return Math.max(countVariance(0, n, centralVariance), countVariance(n, n, centralVariance));
  }

  /** Returns the debiased count and its plug-in variance. */
  public Debiased debias(double observedSum, long n, double centralVariance) {
    double c = estimateCount(observedSum, n);
    double clamped = Math.min(n, Math.max(0, c));
    return new Debiased(c, countVariance(clamped, n, centralVariance));
  }

  /**
   * Returns the lecture's Theorem 5 half-width sqrt(1/delta)/(2 (a - b) sqrt(n)): with
   * probability at least 1 - delta the estimated mean is within it of the true mean (Chebyshev,
   * with each reported bit's variance at most 1/4). For RR, a - b = 1 - 2p.
   */
  public double meanHalfWidth(long n, double delta) {
    checkN(n);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
    return Math.sqrt(1 / delta) / (2 * (a - b) * Math.sqrt(n));
  }

  private static void checkN(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("need n >= 1 reports, got " + n);
    }
  }

  // ------------------------------------------------------------------ binomial tails, in logs

  private static double logRapporAcceptance(double f, int len, int w) {
    return logSumExp(Math.log1p(-f) + logBinomialCdf(len - 1, f, w - 1),
        Math.log(f) + logBinomialCdf(len - 1, f, w));
  }

  /** Returns ln P[Binomial(m, f) <= t] (-infinity for t < 0). */
  static double logBinomialCdf(int m, double f, int t) {
    if (t < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (t >= m) {
      return 0;
    }
    double logF = Math.log(f);
    double log1mF = Math.log1p(-f);
    double logChoose = 0; // ln C(m, i)
    double acc = Double.NEGATIVE_INFINITY;
    for (int i = 0; i <= t; i++) {
      if (i > 0) {
        logChoose += Math.log(m - i + 1) - Math.log(i);
      }
      acc = logSumExp(acc, logChoose + i * logF + (m - i) * log1mF);
    }
    return Math.min(0, acc);
  }

  private static double logSumExp(double x, double y) {
    if (x == Double.NEGATIVE_INFINITY) {
      return y;
    }
    if (y == Double.NEGATIVE_INFINITY) {
      return x;
    }
    double hi = Math.max(x, y);
    return hi + Math.log1p(Math.exp(Math.min(x, y) - hi));
  }
}
