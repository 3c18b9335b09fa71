package org.priodp.conformance.audit;

/**
 * Regularized incomplete gamma and beta functions, for p-values and binomial confidence
 * bounds. Double precision is fine here: these are statistics about samples, not privacy
 * computations.
 */
final class SpecialFunctions {
  private static final double EPS = 1e-15;
  private static final double TINY = 1e-300;
  private static final int MAX_ITER = 100_000;
  private static final double[] LANCZOS = {
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7
  };

  private SpecialFunctions() {}

  /** ln Gamma(x) for x > 0 (Lanczos approximation, g = 7). */
  static double lnGamma(double x) {
    if (x < 0.5) {
      return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
    }
    x -= 1;
    double a = LANCZOS[0];
    double t = x + 7.5;
    for (int i = 1; i < 9; i++) {
      a += LANCZOS[i] / (x + i);
    }
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
  }

  /** Upper regularized incomplete gamma Q(a, x) = Gamma(a, x) / Gamma(a). */
  static double gammaQ(double a, double x) {
    if (x <= 0) {
      return 1;
    }
    if (x < a + 1) {
      return 1 - gammaPSeries(a, x);
    }
    return gammaQContinuedFraction(a, x);
  }

  private static double gammaPSeries(double a, double x) {
    double sum = 1 / a;
    double term = sum;
    for (int n = 1; n < MAX_ITER; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) {
        break;
      }
    }
    return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
  }

  private static double gammaQContinuedFraction(double a, double x) {
    // modified Lentz for the continued fraction of Gamma(a, x)
    double b = x + 1 - a;
    double c = 1 / TINY;
    double d = 1 / b;
    double h = d;
    for (int i = 1; i < MAX_ITER; i++) {
      double an = -i * (i - a);
      b += 2;
      d = an * d + b;
      if (Math.abs(d) < TINY) {
        d = TINY;
      }
      c = b + an / c;
      if (Math.abs(c) < TINY) {
        c = TINY;
      }
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < EPS) {
        break;
      }
    }
    return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
  }

  /** Regularized incomplete beta I_x(a, b) for a, b > 0 and x in [0, 1]. */
  static double betaI(double x, double a, double b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    double lnFront = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
    if (x < (a + 1) / (a + b + 2)) {
      return Math.exp(lnFront) * betaContinuedFraction(x, a, b) / a;
    }
    return 1 - Math.exp(lnFront) * betaContinuedFraction(1 - x, b, a) / b;
  }

  private static double betaContinuedFraction(double x, double a, double b) {
    double qab = a + b;
    double qap = a + 1;
    double qam = a - 1;
    double c = 1;
    double d = 1 - qab * x / qap;
    if (Math.abs(d) < TINY) {
      d = TINY;
    }
    d = 1 / d;
    double h = d;
    for (int m = 1; m < MAX_ITER; m++) {
      int m2 = 2 * m;
      double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
      d = 1 + aa * d;
      d = Math.abs(d) < TINY ? TINY : d;
      c = 1 + aa / c;
      c = Math.abs(c) < TINY ? TINY : c;
      d = 1 / d;
      h *= d * c;
      aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
      d = 1 + aa * d;
      d = Math.abs(d) < TINY ? TINY : d;
      c = 1 + aa / c;
      c = Math.abs(c) < TINY ? TINY : c;
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < EPS) {
        break;
      }
    }
    return h;
  }
}
