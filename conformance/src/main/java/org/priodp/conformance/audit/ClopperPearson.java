package org.priodp.conformance.audit;

/**
 * Exact (Clopper-Pearson) one-sided confidence bounds for a binomial proportion: with k
 * successes in n trials, the true p is at least {@link #lower} and at most {@link #upper}, each
 * with probability at least 1 - alpha.
 */
public final class ClopperPearson {
  private ClopperPearson() {}

  /** Returns the lower bound: the p with P[Bin(n, p) >= k] = alpha (0 when k = 0). */
  public static double lower(long k, long n, double alpha) {
    check(k, n, alpha);
    if (k == 0) {
      return 0;
    }
    // P[Bin(n, p) >= k] = I_p(k, n - k + 1), increasing in p
    return solve(p -> SpecialFunctions.betaI(p, k, n - k + 1), alpha);
  }

  /** Returns the upper bound: the p with P[Bin(n, p) <= k] = alpha (1 when k = n). */
  public static double upper(long k, long n, double alpha) {
    check(k, n, alpha);
    if (k == n) {
      return 1;
    }
    // P[Bin(n, p) <= k] = 1 - I_p(k + 1, n - k), decreasing in p
    return solve(p -> SpecialFunctions.betaI(p, k + 1, n - k), 1 - alpha);
  }

  /** Bisection for the p in (0, 1) where the increasing function f reaches target. */
  private static double solve(java.util.function.DoubleUnaryOperator f, double target) {
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
      double mid = 0.5 * (lo + hi);
      if (f.applyAsDouble(mid) < target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return 0.5 * (lo + hi);
  }

  private static void check(long k, long n, double alpha) {
    if (n < 1 || k < 0 || k > n) {
      throw new IllegalArgumentException("need 0 <= k <= n and n >= 1, got k=" + k + " n=" + n);
    }
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha must be in (0, 1), got " + alpha);
    }
  }
}
