package org.priodp.noise.compress.ppr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;

/** Moment checks (fixed seeds, 5-sigma tolerances) of the encoder's local variates. */
class PprSamplingTest {
  @Test
  void poissonMeanAndVarianceAcrossRegimes() {
    RandomSource rnd = SeededRandomSource.fromHex("5001");
    for (double mean : new double[] {0.3, 9, 40, 5_000, 3e9}) {
      int n = 20_000;
      double s = 0;
      double s2 = 0;
      for (int i = 0; i < n; i++) {
        double x = PprSampling.poisson(rnd, mean);
        s += x;
        s2 += x * x;
      }
      double m = s / n;
      double v = s2 / n - m * m;
      System.out.printf("Poisson(%g): seed=5001 mean %.4g var %.4g%n", mean, m, v);
      assertEquals(mean, m, 5 * Math.sqrt(mean / n), "mean " + mean);
      assertEquals(mean, v, 6 * mean * Math.sqrt(2.0 / n) + 1e-9, "variance " + mean);
    }
  }

  @Test
  void binomialAndTruncatedExponential() {
    RandomSource rnd = SeededRandomSource.fromHex("5002");
    long n = 1_000_000;
    double p = 0.3;
    double s = 0;
    int runs = 5000;
    for (int i = 0; i < runs; i++) {
      s += PprSampling.binomial(rnd, n, p);
    }
    double sd = Math.sqrt(n * p * (1 - p) / runs);
    assertEquals(n * p, s / runs, 5 * sd);
    double t = 0;
    for (int i = 0; i < 20_000; i++) {
      double e = PprSampling.truncatedExponential(rnd, 0.5);
      assertTrue(e >= 0 && e < 0.5);
      t += e;
    }
    // E[E | E < x] = 1 - x e^-x / (1 - e^-x)
    double expected = 1 - 0.5 * Math.exp(-0.5) / (1 - Math.exp(-0.5));
    assertEquals(expected, t / 20_000, 5 * 0.145 / Math.sqrt(20_000));
  }
}
