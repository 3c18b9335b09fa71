package org.priodp.noise.compress.dql;

import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.internal.Uniforms;

/**
 * The mixture behind the dyadic quantized Laplace mechanism: the distribution of the level T
 * (equation (4) of the DQL paper, F_T(t) = prod_{i > t} r_i) and the piecewise linear
 * components f_t of equation (5), for one decoder relaxation {@code ell > 1} (the mixture does
 * not depend on epsilon, which only scales the input).
 *
 * <p><b>Stable formulas.</b> With delta = delta_i = 2^-i delta_0, q = e^-delta, a = ell - 1,
 * E = e^delta - 1 - delta and H = delta - tanh(delta) (both positive, each from a series for
 * small delta), the factor of (4) is
 * r = 4q (delta a - E) / ((1 + q)^2 (delta a + H)); it tends to 1 as delta -> 0, so this class
 * works with s = 1 - r = (p^2 + 4qK) / (1 + q)^2, where p = 1 - q and
 * K = (H + E) / (delta a + H): a sum of positive terms, with no cancellation. The paper's
 * direct form of r subtracts nearly equal numbers when delta is small and returns r > 1 for
 * deep levels; here 0 < r < 1 always. Then log F_T(t) = sum_{i > t} log1p(-s_i), summed from
 * the smallest term up, P(T = t) = F_T(t) s_t, and P(T > t) = -expm1(log F_T(t)).
 *
 * <p><b>Truncation.</b> The product is evaluated for i up to the first level with s_i < 2^-160
 * (beyond it s_i roughly halves per level, so the neglected part of log F_T is below 2^-159,
 * negligible even relative to the smallest survival probability kept, about 2^-53).
 * T is sampled by inversion from a 53-bit uniform, which can never select a level t with
 * P(T >= t) < 2^-53; {@link #maxLevel()} is the first level whose survival P(T > t) is below
 * 2^-53, and {@link #droppedMass()} that survival. Compared with evaluating (4) in 60-digit
 * decimal arithmetic, F_T and P(T = t) agree to 1e-12 relative (see DqlMixtureTest).
 *
 * <p><b>Residual error.</b> Each level probability used for sampling is off by at most 2^-53
 * (the uniform grid) plus the double rounding of F_T (about 1e-15 relative).
 */
public final class DqlMixture {
  private static final double TINY_S = 0x1.0p-160;
  private static final double UNIFORM_GRID = 0x1.0p-53;
  private static final int MAX_TERMS = 1100;

  private final double ell;
  private final double delta0;
  private final double[] cdf; // F_T(t), t = 0..maxLevel
  private final double[] survival; // 1 - F_T(t)
  private final double[] probability; // P(T = t)
  private final double[] oneMinusRatio; // s_t = 1 - r_t (s_0 = 1)
  private final DqlLevel[] levels;

  private DqlMixture(double ell) {
    this.ell = ell;
    this.delta0 = solveDelta0(ell);
    double a = ell - 1;
    double[] s = new double[MAX_TERMS];
    double[] k = new double[MAX_TERMS];
    s[0] = 1;
    int last = 0;
    for (int i = 1; i < MAX_TERMS; i++) {
      double d = Math.scalb(delta0, -i);
      double q = Math.exp(-d);
      double p = -Math.expm1(-d);
      double h = deltaMinusTanh(d);
      double e = expm1MinusX(d);
      k[i] = (h + e) / (d * a + h);
      s[i] = (p * p + 4 * q * k[i]) / ((1 + q) * (1 + q));
      last = i;
      if (s[i] < TINY_S || d == Double.MIN_VALUE) {
        break;
      }
    }
    // log F_T(t) for t = last, last - 1, ..., 0, summing the small terms first
    double[] logF = new double[last + 1];
    double acc = 0;
    for (int t = last; t >= 0; t--) {
      logF[t] = acc;
      if (t >= 1) {
        acc += Math.log1p(-s[t]);
      }
    }
    int tMax = 0;
    while (tMax < last && -Math.expm1(logF[tMax]) >= UNIFORM_GRID) {
      tMax++;
    }
    cdf = new double[tMax + 1];
    survival = new double[tMax + 1];
    probability = new double[tMax + 1];
    oneMinusRatio = new double[tMax + 1];
    levels = new DqlLevel[tMax + 1];
    for (int t = 0; t <= tMax; t++) {
      cdf[t] = Math.exp(logF[t]);
      survival[t] = -Math.expm1(logF[t]);
      oneMinusRatio[t] = s[t];
      probability[t] = cdf[t] * s[t];
      levels[t] = DqlLevel.of(t, Math.scalb(delta0, -t), k[t]);
    }
  }

  /**
   * Returns the mixture for {@code ell > 1}.
   *
   * @throws IllegalArgumentException if ell is not a finite number > 1
   */
  public static DqlMixture of(double ell) {
    if (!(ell > 1) || Double.isInfinite(ell)) {
      throw new IllegalArgumentException("ell must be a finite number > 1, got " + ell);
    }
    return new DqlMixture(ell);
  }

