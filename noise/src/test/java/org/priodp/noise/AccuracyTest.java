package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class AccuracyTest {

  /** P[Z = z] for the discrete Laplace, directly from the definition. */
  static double pmf(double t, long z) {
    double r = Math.exp(-1 / t);
    return (1 - r) / (1 + r) * Math.exp(-Math.abs(z) / t);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1/2", "1", "3", "10"})
  void closedFormsMatchSumsOfThePmf(String scale) {
    Rational s = Rational.parse(scale);
    double t = Accuracy.toDouble(s);
    int range = (int) (80 * t) + 40;
    double var = 0;
    double[] conv = new double[4 * range + 1]; // P[Z1 + Z2 = s], s in [-2 range, 2 range]
    for (int z = -range; z <= range; z++) {
      var += (double) z * z * pmf(t, z);
      for (int y = -range; y <= range; y++) {
        conv[z + y + 2 * range] += pmf(t, z) * pmf(t, y);
      }
    }
    assertEquals(var, Accuracy.laplaceVariance(s), 1e-9 * var);
    for (long k : new long[] {0, 1, 2, 5, 13}) {
      double tail = 0;
      double sumTail = 0;
      for (int z = -range; z <= range; z++) {
        if (Math.abs(z) >= k) {
          tail += pmf(t, z);
        }
      }
      for (int v = -2 * range; v <= 2 * range; v++) {
        if (Math.abs(v) >= k) {
          sumTail += conv[v + 2 * range];
        }
      }
      assertEquals(tail, Accuracy.laplaceTail(s, k), 1e-12, "tail at " + k);
      assertEquals(sumTail, Accuracy.laplaceSumTail(s, k), 1e-12, "sum tail at " + k);
    }
  }

  @Test
  void halfWidthIsTheSmallestCoveringK() {
    for (String scale : new String[] {"1/2", "2", "100", "1000000"}) {
      Rational s = Rational.parse(scale);
      for (double conf : new double[] {0.5, 0.95, 0.999999}) {
        long k1 = Accuracy.laplaceHalfWidth(s, 1, conf);
        assertTrue(Accuracy.laplaceTail(s, k1 + 1) <= 1 - conf, scale + " " + conf);
        assertTrue(k1 == 0 || Accuracy.laplaceTail(s, k1) > 1 - conf, scale + " " + conf);
        long k2 = Accuracy.laplaceHalfWidth(s, 2, conf);
        assertTrue(Accuracy.laplaceSumTail(s, k2 + 1) <= 1 - conf, scale + " " + conf);
        assertTrue(k2 == 0 || Accuracy.laplaceSumTail(s, k2) > 1 - conf, scale + " " + conf);
        assertTrue(k2 >= k1, "two draws need a wider interval");
      }
    }
    // scale 1: P[|Z| >= k] = 2 e^-k / (1 + e^-1); 95% needs k = 3 (P[|Z| > 3] = 0.0269)
    assertEquals(3, Accuracy.laplaceHalfWidth(Rational.ONE, 1, 0.95));
  }

  @Test
  void gaussianIntervalsAreConservative() {
    Rational s2 = Rational.of(100);
    long k = Accuracy.gaussianHalfWidth(s2, 1, 0.95);
    // the exact 95% half-width of N(0, 100) is 19.6; the sub-Gaussian bound gives 27
    assertTrue(k >= 19 && k <= 28, "k=" + k);
    assertTrue(Accuracy.gaussianHalfWidth(s2, 2, 0.95) > k);
    assertEquals(100.0, Accuracy.gaussianVarianceBound(s2));
  }

  @Test
  void rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> Accuracy.laplaceHalfWidth(Rational.ONE, 3, 0.95));
    assertThrows(IllegalArgumentException.class, () -> Accuracy.laplaceHalfWidth(Rational.ONE, 1, 1.0));
    assertThrows(IllegalArgumentException.class, () -> Accuracy.laplaceVariance(Rational.ZERO));
  }
}
