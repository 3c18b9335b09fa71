package org.priodp.noise.compress.ppr;

import org.priodp.noise.RandomSource;

/**
 * The Gaussian mechanism on one chunk of a client's vector, for PPR: P = N(x, sigma^2 I_m) for
 * a chunk x of dimension m with ||x||_2 <= c, simulated with the proposal Q = N(0, v I_m).
 *
 * <p><b>The density ratio.</b> log(dP/dQ)(z) = (m/2) ln(v/sigma^2) - ||z - x||^2/(2 sigma^2) +
 * ||z||^2/(2v), whose supremum over z is (m/2) ln(v/sigma^2) + ||x||^2/(2(v - sigma^2)), and
 * KL(P||Q) = (m/2)(sigma^2/v - 1 + ln(v/sigma^2)) + ||x||^2/(2v). The paper's choice v = sigma^2
 * + c^2/m minimizes the worst-case KL (bits), but its supremum exceeds the KL by up to m/2 nats
 * (25 nats for m = 50), and the encoder's work grows like exp(sup - KL). The supremum is smallest
 * at v = sigma^2 + w, m w^2 = c^2 (w + sigma^2); between the two, the worst-case KL rises and the
 * gap falls. This class takes the largest v in that interval whose worst-case KL exceeds the
 * minimum by at most {@code maxExtraKlBits} (default {@value #DEFAULT_MAX_EXTRA_KL_BITS} bit): a
 * fraction of a bit per chunk buys an exponentially faster encoder. The encoder uses the
 * supremum for the actual x, which is smaller still.
 *
 * <p>The proposal's normals come from Box-Muller on 53-bit uniforms of the shared stream
 * (2 ceil(m/2) uniforms per sample); see {@link PprCodec} for the residual error.
 */
public final class GaussianPprChunk {
  /** Default extra worst-case KL, in bits, the proposal may cost over the KL-optimal one. */
  public static final double DEFAULT_MAX_EXTRA_KL_BITS = 0.5;

  private final int dim;
  private final double sigma;
  private final double normBound;
  private final double variance;

  private GaussianPprChunk(int dim, double sigma, double normBound, double variance) {
    this.dim = dim;
    this.sigma = sigma;
    this.normBound = normBound;
    this.variance = variance;
  }

  /** The chunk mechanism with the default gap; see {@link #of(int, double, double, double)}. */
  public static GaussianPprChunk of(int dim, double sigma, double normBound) {
    return of(dim, sigma, normBound, DEFAULT_MAX_EXTRA_KL_BITS);
  }

  /**
   * The chunk mechanism for dimension {@code dim}, noise {@code sigma} and norm bound {@code
   * normBound}, with the proposal variance chosen as in the class comment.
   *
   * @throws IllegalArgumentException on dim < 1, or sigma, normBound or maxExtraKlBits not finite
   *     and > 0
   */
  public static GaussianPprChunk of(int dim, double sigma, double normBound, double maxExtraKlBits) {
    if (dim < 1) {
      throw new IllegalArgumentException("chunk dimension must be >= 1, got " + dim);
    }
    positive("sigma", sigma);
    positive("norm bound", normBound);
    positive("max extra KL", maxExtraKlBits);
    double s2 = sigma * sigma;
    double c2 = normBound * normBound;
    double lo = s2 + c2 / dim; // KL-optimal
    // sup-optimal: m w^2 - c^2 w - c^2 s2 = 0, w = v - s2
    double hi = s2 + (c2 + Math.sqrt(c2 * c2 + 4.0 * dim * c2 * s2)) / (2.0 * dim);
    double budget = kl(dim, s2, c2, lo) + maxExtraKlBits * Math.log(2);
    double v;
    if (kl(dim, s2, c2, hi) <= budget) {
      v = hi;
    } else {
      double a = lo;
      double b = hi;
      for (int i = 0; i < 100; i++) {
        double mid = 0.5 * (a + b);
        if (kl(dim, s2, c2, mid) <= budget) {
          a = mid;
        } else {
          b = mid;
        }
      }
      v = a;
    }
    return new GaussianPprChunk(dim, sigma, normBound, v);
  }

