package org.priodp.noise.compress.requantization;

import java.nio.ByteBuffer;
import org.priodp.noise.RandomSource;

/** The requantization paper's Sec. 4 setup, shared by the requantization tests (not a test). */
final class RequantizationFixtures {
  private RequantizationFixtures() {}

  /** R = 4 input levels: Lloyd-Max on the public density N(10, 2), 2 the standard deviation. */
  static final LloydMaxQuantizer INPUT = LloydMaxQuantizer.fromDensity(LloydMaxQuantizer.gaussianDensity(10, 2), -10, 30, 16);

  /** The family mu in [8, 12], sigma in [1, 3] on a 0.25 grid. */
  static final DistributionFamily FAMILY = DistributionFamily.gaussianGrid(INPUT, 8, 12, 1, 3, 0.25);

  /** Output levels for R-hat bits, Lloyd-Max on the same public density. */
  static LloydMaxQuantizer output(int bits) {
    return LloydMaxQuantizer.fromDensity(LloydMaxQuantizer.gaussianDensity(10, 2), -10, 30, 1 << bits);
  }

  static RequantizationDesigner designer(int bits) {
    return RequantizationDesigner.of(INPUT, output(bits), FAMILY);
  }

  static RandomSource seeded(long seed) {
    System.out.println("seed " + seed);
    return RandomSource.seeded(ByteBuffer.allocate(8).putLong(seed).array());
  }

  /**
   * Upper chi-square quantile for df degrees of freedom at the one-sided level of the standard
   * normal quantile z (Wilson-Hilferty; accurate to a few percent for df >= 3).
   */
  static double chiSquareQuantile(int df, double z) {
    double h = 2.0 / (9.0 * df);
    double c = 1 - h + z * Math.sqrt(h);
    return df * c * c * c;
  }

  /** G statistic 2 sum O ln(O / E) of observed counts against probabilities (cells with p > 0). */
  static double gStatistic(long[] observed, double[] p) {
    long n = 0;
    for (long o : observed) {
      n += o;
    }
    double g = 0;
    for (int j = 0; j < observed.length; j++) {
      if (observed[j] > 0) {
        g += observed[j] * Math.log(observed[j] / (p[j] * n));
      }
    }
    return 2 * g;
  }
}
