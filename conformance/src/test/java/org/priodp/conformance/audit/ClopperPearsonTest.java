package org.priodp.conformance.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClopperPearsonTest {

  /** P[Bin(n, p) >= k] by direct summation in log space. */
  static double tailAtLeast(long k, long n, double p) {
    double sum = 0;
    for (long i = k; i <= n; i++) {
      double lnC = SpecialFunctions.lnGamma(n + 1.0) - SpecialFunctions.lnGamma(i + 1.0)
          - SpecialFunctions.lnGamma(n - i + 1.0);
      sum += Math.exp(lnC + i * Math.log(p) + (n - i) * Math.log1p(-p));
    }
    return sum;
  }

  @ParameterizedTest
  @CsvSource({"5, 20, 0.05", "1, 10, 0.01", "50, 100, 0.001", "999, 1000, 0.05", "300, 5000, 1e-6"})
  void boundsSolveTheBinomialTailEquations(long k, long n, double alpha) {
    double lo = ClopperPearson.lower(k, n, alpha);
    double hi = ClopperPearson.upper(k, n, alpha);
    assertEquals(alpha, tailAtLeast(k, n, lo), alpha * 1e-6, "lower bound");
    assertEquals(alpha, 1 - tailAtLeast(k + 1, n, hi), alpha * 1e-6, "upper bound");
    assertTrue(lo < (double) k / n && (double) k / n < hi);
  }

  @Test
  void edgesAndBadInput() {
    assertEquals(0, ClopperPearson.lower(0, 10, 0.05));
    assertEquals(1, ClopperPearson.upper(10, 10, 0.05));
    assertThrows(IllegalArgumentException.class, () -> ClopperPearson.lower(11, 10, 0.05));
    assertThrows(IllegalArgumentException.class, () -> ClopperPearson.upper(1, 10, 0));
  }
}
