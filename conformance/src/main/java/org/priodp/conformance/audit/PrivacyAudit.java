package org.priodp.conformance.audit;

/**
 * An empirical lower bound on epsilon from the outputs of a mechanism on two neighbouring
 * inputs: for threshold events {output >= k}, epsilon >= ln(P[M(x') in E] / P[M(x) in E]) in
 * both directions, with each probability replaced by its Clopper-Pearson bound. A correct
 * epsilon-DP mechanism gives a bound at or below epsilon with probability at least 1 - alpha
 * (Bonferroni over the thresholds and both directions).
 *
 * @param epsilonLowerBound the largest lower bound over the events (0 if none is positive)
 * @param bestThreshold the k of the event that gave it
 */
public record PrivacyAudit(double epsilonLowerBound, long bestThreshold) {

  /**
   * Audits the outputs {@code a} = M(x) and {@code b} = M(x') with events {output >= k} for
   * each k in {@code thresholds}, at overall level {@code alpha}.
   */
  public static PrivacyAudit run(long[] a, long[] b, long[] thresholds, double alpha) {
    if (thresholds.length == 0) {
      throw new IllegalArgumentException("need at least one threshold");
    }
    // per threshold: 2 directions x 2 events (E and its complement) x 2 one-sided bounds
    double perTest = alpha / (2.0 * thresholds.length);
    double best = 0;
    long bestK = thresholds[0];
    for (long k : thresholds) {
      long ca = countAtLeast(a, k);
      long cb = countAtLeast(b, k);
      double bound = Math.max(
          lowerBound(cb, b.length, ca, a.length, perTest),
          lowerBound(ca, a.length, cb, b.length, perTest));
      if (bound > best) {
        best = bound;
        bestK = k;
      }
    }
    return new PrivacyAudit(best, bestK);
  }

  /**
   * ln(lower(p1) / upper(p2)) for counts k1 of n1 and k2 of n2, and the same for the
   * complement events; wrong with probability at most alpha in all.
   */
  private static double lowerBound(long k1, long n1, long k2, long n2, double alpha) {
    double half = alpha / 4; // 2 ratios x 2 bounds
    double direct = ratio(ClopperPearson.lower(k1, n1, half), ClopperPearson.upper(k2, n2, half));
    double complement = ratio(
        ClopperPearson.lower(n2 - k2, n2, half), ClopperPearson.upper(n1 - k1, n1, half));
    return Math.max(direct, complement);
  }

  private static double ratio(double lower, double upper) {
    return lower <= 0 || upper <= 0 ? 0 : Math.log(lower / upper);
  }

  private static long countAtLeast(long[] xs, long k) {
    long c = 0;
    for (long x : xs) {
      if (x >= k) {
        c++;
      }
    }
    return c;
  }
}
