package org.priodp.noise;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The exact discrete Gaussian PMF and a G-test of draws against it, shared by the tests of the
 * exact and the fixed-work Gaussian samplers. Doubles only for the test statistic.
 */
final class GaussianGTest {
  private GaussianGTest() {}

  /** Exact weights e^(-k^2 / (2 sigma^2)) for k = 0 .. K and the normalizer, to about 50 digits. */
  static final class Pmf {
    final BigDecimal[] w;
    final BigDecimal norm;

    Pmf(Rational sigma2) {
      // beyond 12 sigma + 20 the weights are below e^-72 of the peak: outside any bracket we test
      long kMax = 12 * (sigma2.ceil().sqrt().longValueExact() + 1) + 20;
      w = new BigDecimal[(int) kMax + 1];
      BigDecimal sum = BigDecimal.ZERO;
      for (int k = 0; k <= kMax; k++) {
        w[k] = ExactPmf.expNeg(Rational.of((long) k * k).divide(sigma2.multiply(Rational.of(2))));
        sum = sum.add(k == 0 ? w[k] : w[k].multiply(BigDecimal.valueOf(2)), ExactPmf.MC);
      }
      norm = sum;
    }

    BigDecimal p(long z) {
      long k = Math.abs(z);
      if (k >= w.length) {
        return BigDecimal.ZERO; // below e^-72 relative: far below every unresolved mass here
      }
      return w[(int) k].divide(norm, ExactPmf.MC);
    }
  }

  /**
   * Returns {G, df}: the G statistic of the draws against the PMF over bins of consecutive |z|
   * of probability about 0.02 each, split by sign (zero counted on the positive side).
   */
  static double[] gStatistic(Pmf pmf, long[] draws) {
    // bins of consecutive |z| with expected count >= n/100 on each side (the last bin open)
    int n = draws.length;
    int kMax = pmf.w.length - 1;
    List<long[]> bins = new ArrayList<>(); // {kFrom, kTo} inclusive on |z|
    List<Double> probs = new ArrayList<>(); // P[|Z| in bin] (both signs)
    double acc = 0;
    int from = 0;
    for (int k = 0; k <= kMax; k++) {
      acc += pmf.p(k).doubleValue() * (k == 0 ? 1 : 2); // double: only for the test statistic
      if (acc >= 0.02 || k == kMax) {
        bins.add(new long[] {from, k == kMax ? Long.MAX_VALUE : k});
        probs.add(acc);
        acc = 0;
        from = k + 1;
      }
    }
    // expected per (bin, sign): zero is counted on the positive side
    int nb = bins.size();
    double[] expected = new double[2 * nb];
    long[] observed = new long[2 * nb];
    for (int b = 0; b < nb; b++) {
      long f = bins.get(b)[0];
      double p0 = f == 0 ? pmf.p(0).doubleValue() : 0;
      expected[2 * b] = ((probs.get(b) - p0) / 2 + p0) * n;
      expected[2 * b + 1] = (probs.get(b) - p0) / 2 * n;
    }
    for (long z : draws) {
      long k = Math.abs(z);
      int b = 0;
      while (k > bins.get(b)[1]) {
        b++;
      }
      observed[2 * b + (z < 0 ? 1 : 0)]++;
    }
    double g = 0;
    int df = -1;
    for (int i = 0; i < observed.length; i++) {
      if (expected[i] > 0) {
        df++;
      }
      if (observed[i] > 0) {
        g += 2 * observed[i] * Math.log(observed[i] / expected[i]);
      }
    }
    return new double[] {g, df};
  }

  /** The acceptance limit df + 7 sqrt(2 df) (about 7 standard deviations of chi^2_df). */
  static double limit(double df) {
    return df + 7 * Math.sqrt(2.0 * df);
  }
}
