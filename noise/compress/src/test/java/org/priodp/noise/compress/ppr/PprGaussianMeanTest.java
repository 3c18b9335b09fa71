package org.priodp.noise.compress.ppr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.SharedRandomness;

class PprGaussianMeanTest {
  /**
   * The simulated MSE of the PPR-compressed Gaussian mean matches d sigma^2 / n: 40 trials of n =
   * 50 clients, d = 40 in chunks of 10; the MSE estimate has relative standard error about
   * sqrt(2 / (40 * 40)).
   */
  @Test
  void simulatedMseMatchesSigmaSquaredOverN() {
    int n = 50;
    int d = 40;
    double sigma = 0.8;
    PprGaussianMean m = new PprGaussianMean(d, 10, sigma, Math.sqrt(10.0 / d), 2, 1_000_000);
    RandomSource local = SeededRandomSource.fromHex("6001");
    double[] x = new double[d];
    for (int j = 0; j < d; j++) {
      x[j] = (j % 3 == 0 ? 1 : -1) / Math.sqrt(d);
    }
    int trials = 40;
    double sse = 0;
    long capped = 0;
    long bits = 0;
    for (int trial = 0; trial < trials; trial++) {
      SharedRandomness shared = SharedRandomness.fromHex("6002" + String.format("%04x", trial));
      double[] mean = new double[d];
      for (int i = 0; i < n; i++) {
        PprGaussianMean.ClientMessage msg = m.encode(shared, i, x, local);
        capped += msg.capped();
        bits += msg.bits();
        double[] y = m.decode(shared, i, msg.indices());
        for (int j = 0; j < d; j++) {
          mean[j] += y[j] / n;
        }
      }
      for (int j = 0; j < d; j++) {
        sse += (mean[j] - x[j]) * (mean[j] - x[j]);
      }
    }
    double mse = sse / trials;
    double expected = d * sigma * sigma / n;
    double meanBits = (double) bits / (trials * n);
    System.out.printf("PPR Gaussian mean: seed=6001 MSE %.5f expected %.5f bits/client %.1f (bound %.1f) capped %d%n", mse,
        expected, meanBits, m.bitsBound(), capped);
    assertEquals(expected, mse, 5 * expected * Math.sqrt(2.0 / (trials * d)));
    assertEquals(0, capped);
    assertTrue(meanBits <= m.bitsBound());
  }
}
