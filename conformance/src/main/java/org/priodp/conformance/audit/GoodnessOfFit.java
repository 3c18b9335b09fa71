package org.priodp.conformance.audit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongToDoubleFunction;

/**
 * The G-test of integer samples against an exact distribution given by its CDF, with bins of
 * roughly equal probability and pooled tails, so that every bin expects enough samples.
 *
 * @param g the G statistic 2 sum O ln(O / E)
 * @param degreesOfFreedom bins - 1
 * @param pValue P[chi^2(df) >= g]
 * @param bins the number of bins used
 */
public record GoodnessOfFit(double g, int degreesOfFreedom, double pValue, int bins) {

  /** Smallest expected count a bin may have. */
  public static final double MIN_EXPECTED = 20;

  /**
   * Tests {@code samples} against the distribution with CDF {@code cdf} (P[Z <= z]), using at
   * most {@code maxBins} bins.
   */
  public static GoodnessOfFit test(long[] samples, LongToDoubleFunction cdf, int maxBins) {
    if (samples.length < 100) {
      throw new IllegalArgumentException("need at least 100 samples, got " + samples.length);
    }
    long n = samples.length;
    int binCount = (int) Math.max(2, Math.min(maxBins, n / MIN_EXPECTED));
    // upper edges at the quantiles j / binCount, deduplicated; bins are (prev, edge]
    List<Long> edges = new ArrayList<>();
    for (int j = 1; j < binCount; j++) {
      long q = quantile(cdf, (double) j / binCount);
      if (edges.isEmpty() || q > edges.get(edges.size() - 1)) {
        edges.add(q);
      }
    }
    // merge bins whose expected count is too small
    List<Long> kept = new ArrayList<>();
    double prevCdf = 0;
    for (long e : edges) {
      double c = cdf.applyAsDouble(e);
      if ((c - prevCdf) * n >= MIN_EXPECTED && (1 - c) * n >= MIN_EXPECTED) {
        kept.add(e);
        prevCdf = c;
      }
    }
    int bins = kept.size() + 1;
    if (bins < 2) {
      throw new IllegalArgumentException("the distribution is too concentrated to bin");
    }
    long[] upper = kept.stream().mapToLong(Long::longValue).toArray();
    double[] expected = new double[bins];
    double prev = 0;
    for (int i = 0; i < bins; i++) {
      double c = i < upper.length ? cdf.applyAsDouble(upper[i]) : 1;
      expected[i] = (c - prev) * n;
      prev = c;
    }
    long[] observed = new long[bins];
    for (long s : samples) {
      int idx = Arrays.binarySearch(upper, s);
      observed[idx >= 0 ? idx : -idx - 1]++;
    }
    double g = 0;
    for (int i = 0; i < bins; i++) {
      if (observed[i] > 0) {
        g += 2 * observed[i] * Math.log(observed[i] / expected[i]);
      }
    }
    int df = bins - 1;
    return new GoodnessOfFit(g, df, SpecialFunctions.gammaQ(df / 2.0, g / 2), bins);
  }

  /** Smallest z with cdf(z) >= q, by exponential then binary search. */
  private static long quantile(LongToDoubleFunction cdf, double q) {
    long lo = -1;
    while (cdf.applyAsDouble(lo) >= q) {
      lo *= 2;
    }
    long hi = 1;
    while (cdf.applyAsDouble(hi) < q) {
      hi *= 2;
    }
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      if (cdf.applyAsDouble(mid) >= q) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }
}
