package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
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
        long k1 = Accuracy.laplaceHalfWidth(s, 1, conf).longValueExact();
        assertTrue(Accuracy.laplaceTail(s, k1 + 1) <= 1 - conf, scale + " " + conf);
        assertTrue(k1 == 0 || Accuracy.laplaceTail(s, k1) > 1 - conf, scale + " " + conf);
        long k2 = Accuracy.laplaceHalfWidth(s, 2, conf).longValueExact();
        assertTrue(Accuracy.laplaceSumTail(s, k2 + 1) <= 1 - conf, scale + " " + conf);
        assertTrue(k2 == 0 || Accuracy.laplaceSumTail(s, k2) > 1 - conf, scale + " " + conf);
        assertTrue(k2 >= k1, "two draws need a wider interval");
      }
    }
    // scale 1: P[|Z| >= k] = 2 e^-k / (1 + e^-1); 95% needs k = 3 (P[|Z| > 3] = 0.0269)
    assertEquals(BigInteger.valueOf(3), Accuracy.laplaceHalfWidth(Rational.ONE, 1, 0.95));
  }

  @Test
  void gaussianIntervalsAreConservative() {
    Rational s2 = Rational.of(100);
    long k = Accuracy.gaussianHalfWidth(s2, 1, 0.95).longValueExact();
    // the exact 95% half-width of N(0, 100) is 19.6; the sub-Gaussian bound gives 27
    assertTrue(k >= 19 && k <= 28, "k=" + k);
    assertTrue(Accuracy.gaussianHalfWidth(s2, 2, 0.95).longValueExact() > k);
    assertEquals(100.0, Accuracy.gaussianVarianceBound(s2));
  }

  /**
   * Scales of 2^61 and beyond (where the half-width leaves the long range) give half-widths that
   * are still the smallest covering k, and match the closed forms: one draw needs
   * (k + 1)/t >= ln(2 / (alpha (1 + r))), two draws about t (ln(1/alpha) + ln(ln(1/alpha)/2 + 1)).
   */
  @ParameterizedTest
  @ValueSource(ints = {40, 61, 62, 63, 100, 200, 400})
  void halfWidthsDoNotOverflowAtAnyScale(int log2Scale) {
    Rational s = Rational.of(BigInteger.ONE.shiftLeft(log2Scale).add(BigInteger.valueOf(3)));
    double t = Math.scalb(1.0, log2Scale);
    for (double conf : new double[] {0.95, 1 - 0x1p-40}) {
      double alpha = 1 - conf;
      BigInteger k1 = Accuracy.laplaceHalfWidth(s, 1, conf);
      BigInteger k2 = Accuracy.laplaceHalfWidth(s, 2, conf);
      assertTrue(Accuracy.laplaceTail(s, k1.add(BigInteger.ONE)) <= alpha, "one draw covers, 2^" + log2Scale);
      assertTrue(Accuracy.laplaceSumTail(s, k2.add(BigInteger.ONE)) <= alpha, "two draws cover, 2^" + log2Scale);
      double one = Math.log(2 / (alpha * (1 + Math.exp(-1 / t))));
      assertEquals(one, k1.doubleValue() / t, 1e-9 * one, "one draw, 2^" + log2Scale + " at " + conf);
      // two draws, t -> infinity: P[|S| >= k] -> e^-x (x/2 + 1) with x = k/t
      double x = k2.doubleValue() / t;
      assertEquals(alpha, Math.exp(-x) * (x / 2 + 1), 1e-6 * alpha, "two draws, 2^" + log2Scale + " at " + conf);
      BigInteger g = Accuracy.gaussianHalfWidth(s, 2, conf);
      double sqrt = Math.sqrt(4 * Math.log(2 / alpha)); // (k+1)^2 >= 2 * 2 * sigma^2 * ln(2/alpha)
      assertEquals(sqrt, g.doubleValue() / Math.sqrt(t), 1e-9 * sqrt + 2 / Math.sqrt(t), "gaussian, sigma^2 = 2^" + log2Scale);
      if (log2Scale >= 61) {
        assertTrue(k2.bitLength() > 63, "beyond the long range: " + k2);
      }
    }
  }

  @Test
  void quotientIsCorrectlyScaled() {
    assertEquals(0.5, Accuracy.quotient(BigInteger.ONE, BigInteger.TWO));
    assertEquals(1.0 / 3, Accuracy.quotient(BigInteger.ONE, BigInteger.valueOf(3)), 1e-16);
    BigInteger big = BigInteger.ONE.shiftLeft(900);
    assertEquals(Math.scalb(1.0, 800) / 3, Accuracy.quotient(big, BigInteger.valueOf(3).shiftLeft(100)), 1e-15 * Math.scalb(1.0, 800));
    assertEquals(0.0, Accuracy.quotient(BigInteger.ONE, BigInteger.ONE.shiftLeft(1200)));
    assertEquals(Double.POSITIVE_INFINITY, Accuracy.quotient(BigInteger.ONE.shiftLeft(1200), BigInteger.ONE));
  }

  @Test
  void rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> Accuracy.laplaceHalfWidth(Rational.ONE, 3, 0.95));
    assertThrows(IllegalArgumentException.class, () -> Accuracy.laplaceHalfWidth(Rational.ONE, 1, 1.0));
    assertThrows(IllegalArgumentException.class, () -> Accuracy.laplaceVariance(Rational.ZERO));
  }
}
