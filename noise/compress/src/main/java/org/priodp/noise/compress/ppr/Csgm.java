package org.priodp.noise.compress.ppr;

import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.internal.Uniforms;

/**
 * The coordinate-subsampled Gaussian mechanism (CSGM; Chen, Kairouz, Özgür et al.), the PPR
 * paper's baseline: every client keeps each coordinate independently with probability gamma
 * (Poisson sampling, so it sends about gamma d coordinates: one bit each for entries +-1/sqrt(d),
 * which is how the bit budget b = gamma d is counted), the server sums the kept values of each
 * coordinate, adds N(0, sigma^2) and divides by n gamma. The estimate is unbiased with MSE
 * sum_j [(1 - gamma) gamma sum_i x_ij^2 + sigma^2] / (n gamma)^2; its central privacy is in
 * {@link RenyiAccountant#csgmEpsilon}. CSGM has no local privacy.
 *
 * @param d the dimension
 * @param gamma the sampling rate in (0, 1]
 * @param sigma the server's noise per coordinate sum
 */
public record Csgm(int d, double gamma, double sigma) {
  /** Validates the parameters. */
  public Csgm {
    if (d < 1 || !(gamma > 0 && gamma <= 1) || !(sigma >= 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("CSGM needs d >= 1, gamma in (0, 1] and sigma >= 0");
    }
  }

  /** The analytic MSE for n clients whose vectors all have squared norm {@code norm2}. */
  public double mse(int n, double norm2) {
    return (1 - gamma) * norm2 / (n * gamma) + d * sigma * sigma / ((double) n * n * gamma * gamma);
  }

  /** Runs CSGM on {@code xs} (one vector per client) and returns the mean estimate. */
  public double[] estimate(double[][] xs, RandomSource rnd) {
    double[] sum = new double[d];
    for (double[] x : xs) {
      for (int j = 0; j < d; j++) {
        if (Uniforms.unit(rnd) < gamma) {
          sum[j] += x[j];
        }
      }
    }
    double scale = 1.0 / (xs.length * gamma);
    for (int j = 0; j < d; j++) {
      sum[j] = (sum[j] + sigma * PprSampling.normal(rnd)) * scale;
    }
    return sum;
  }
}