  private static double kl(int m, double s2, double x2, double v) {
    // (m/2)(s2/v - 1 + ln(v/s2)), written with log1p/expm1-free care: s2/v - 1 = -(v - s2)/v
    return 0.5 * m * (Math.log(v / s2) - (v - s2) / v) + x2 / (2 * v);
  }

  private static void positive(String what, double x) {
    if (!(x > 0) || Double.isInfinite(x)) {
      throw new IllegalArgumentException(what + " must be finite and > 0, got " + x);
    }
  }

  /** Returns the chunk dimension m. */
  public int dim() {
    return dim;
  }

  /** Returns sigma. */
  public double sigma() {
    return sigma;
  }

  /** Returns the norm bound c. */
  public double normBound() {
    return normBound;
  }

  /** Returns the proposal variance v. */
  public double proposalVariance() {
    return variance;
  }

  /** Returns the worst-case KL(P||Q) over ||x|| <= c, in bits. */
  public double worstKlBits() {
    return kl(dim, sigma * sigma, normBound * normBound, variance) / Math.log(2);
  }

  /** Returns the worst-case sup log(dP/dQ) over ||x|| <= c, in nats. */
  public double worstLogRatioBound() {
    double s2 = sigma * sigma;
    return 0.5 * dim * Math.log(variance / s2) + normBound * normBound / (2 * (variance - s2));
  }

  /** The shared proposal N(0, v I_m). */
  public PprProposal<double[]> proposal() {
    double sd = Math.sqrt(variance);
    int bits = 2 * ((dim + 1) / 2) * 53;
    return new PprProposal<>() {
      @Override
      public double[] sample(RandomSource shared) {
        double[] z = new double[dim];
        PprSampling.normals(shared, z);
        for (int i = 0; i < dim; i++) {
          z[i] *= sd;
        }
        return z;
      }

      @Override
      public int maxBitsPerSample() {
        return bits;
      }
    };
  }

  /**
   * The target N(x, sigma^2 I_m) for chunk {@code x}.
   *
   * @throws IllegalArgumentException if x has the wrong length, a non-finite entry, or norm above
   *     the bound
   */
  public PprTarget<double[]> target(double[] x) {
    if (x.length != dim) {
      throw new IllegalArgumentException("chunk must have " + dim + " entries, got " + x.length);
    }
    double x2 = 0;
    for (double xi : x) {
      if (!Double.isFinite(xi)) {
        throw new IllegalArgumentException("chunk entries must be finite, got " + xi);
      }
      x2 += xi * xi;
    }
    if (Math.sqrt(x2) > normBound * (1 + 1e-12)) {
      throw new IllegalArgumentException("chunk norm " + Math.sqrt(x2) + " exceeds the bound " + normBound);
    }
    double[] xc = x.clone();
    double s2 = sigma * sigma;
    double logConst = 0.5 * dim * Math.log(variance / s2);
    double bound = logConst + x2 / (2 * (variance - s2));
    return new PprTarget<>() {
      @Override
      public double logRatio(double[] z) {
        double a = 0;
        double b = 0;
        for (int i = 0; i < dim; i++) {
          double d = z[i] - xc[i];
          a += d * d;
          b += z[i] * z[i];
        }
        return logConst - a / (2 * s2) + b / (2 * variance);
      }

      @Override
      public double logRatioBound() {
        return bound;
      }
    };
  }

  /** Returns KL(N(x, sigma^2 I) || N(0, v I)) in bits for a chunk of squared norm {@code x2}. */
  public double klBits(double x2) {
    return kl(dim, sigma * sigma, x2, variance) / Math.log(2);
  }
}
