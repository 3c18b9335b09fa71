package org.priodp.noise.compress.ppr;

import java.util.function.DoubleUnaryOperator;

/**
 * Rényi-DP accounting for the Gaussian mechanisms of the PPR paper's mean estimation (Sec. 5,
 * App. G) and for its baseline CSGM (Chen et al., coordinate-subsampled Gaussian mechanism).
 * Sensitivities are L2.
 *
 * <p><b>Neighbouring relation.</b> The bounds below are for <em>zero-out</em> neighbours: two
 * datasets of the same n clients in which one client's vector is replaced by the zero vector,
 * n being fixed and public.
 *
 * <ul>
 *   <li>PPR mean estimation: every client, the zeroed one included, adds its own N(0, sigma^2 I),
 *       so the noise of the sum is N(0, n sigma^2 I) on both sides and the sum moves by at most
 *       1: the Gaussian mechanism with mu = sigma sqrt(n). This is not the add/remove relation:
 *       adding a client also adds its noise, so the two sums differ in variance as well, and the
 *       shift bound does not cover that. For replacement of one vector by any other (of norm at
 *       most 1) the sum moves by up to 2: use mu = sigma sqrt(n) / 2.
 *   <li>CSGM: the server adds the noise, so zeroing a client out and removing it give the same
 *       output distribution; the subsampled-Gaussian bound below holds for both. Replacement of
 *       one client's vector by another is not covered by it.
 * </ul>
 *
 * <ul>
 *   <li>Gaussian mechanism with noise multiplier mu = sigma/Delta: RDP epsilon(lambda) = lambda /
 *       (2 mu^2) (Mironov 2017).
 *   <li>Poisson-subsampled Gaussian at rate gamma, integer order lambda: epsilon(lambda) =
 *       log(sum_k C(lambda, k) (1 - gamma)^(lambda - k) gamma^k exp((k^2 - k)/(2 mu^2))) /
 *       (lambda - 1) (Mironov, Talwar and Zhang 2019), computed in log space.
 *   <li>Conversion to (epsilon, delta) (Canonne, Kamath and Steinke 2020, the paper's Lemma G.2):
 *       epsilon = min over lambda of epsilon(lambda) + log((lambda - 1)/lambda) - (log delta + log
 *       lambda)/(lambda - 1).
 * </ul>
 *
 * <p>For the averaged Gaussian mechanism of n clients, each adding N(0, sigma^2) to a vector of
 * norm at most 1, the sum carries N(0, n sigma^2) and has zero-out sensitivity 1, so mu = sigma
 * sqrt(n). Doubles throughout: these numbers choose parameters and are shown to people (the
 * compression package's exception of non-negotiable 1).
 */
public final class RenyiAccountant {
  private RenyiAccountant() {}

  /** RDP of the Gaussian mechanism at order lambda > 1 for noise multiplier mu. */
  public static double gaussianRdp(double lambda, double mu) {
    return lambda / (2 * mu * mu);
  }

  /** The (epsilon, delta)-DP epsilon of the Gaussian mechanism with noise multiplier mu. */
  public static double gaussianEpsilon(double mu, double delta) {
    checkDelta(delta);
    double best = Double.POSITIVE_INFINITY;
    // continuous orders: a fine geometric grid over (1, 10^5]
    for (double lambda = 1.001; lambda < 1e5; lambda *= 1.002) {
      best = Math.min(best, convert(gaussianRdp(lambda, mu), lambda, delta));
    }
    return best;
  }

  /** The smallest noise multiplier mu whose Gaussian mechanism is (epsilon, delta)-DP. */
  public static double gaussianNoiseMultiplier(double epsilon, double delta) {
    return invert(mu -> gaussianEpsilon(mu, delta), epsilon);
  }

  /**
   * RDP at integer order lambda >= 2 of the Poisson-subsampled Gaussian mechanism with rate
   * gamma in (0, 1] and noise multiplier mu.
   */
  public static double subsampledGaussianRdp(int lambda, double gamma, double mu) {
    if (lambda < 2) {
      throw new IllegalArgumentException("order must be an integer >= 2, got " + lambda);
    }
    if (!(gamma > 0 && gamma <= 1)) {
      throw new IllegalArgumentException("sampling rate must be in (0, 1], got " + gamma);
    }
    if (gamma == 1) {
      return gaussianRdp(lambda, mu);
    }
    double[] terms = new double[lambda + 1];
    double max = Double.NEGATIVE_INFINITY;
    double logBinom = 0;
    for (int k = 0; k <= lambda; k++) {
      if (k > 0) {
        logBinom += Math.log((double) (lambda - k + 1) / k);
      }
      terms[k] = logBinom + (lambda - k) * Math.log1p(-gamma) + k * Math.log(gamma) + (double) k * (k - 1) / (2 * mu * mu);
      max = Math.max(max, terms[k]);
    }
    double s = 0;
    for (double t : terms) {
      s += Math.exp(t - max);
    }
    return (max + Math.log(s)) / (lambda - 1);
  }

  /**
   * The (epsilon, delta)-DP epsilon of CSGM on d coordinates: each client's coordinate is kept with
   * probability gamma (Poisson sampling) and the server adds N(0, sigma^2) to each coordinate sum.
   * The per-coordinate sensitivities are {@code coordinateBound} (|x_j| <= coordinateBound; 1/sqrt(d)
   * for the paper's data), so each coordinate is a subsampled Gaussian with multiplier sigma /
   * coordinateBound and the d coordinates compose.
   */
  public static double csgmEpsilon(int d, double gamma, double sigma, double coordinateBound, double delta) {
    checkDelta(delta);
    double mu = sigma / coordinateBound;
    double best = Double.POSITIVE_INFINITY;
    for (int lambda = 2; lambda <= 1024; lambda = lambda < 64 ? lambda + 1 : lambda + lambda / 16) {
      best = Math.min(best, convert(d * subsampledGaussianRdp(lambda, gamma, mu), lambda, delta));
    }
    return best;
  }

  /** The smallest CSGM noise sigma (per coordinate sum) that is (epsilon, delta)-DP. */
  public static double csgmSigma(int d, double gamma, double coordinateBound, double epsilon, double delta) {
    return invert(s -> csgmEpsilon(d, gamma, s, coordinateBound, delta), epsilon);
  }

  /** The conversion of Lemma G.2 at one order. */
  static double convert(double rdp, double lambda, double delta) {
    return rdp + Math.log((lambda - 1) / lambda) - (Math.log(delta) + Math.log(lambda)) / (lambda - 1);
  }

  private static double invert(DoubleUnaryOperator epsOf, double epsilon) {
    if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be finite and > 0, got " + epsilon);
    }
    double lo = 1e-6;
    double hi = 1;
    while (epsOf.applyAsDouble(hi) > epsilon) {
      hi *= 2;
      if (hi > 1e12) {
        throw new IllegalArgumentException("no noise level reaches epsilon " + epsilon);
      }
    }
    for (int i = 0; i < 60; i++) {
      double mid = Math.sqrt(lo * hi);
      if (epsOf.applyAsDouble(mid) > epsilon) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  private static void checkDelta(double delta) {
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
  }
}