  /** Returns ell. */
  public double ell() {
    return ell;
  }

  /** Returns delta_0, the positive root of e^delta = delta * ell + 1 (Algorithm 1, line 1). */
  public double delta0() {
    return delta0;
  }

  /** Returns delta_t = 2^-t delta_0, the quantization step of level t. */
  public double delta(int t) {
    return Math.scalb(delta0, -t);
  }

  /** Returns the deepest level T can take: the first t with P(T > t) < 2^-53. */
  public int maxLevel() {
    return cdf.length - 1;
  }

  /** Returns the probability mass the truncation drops: P(T > maxLevel()) < 2^-53. */
  public double droppedMass() {
    return survival[maxLevel()];
  }

  /** Returns F_T(t) = P(T <= t) of equation (4); 0 for t < 0, 1 beyond the truncation. */
  public double cdf(int t) {
    return t < 0 ? 0 : t > maxLevel() ? 1 : cdf[t];
  }

  /** Returns P(T > t) = 1 - F_T(t), accurate also when it is tiny. */
  public double survival(int t) {
    return t < 0 ? 1 : t > maxLevel() ? 0 : survival[t];
  }

  /** Returns P(T = t) = F_T(t) - F_T(t - 1) = F_T(t) (1 - r_t). */
  public double probability(int t) {
    return t < 0 || t > maxLevel() ? 0 : probability[t];
  }

  /** Returns r_t = F_T(t - 1) / F_T(t) (Algorithm 1, line 8); r_0 = 0. */
  public double ratio(int t) {
    check(t);
    return 1 - oneMinusRatio[t];
  }

  /** Returns 1 - r_t, computed without cancellation; 1 at t = 0. */
  public double oneMinusRatio(int t) {
    check(t);
    return oneMinusRatio[t];
  }

  /** Returns E[-ln delta_T] = E[T] ln 2 - ln delta_0, the level term of Theorem 8. */
  public double expectedMinusLogDelta() {
    double et = 0;
    for (int t = 1; t <= maxLevel(); t++) {
      et += survival[t - 1]; // E[T] = sum_{t >= 1} P(T >= t)
    }
    return et * Math.log(2) - Math.log(delta0);
  }

  /**
   * Samples T from 53 bits of the shared stream by inversion: T > t exactly when the uniform
   * (k + 1) 2^-53, k the 53 bits, is at most P(T > t) (Algorithm 1, line 2).
   */
  public int sampleLevel(RandomSource shared) {
    double u = Uniforms.openClosed(shared);
    int t = 0;
    while (t < maxLevel() && u <= survival[t]) {
      t++;
    }
    return t;
  }

  /** Returns the piecewise linear component f_t of equation (5). */
  DqlLevel level(int t) {
    check(t);
    return levels[t];
  }

  private void check(int t) {
    if (t < 0 || t > maxLevel()) {
      throw new IllegalArgumentException("level must be in [0, " + maxLevel() + "], got " + t);
    }
  }

  /**
   * Solves e^d = d ell + 1 for d > 0, written as (e^d - 1 - d) / d = ell - 1 (increasing in d),
   * by bisection to the last bit.
   */
  static double solveDelta0(double ell) {
    double a = ell - 1;
    double lo = 0;
    double hi = 1;
    while (expm1MinusX(hi) / hi < a) {
      hi *= 2;
    }
    while (true) {
      double mid = lo + (hi - lo) / 2;
      if (mid <= lo || mid >= hi) {
        return hi;
      }
      if (mid == 0 || expm1MinusX(mid) / mid < a) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
  }

  /** Returns e^x - 1 - x for x >= 0 without cancellation (a series below 1/2). */
  static double expm1MinusX(double x) {
    if (x >= 0.5) {
      return Math.expm1(x) - x;
    }
    double term = x * x / 2;
    double sum = term;
    for (int n = 3; n < 30; n++) {
      term *= x / n;
      sum += term;
      if (term < sum * 1e-17) {
        break;
      }
    }
    return sum;
  }

  /** Returns x - tanh(x) for x >= 0 without cancellation (the Taylor series below 0.1). */
  static double deltaMinusTanh(double x) {
    if (x >= 0.1) {
      return x - Math.tanh(x);
    }
    double x2 = x * x;
    // x^3/3 - 2x^5/15 + 17x^7/315 - 62x^9/2835 + 1382x^11/155925 - 21844x^13/6081075
    //   + 929569x^15/638512875 (next term below 2e-17 relative at x = 0.1)
    double poly = 1.0 / 3 + x2 * (-2.0 / 15 + x2 * (17.0 / 315 + x2 * (-62.0 / 2835
        + x2 * (1382.0 / 155925 + x2 * (-21844.0 / 6081075 + x2 * (929569.0 / 638512875))))));
    return x * x2 * poly;
  }
}
