package org.priodp.conformance.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SpecialFunctionsTest {

  /** Upper 5% and 0.1% points of chi-square from standard tables. */
  @ParameterizedTest
  @CsvSource({"1, 3.841459, 0.05", "2, 5.991465, 0.05", "10, 18.307038, 0.05", "100, 124.342113, 0.05",
      "1, 10.827566, 0.001", "50, 86.661, 0.001"})
  void chiSquareTailMatchesTables(int df, double x, double p) {
    assertEquals(p, SpecialFunctions.gammaQ(df / 2.0, x / 2), p * 1e-4);
  }

  @ParameterizedTest
  @CsvSource({"0.3, 2, 3", "0.5, 1, 1", "0.9, 5, 0.5", "0.01, 40, 200"})
  void incompleteBetaMatchesNumericalIntegration(double x, double a, double b) {
    // midpoint rule on the beta density, normalised by the same rule over [0, 1]
    int steps = 2_000_000;
    double upTo = 0;
    double all = 0;
    for (int i = 0; i < steps; i++) {
      double t = (i + 0.5) / steps;
      double w = Math.exp((a - 1) * Math.log(t) + (b - 1) * Math.log1p(-t));
      all += w;
      if (t < x) {
        upTo += w;
      }
    }
    assertEquals(upTo / all, SpecialFunctions.betaI(x, a, b), 2e-3);
  }
}
