package org.priodp.conformance.audit;

import java.util.function.LongToDoubleFunction;
import org.priodp.noise.Accuracy;
import org.priodp.noise.Rational;

/** CDFs P[Z <= z] of the exact noise distributions, in double precision, for tests of fit. */
public final class ExactCdf {
  private ExactCdf() {}

  /**
   * The discrete Laplace with scale t: P[Z <= z] = r^(-z) / (1 + r) for z < 0 and
   * 1 - r^(z+1) / (1 + r) for z >= 0, with r = e^(-1/t).
   */
  public static LongToDoubleFunction laplace(Rational scale) {
    double t = Accuracy.toDouble(scale);
    double r = Math.exp(-1 / t);
    return z -> z < 0 ? Math.exp(z / t) / (1 + r) : 1 - Math.exp(-(z + 1) / t) / (1 + r);
  }

  /** The discrete Gaussian with variance parameter sigma^2, by summing its PMF over ±50 sigma. */
  public static LongToDoubleFunction gaussian(Rational sigma2) {
    double s2 = Accuracy.toDouble(sigma2);
    int range = (int) Math.ceil(50 * Math.sqrt(s2)) + 50;
    double[] cumulative = new double[2 * range + 1];
    double total = 0;
    for (int i = 0; i <= 2 * range; i++) {
      long z = i - range;
      total += Math.exp(-(double) z * z / (2 * s2));
      cumulative[i] = total;
    }
    final double norm = total;
    return z -> z < -range ? 0 : z >= range ? 1 : cumulative[(int) (z + range)] / norm;
  }
}
