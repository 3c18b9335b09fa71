package org.priodp.noise.compress.ppr;

import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.internal.Uniforms;

/**
 * The continuous and counting variates PPR's encoder draws from its local randomness. Every
 * uniform is 53 bits of the injected source ({@link Uniforms}); exponentials, normals and gammas
 * are computed from them in double precision with numerically stable formulas (log1p, expm1), so
 * each variate differs from its ideal distribution by a relative error of order 2^-50 (the residual
 * error of the design brief, non-negotiable 1). Poisson and binomial counts are exact functions of
 * those variates (no tables, no normal approximations).
 */
final class PprSampling {
  private PprSampling() {}

  /** Exp(1): -log U with U uniform on (0, 1]. */
  static double exponential(RandomSource rnd) {
    return -Math.log(Uniforms.openClosed(rnd));
  }

  /** Exp(1) conditioned on being below {@code x > 0}: -log(1 - U (1 - e^-x)), by inversion. */
  static double truncatedExponential(RandomSource rnd, double x) {
    return -Math.log1p(Uniforms.unit(rnd) * Math.expm1(-x));
  }

  /** One standard normal (Box-Muller, two uniforms; the second normal of the pair is dropped). */
  static double normal(RandomSource rnd) {
    double r = Math.sqrt(-2 * Math.log(Uniforms.openClosed(rnd)));
    return r * Math.cos(2 * Math.PI * Uniforms.unit(rnd));
  }

  /**
   * Fills {@code out} with independent standard normals, two per pair of uniforms (Box-Muller), so
   * exactly {@code 2 * ceil(out.length / 2)} uniforms (53 bits each) are read.
   */
  static void normals(RandomSource rnd, double[] out) {
    for (int i = 0; i < out.length; i += 2) {
      double r = Math.sqrt(-2 * Math.log(Uniforms.openClosed(rnd)));
      double a = 2 * Math.PI * Uniforms.unit(rnd);
      out[i] = r * Math.cos(a);
      if (i + 1 < out.length) {
        out[i + 1] = r * Math.sin(a);
      }
    }
  }

  /** Gamma(shape, 1) for shape >= 1 (Marsaglia and Tsang 2000, written in log space). */
  static double gamma(RandomSource rnd, double shape) {
    double d = shape - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x = normal(rnd);
      double cx = c * x;
      if (cx <= -1) {
        continue;
      }
      // v = (1 + cx)^3; accept if log U < x^2/2 + d - d v + d log v, with v - 1 expanded
      double vMinus1 = cx * (3 + cx * (3 + cx));
      double logU = Math.log(Uniforms.openClosed(rnd));
      if (logU < 0.5 * x * x + d * (3 * Math.log1p(cx) - vMinus1)) {
        return d * (1 + vMinus1);
      }
    }
  }

  /** Beta(a, b) for a, b >= 1, as G_a / (G_a + G_b). */
  static double beta(RandomSource rnd, double a, double b) {
    double ga = gamma(rnd, a);
    double gb = gamma(rnd, b);
    return ga / (ga + gb);
  }

  /**
   * Poisson(mean): the number of arrivals of a rate-1 Poisson process in [0, mean]. For a large
   * mean it jumps to the m-th arrival (a Gamma(m) time, m = 7/8 mean): if that is before the end,
   * m arrivals plus a Poisson count of the rest; otherwise the first m - 1 arrivals are uniform
   * before it and a binomial count of them falls in [0, mean]. Expected O(log mean) steps.
   */
  static long poisson(RandomSource rnd, double mean) {
    if (!(mean >= 0) || mean == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("Poisson mean must be finite and >= 0, got " + mean);
    }
    long acc = 0;
    while (mean > 16) {
      long m = (long) Math.floor(mean * 0.875);
      double g = gamma(rnd, m);
      if (g < mean) {
        acc += m;
        mean -= g;
      } else {
        return acc + binomial(rnd, m - 1, mean / g);
      }
    }
    double t = exponential(rnd);
    while (t <= mean) {
      acc++;
      t += exponential(rnd);
    }
    return acc;
  }

  /**
   * Binomial(n, p): how many of n uniforms fall below p. For large n it draws the middle order
   * statistic (a Beta variate) and recurses into the side that contains p.
   */
  static long binomial(RandomSource rnd, long n, double p) {
    long acc = 0;
    while (n > 32) {
      if (p <= 0) {
        return acc;
      }
      if (p >= 1) {
        return acc + n;
      }
      long i = (n + 1) / 2;
      double y = beta(rnd, i, n + 1 - i);
      if (y <= p) {
        acc += i;
        n -= i;
        p = (p - y) / (1 - y);
      } else {
        n = i - 1;
        p = p / y;
      }
    }
    for (long k = 0; k < n; k++) {
      if (Uniforms.unit(rnd) < p) {
        acc++;
      }
    }
    return acc;
  }
}
