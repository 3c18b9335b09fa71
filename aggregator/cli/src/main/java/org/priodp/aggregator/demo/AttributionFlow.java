package org.priodp.aggregator.demo;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.priodp.aggregator.task.MicroEpsilon;

/**
 * The simulated side of {@code demo --attribution}: browsers that each hold a privacy budget per
 * site and epoch (the Attribution API's model, draft-ietf-ppm-dap-attribution-00 section 3.1) and
 * split it evenly over the conversions they saw on the site in this epoch, so a browser with k
 * conversions spends budget / k on each report; some older browsers attach no privacy_budget at
 * all. Each conversion report is a Prio3L1BoundSum measurement: the conversion's value (1 to
 * max_value) attributed to one ad source (last touch), or split over two. Seeded, so the same
 * seed gives the same browsers; the cryptography and the noise are not drawn here.
 */
final class AttributionFlow {
  /** One conversion report as a browser produced it: its histogram and what it spent. */
  record Conversion(List<BigInteger> histogram, MicroEpsilon spent, boolean statesBudget) {
  }

  private AttributionFlow() {
  }

  /**
   * Returns the conversions of {@code browsers} browsers over {@code sources} ad sources: each
   * browser makes 1 to 4 conversions (fewer more often), each worth 1 to {@code maxValue}, and
   * one browser in {@code legacyEvery} sends its reports without privacy_budget.
   */
  static List<Conversion> conversions(int browsers, int sources, long maxValue,
      MicroEpsilon perSiteEpoch, int legacyEvery, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Conversion> out = new ArrayList<>();
    for (int b = 0; b < browsers; b++) {
      int k = 1 + skewed(r, 4);
      MicroEpsilon each = new MicroEpsilon(perSiteEpoch.micros() / k);
      boolean legacy = legacyEvery > 0 && b % legacyEvery == legacyEvery - 1;
      for (int c = 0; c < k; c++) {
        out.add(new Conversion(histogram(r, sources, maxValue), each, !legacy));
      }
    }
    return out;
  }

  /** Returns 0 to n-1, each half as likely as the one before. */
  private static int skewed(SplittableRandom r, int n) {
    int v = 0;
    while (v < n - 1 && r.nextBoolean()) {
      v++;
    }
    return v;
  }

  /** The value of one conversion over the ad sources: last touch, or split between two. */
  private static List<BigInteger> histogram(SplittableRandom r, int sources, long maxValue) {
    long[] h = new long[sources];
    long value = 1 + r.nextLong(maxValue);
    int last = skewed(r, sources);
    if (sources > 1 && r.nextInt(4) == 0) {
      int other = (last + 1 + r.nextInt(sources - 1)) % sources;
      h[last] += value - value / 2;
      h[other] += value / 2;
    } else {
      h[last] += value;
    }
    List<BigInteger> m = new ArrayList<>(sources);
    for (long v : h) {
      m.add(BigInteger.valueOf(v));
    }
    return m;
  }
}
