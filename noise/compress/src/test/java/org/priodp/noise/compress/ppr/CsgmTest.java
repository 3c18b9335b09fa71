package org.priodp.noise.compress.ppr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;

class CsgmTest {
  @Test
  void simulatedMseMatchesTheFormula() {
    int n = 100;
    int d = 50;
    Csgm c = new Csgm(d, 0.2, 3.0);
    double[][] xs = new double[n][d];
    for (double[] x : xs) {
      for (int j = 0; j < d; j++) {
        x[j] = (j % 2 == 0 ? 1 : -1) / Math.sqrt(d);
      }
    }
    RandomSource rnd = SeededRandomSource.fromHex("7001");
    int trials = 400;
    double sse = 0;
    for (int t = 0; t < trials; t++) {
      double[] est = c.estimate(xs, rnd);
      for (int j = 0; j < d; j++) {
        sse += (est[j] - xs[0][j]) * (est[j] - xs[0][j]);
      }
    }
    double expected = c.mse(n, 1);
    System.out.printf("CSGM: seed=7001 MSE %.5f expected %.5f%n", sse / trials, expected);
    assertEquals(expected, sse / trials, 5 * expected * Math.sqrt(2.0 / (trials * d)));
    assertThrows(IllegalArgumentException.class, () -> new Csgm(10, 0, 1));
  }
}
