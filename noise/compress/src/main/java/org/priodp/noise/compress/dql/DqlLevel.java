package org.priodp.noise.compress.dql;

import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.internal.Uniforms;

/**
 * One component f_t of the DQL mixture (equation (5) of the DQL paper) in the form (1):
 * f_t(y) = (1/delta) sum_k a_k tri(y/delta - k), and the sampler of Algorithm 1, lines 6-10,
 * that draws an integer k with probability a_k.
 *
 * <p>The vertices of f_t split into four geometric sequences with ratio e^(-2 delta): even
 * k >= 0 (start 0, step +2), even k < 0 (start -2, step -2), odd k > 0 (start 1, step +2) and
 * odd k < 0 (start -1, step -2), with weights proportional to A, A e^(-2 delta), B, B
 * (Algorithm 1, line 9). Multiplying the paper's weights by delta / (1 - e^-delta) and writing
 * r = 1 - s with the stable s of {@link DqlMixture} gives
 * A = (p^2 + 2qK) / ((1 + q)(1 + q^2)) and B = qK / (1 + q) for t >= 1, and A = 1 / (1 + q),
 * B = q / (1 + q) for t = 0 (where r = 0), with q = e^-delta, p = 1 - q: sums of positive terms.
 *
 * @param t the level
 * @param delta the step delta_t
 * @param q e^-delta
 * @param oneMinusQ2 1 - e^(-2 delta)
 * @param evenPositive weight A of the even k >= 0 sequence (unnormalized)
 * @param evenNegative weight A e^(-2 delta) of the even k < 0 sequence
 * @param odd weight B of each odd sequence
 */
record DqlLevel(int t, double delta, double q, double oneMinusQ2, double evenPositive, double evenNegative, double odd) {

  /** Builds level t from delta_t and K = (H + E) / (delta a + H) of {@link DqlMixture}. */
  static DqlLevel of(int t, double delta, double k) {
    double q = Math.exp(-delta);
    double p = -Math.expm1(-delta);
    double a;
    double b;
    if (t == 0) {
      a = 1 / (1 + q);
      b = q / (1 + q);
    } else {
      a = (p * p + 2 * q * k) / ((1 + q) * (1 + q * q));
      b = q * k / (1 + q);
    }
    return new DqlLevel(t, delta, q, -Math.expm1(-2 * delta), a, a * q * q, b);
  }

  /** Returns the sum of the four sequence weights. */
  double total() {
    return evenPositive + evenNegative + 2 * odd;
  }

  /** Returns a_k, the probability of vertex k (normalized; equation (1)). */
  double a(long k) {
    double w;
    long steps;
    if ((k & 1) == 0) {
      w = k >= 0 ? evenPositive : evenNegative;
      steps = k >= 0 ? k / 2 : (-k - 2) / 2;
    } else {
      w = odd;
      steps = k > 0 ? (k - 1) / 2 : (-k - 1) / 2;
    }
    // q^(2 steps) = exp(-2 delta steps)
    return w / total() * oneMinusQ2 * Math.exp(-2 * delta * steps);
  }

  /**
   * Returns P(M = m | scaled input y, level t, dither u) = sum_k a_k tri(m + u - y/delta - k)
   * (the proof of Lemma 5, step (c)), where y = epsilon * x.
   */
  double descriptionProbability(long m, double y, double u) {
    double c = (m + u) - y / delta;
    double fl = Math.floor(c);
    long k = (long) fl;
    double frac = c - fl;
    return a(k) * (1 - frac) + a(k + 1) * frac;
  }

  /** Draws k with probability a_k using local randomness (Algorithm 1, lines 9-10). */
  long sampleVertex(RandomSource local) {
    double v = Uniforms.unit(local) * total();
    long start;
    long step;
    if (v < evenPositive) {
      start = 0;
      step = 2;
    } else if (v < evenPositive + evenNegative) {
      start = -2;
      step = -2;
    } else if (v < evenPositive + evenNegative + odd) {
      start = 1;
      step = 2;
    } else {
      start = -1;
      step = -2;
    }
    // Geom_0(1 - e^(-2 delta)): P(G >= g) = e^(-2 delta g)
    double g = Math.floor(-Math.log(Uniforms.openClosed(local)) / (2 * delta));
    return start + step * (long) g;
  }
}
