package org.priodp.noise;

import java.math.BigInteger;
import java.util.Objects;
import org.priodp.noise.internal.FixedPointExp;

/**
 * A fixed-work discrete Laplace sampler: the number of loop iterations, the operations and the
 * amount of randomness consumed depend only on the scale, never on the value returned. Its
 * output is within total variation distance {@link #delta()} of the exact discrete Laplace.
 *
 * <h2>Method: inversion of |Z| by a fixed-depth binary search</h2>
 *
 * With r = e^(-1/t) the discrete Laplace has P[Z = z] = (1 - r)/(1 + r) r^|z|, so |Z| has the
 * tail P[|Z| >= k] = c r^k for k >= 1, with c = 2/(1 + r), and P[|Z| >= 0] = 1; the sign is
 * uniform and independent of |Z| (and irrelevant when |Z| = 0). For U uniform on [0, 1), the
 * value max{k >= 0 : U < c r^k} has exactly that law (k = 0 always qualifies since c > 1 > U,
 * and for k >= 1, P[U < c r^k] = c r^k because c r <= 1). The sampler finds this maximum over
 * [0, 2^m) by a binary search of exactly m steps from the top digit down: at the step for digit
 * i the candidate is k = g + 2^i (g the digits found so far) and its threshold c r^k is the
 * running product P = c r^g times R_i = r^(2^i); the digit is 1 iff U < P R_i, and then P
 * becomes P R_i. The comparison, the digit and the choice of P use masks, not branches. One
 * sample reads B + 1 random bits (B for U, one for the sign) and does m 128 x 128-bit
 * multiplications, whatever it returns.
 *
 * <p>Fixed point: U is the B-bit integer u read as u 2^-B (B in [64, 126]); U, P and the
 * candidates are 128-bit integers in units of 2^-126 (P <= c < 2, so below 2^127); R_i are
 * 128-bit integers in units of 2^-127 (R_i < 1). With the top bit of every high word clear, the
 * signed {@link Math#multiplyHigh} needs no correction for the high-by-high product and U < Q is
 * the sign of U - Q. The product P R_i is computed from its three upper partial products (the
 * low-by-low one is dropped) and shifted right by 127 bits. The values c and R_i come from {@link
 * FixedPointExp} at 192 bits (error at most 4 ulps, i.e. 2^-190) rounded down.
 *
 * <h2>The delta, derived</h2>
 *
 * Couple the sampler with the exact, infinite-precision inversion driven by a continuous
 * uniform U_c, and let the sampler read u = floor(U_c 2^B) (a uniform B-bit integer). The
 * outputs can differ only if one of these happens:
 *
 * <ol>
 *   <li><b>Truncation.</b> The exact |Z| is >= 2^m (the search can express only [0, 2^m); such a
 *       draw is returned as 2^m - 1): probability c r^(2^m) < 2 e^(-2^m/t).
 *   <li><b>A decision at a node differs.</b> If every comparison on the exact path agrees, both
 *       follow the same path. At a node with exact threshold T and computed threshold T', with
 *       |T' - T| <= eta, the computed decision [u 2^-B < T'] and the exact one [U_c < T] differ
 *       only if U_c lies in [T - eta, T + eta + 2^-B) (because u 2^-B <= U_c < u 2^-B + 2^-B):
 *       probability at most 2 eta + 2^-B. The search tree has 2^m - 1 nodes (one per candidate
 *       k in [1, 2^m)), so the union bound gives (2^m - 1)(2 eta + 2^-B).
 * </ol>
 *
 * The error eta of a computed threshold: the stored R_i err by less than 2^-127 + 4 2^-192
 * (rounding down plus the exp bound) and the stored c by less than 2^-126 + 2^-189 < 2 2^-126
 * (|dc/dr| <= 2). A product P' R_i' of values P' = P + e_P, R_i' = R_i + e_R, with P <= 2 and
 * R_i' <= 1, errs by at most |e_P| + 2 |e_R| < |e_P| + 2^-126 + 2^-189, plus what the computation
 * drops: the low-by-low partial product and its carries (less than 2^128 units of 2^-253, i.e.
 * 2^-125) and the final rounding down (less than 2^-126). So each multiplication adds less than
 * 5 2^-126. The threshold compared at the j-th step (j <= m) is the result of j multiplications,
 * so eta = (5m + 2) 2^-126. Hence
 *
 * <pre>
 *   delta = 2 (E + 4) / 2^192 + (2^m - 1) ((10m + 4) 2^-126 + 2^-B),
 * </pre>
 *
 * E = FixedPointExp.expNeg(2^m / t) at 192 bits (so (E + 4)/2^192 >= e^(-2^m/t)), evaluated as an
 * exact {@link Rational}. The factory takes the smallest m for which some B <= 126 meets the
 * bound, then the smallest such B (at least 64). For the default bound 2^-64: m = 7, B = 71 at
 * t = 2; m = 13, B = 77 at t = 100; m = 26, B = 90 at t = 10^6.
 *
 * <h2>Privacy of a whole share</h2>
 *
 * For t = GS/epsilon a single hardened draw, being within total variation delta of an
 * epsilon-DP mechanism's noise, is (epsilon, (1 + e^epsilon) delta)-DP. A share of n
 * independently noised coordinates is within n delta of the exact noise vector (total variation
 * is subadditive over independent coordinates), so the share is (epsilon, (1 + e^epsilon) n
 * delta)-DP, not (epsilon, (1 + e^epsilon) delta).
 *
 * <h2>Threat model</h2>
 *
 * It hides the noise value from an observer who measures the sampler's running time or counts
 * the randomness it consumes: every call runs the same loop bounds, touches every constant in
 * the same order and reads the same number of random bits, and the comparisons, the selection
 * of P and the sign are computed with arithmetic and masks instead of data-dependent branches
 * ({@link Math#multiplyHigh} is a single multiply instruction on x86-64 and AArch64). It cannot
 * hide what Java does not promise: the JIT compiler may still turn arithmetic into branches,
 * garbage collection and safepoints add timing noise of their own, CPU caches and frequency
 * scaling are shared with other code, and the caller's handling of the result (for example
 * formatting it as a decimal string) takes time that depends on the value. {@code ./prio-dp audit
 * timing} measures it.
 */
public final class HardenedDiscreteLaplace implements NoiseSampler {

  /** The default bound on delta, 2^-64. */
  public static final Rational DEFAULT_DELTA = Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(64));

  /**
   * The largest integer scale the sampler supports with the default delta 2^-64 (about 9.84
   * 10^13; m = 52 digits and B = 126 bits there; the exact cutoff lies in [MAX_SCALE, MAX_SCALE +
   * 1)), found by bisection over exact rationals (the test {@code
   * theLargestScaleIsFoundByBisection}): beyond it the (2^m - 1)(10m + 4) 2^-126 term
   * of the fixed-point error alone exceeds 2^-64 for every m deep enough for the tail.
   */
  public static final Rational MAX_SCALE = Rational.of(98_388_942_814_359L);

  private static final int PRECISION = 192;
  private static final int FRACTION_BITS = 126; // units of P, c and U; R_i in units of 2^-127
  private static final int MIN_UNIFORM_BITS = 64;
  private static final int MAX_UNIFORM_BITS = 126;
  private static final int MAX_DIGITS = 62;

  private final Rational scale;
  private final int digits;
  private final int uniformBits;
  private final long[] ratioHi; // R_i = r^(2^i) in units of 2^-127
  private final long[] ratioLo;
  private final long startHi; // c = 2/(1 + r) in units of 2^-126
  private final long startLo;
  private final Rational delta;

  private HardenedDiscreteLaplace(Rational scale, int digits, int uniformBits, long[] ratioHi,
      long[] ratioLo, long startHi, long startLo, Rational delta) {
    this.scale = scale;
    this.digits = digits;
    this.uniformBits = uniformBits;
    this.ratioHi = ratioHi;
    this.ratioLo = ratioLo;
    this.startHi = startHi;
    this.startLo = startLo;
    this.delta = delta;
  }

  /** Returns the hardened sampler for scale t with delta <= 2^-64. */
  public static HardenedDiscreteLaplace of(Rational scale) {
    return of(scale, DEFAULT_DELTA);
  }

  /**
   * Returns the hardened sampler for scale t with the fewest digits m, then the fewest uniform
   * bits B, whose delta (see the class comment) is at most {@code maxDelta}.
   *
   * @throws IllegalArgumentException if the scale is not > 0, maxDelta is not in (0, 1), or the
   *     scale is so large that no m <= 62 and B <= 126 meet the bound (for 2^-64: scales above
   *     {@link #MAX_SCALE}, about 9.84 10^13, where the (2^m - 1) 2 eta term of the fixed-point
   *     error alone exceeds it; the message names the largest supported scale)
   */
  public static HardenedDiscreteLaplace of(Rational scale, Rational maxDelta) {
    Objects.requireNonNull(scale, "scale");
    Objects.requireNonNull(maxDelta, "maxDelta");
    if (scale.signum() <= 0) {
      throw new IllegalArgumentException("discrete Laplace scale must be > 0, got " + scale);
    }
    checkDeltaBound(maxDelta);
    BigInteger a = scale.numerator(); // t = a / b, so 2^i / t = 2^i b / a
    BigInteger b = scale.denominator();
    for (int m = 1; m <= MAX_DIGITS; m++) {
      Rational tail = tailBound(a, b, m);
      if (tail.compareTo(maxDelta) >= 0) {
        continue;
      }
      for (int bits = MIN_UNIFORM_BITS; bits <= MAX_UNIFORM_BITS; bits++) {
        Rational delta = delta(tail, m, bits);
        if (delta.compareTo(maxDelta) <= 0) {
          return build(scale, m, bits, delta);
        }
      }
    }
    throw new IllegalArgumentException("scale " + scale + " is too large for the fixed-work discrete Laplace"
        + " sampler" + (maxDelta.equals(DEFAULT_DELTA)
            ? ": the largest supported integer scale is " + MAX_SCALE + " (about 9.84e13) for delta 2^-64"
            : " with delta " + maxDelta + " (it would need more than " + MAX_DIGITS + " digits or "
                + MAX_UNIFORM_BITS + " uniform bits)"));
  }

  /** 2 (E + 4) / 2^192 >= 2 e^(-2^m/t) > c r^(2^m), the truncation term. */
  static Rational tailBound(BigInteger a, BigInteger b, int m) {
    BigInteger e = FixedPointExp.expNeg(b.shiftLeft(m), a, PRECISION)
        .add(BigInteger.valueOf(FixedPointExp.ERROR_ULPS));
    return Rational.of(e.shiftLeft(1), BigInteger.ONE.shiftLeft(PRECISION));
  }

  /** tail + (2^m - 1) ((10m + 4) 2^-126 + 2^-B): the class comment's bound, exactly. */
  static Rational delta(Rational tail, int m, int uniformBits) {
    BigInteger nodes = BigInteger.ONE.shiftLeft(m).subtract(BigInteger.ONE);
    Rational twoEta = Rational.of(BigInteger.valueOf(10L * m + 4), BigInteger.ONE.shiftLeft(FRACTION_BITS));
    Rational grid = Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(uniformBits));
    return tail.add(Rational.of(nodes).multiply(twoEta.add(grid)));
  }

  private static HardenedDiscreteLaplace build(Rational scale, int m, int uniformBits, Rational delta) {
    BigInteger a = scale.numerator();
    BigInteger b = scale.denominator();
    BigInteger pOne = BigInteger.ONE.shiftLeft(PRECISION);
    BigInteger max127 = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
    long[] hi = new long[m];
    long[] lo = new long[m];
    for (int i = 0; i < m; i++) {
      // R_i = e^(-2^i / t), rounded down to units of 2^-127
      BigInteger e = FixedPointExp.expNeg(b.shiftLeft(i), a, PRECISION);
      BigInteger ri = e.shiftRight(PRECISION - 127).min(max127);
      lo[i] = ri.longValue();
      hi[i] = ri.shiftRight(64).longValue();
    }
    // c = 2 / (1 + r), r = e^(-1/t), rounded down to units of 2^-126 (c < 2)
    BigInteger r = FixedPointExp.expNeg(b, a, PRECISION);
    BigInteger c = pOne.shiftLeft(FRACTION_BITS + 1).divide(pOne.add(r))
        .min(BigInteger.ONE.shiftLeft(FRACTION_BITS + 1).subtract(BigInteger.ONE));
    return new HardenedDiscreteLaplace(scale, m, uniformBits, hi, lo,
        c.shiftRight(64).longValue(), c.longValue(), delta);
  }

  /** Returns the scale t. */
  public Rational scale() {
    return scale;
  }

  /** Returns the number m of binary digits of |Z| (the depth of the search; |Z| < 2^m). */
  public int digits() {
    return digits;
  }

  /** Returns the number B of bits of the uniform U. */
  public int uniformBits() {
    return uniformBits;
  }

  /** Returns the exact upper bound on the total variation distance to the discrete Laplace. */
  public Rational delta() {
    return delta;
  }

  /** Returns delta: each draw is within this total variation of the exact discrete Laplace. */
  @Override
  public Rational totalVariationPerDraw() {
    return delta;
  }

  /** Returns the number of random bits every sample consumes: B + 1. */
  public long bitsPerSample() {
    return uniformBits + 1L;
  }

  @Override
  public long sample(RandomSource rnd) {
    // U = u 2^-B in units of 2^-126: the first 64 bits, then B - 64 more, then the sign bit
    int extra = uniformBits - 64;
    long first = rnd.nextLong();
    long rest = rnd.nextBits(extra + 1);
    long negative = -(rest & 1); // all ones for a negative sign
    long uHi = first >>> 2;
    long uLo = (first << 62) | ((rest >>> 1) << (62 - extra));
    long pHi = startHi;
    long pLo = startLo;
    long[] q = new long[2];
    long g = 0;
    for (int i = digits - 1; i >= 0; i--) {
      multiply(pHi, pLo, ratioHi[i], ratioLo[i], q);
      long qHi = q[0];
      long qLo = q[1];
      // digit i is 1 iff U < Q = c r^(g + 2^i): the sign of U - Q (both below 2^127)
      long borrow = lessThan(uLo, qLo);
      long take = (uHi - qHi - borrow) >>> 63;
      long mask = -take;
      pHi = (qHi & mask) | (pHi & ~mask);
      pLo = (qLo & mask) | (pLo & ~mask);
      g |= take << i;
    }
    return (g ^ negative) - negative;
  }

  /**
   * Returns {@link #sample} as a BigInteger. Not fixed-work: {@link BigInteger#valueOf} returns a
   * cached instance for small values and allocates a new one otherwise, so its time and
   * allocation depend on the value. The Prio3 noising path never calls it (it uses {@link #fill}
   * and the field's constant-time projection, {@code PrimeField.setSignedConstantTime}).
   */
  @Override
  public BigInteger sampleBig(RandomSource rnd) {
    return BigInteger.valueOf(sample(rnd));
  }

  /** Refuses a delta bound outside [2^-100, 1). */
  static void checkDeltaBound(Rational maxDelta) {
    if (maxDelta.signum() <= 0 || maxDelta.compareTo(Rational.ONE) >= 0) {
      throw new IllegalArgumentException("delta bound must be in (0, 1), got " + maxDelta);
    }
    if (maxDelta.compareTo(Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(100))) < 0) {
      throw new IllegalArgumentException("delta bound below 2^-100 is not supported, got " + maxDelta);
    }
  }

  /**
   * Writes P R (P in units of 2^-126, R in units of 2^-127, both with the top bit of the high
   * word clear) in units of 2^-126 to {@code q} = {hi, lo}: the three upper partial products
   * (the low-by-low one dropped) shifted right by 127 bits, with no branch (the class comment
   * bounds its error).
   */
  static void multiply(long pHi, long pLo, long rHi, long rLo, long[] q) {
    long lhLo = pLo * rHi;
    long lhHi = Math.multiplyHigh(pLo, rHi) + ((pLo >> 63) & rHi);
    long hlLo = pHi * rLo;
    long hlHi = Math.multiplyHigh(pHi, rLo) + ((rLo >> 63) & pHi);
    long hhLo = pHi * rHi;
    long hhHi = Math.multiplyHigh(pHi, rHi);
    long w1 = lhLo + hlLo;
    long c1 = carry(lhLo, hlLo, w1);
    long s2 = lhHi + hlHi;
    long c2 = carry(lhHi, hlHi, s2);
    long s3 = s2 + hhLo;
    c2 += carry(s2, hhLo, s3);
    long w2 = s3 + c1;
    c2 += carry(s3, c1, w2);
    long w3 = hhHi + c2;
    q[0] = (w3 << 1) | (w2 >>> 63);
    q[1] = (w2 << 1) | (w1 >>> 63);
  }

  /** Returns 1 if x < y as unsigned 64-bit integers, else 0, without branches. */
  static long lessThan(long x, long y) {
    return ((~x & y) | (~(x ^ y) & (x - y))) >>> 63;
  }

  /** The carry out of the unsigned sum s = x + y (1 or 0), without branches. */
  static long carry(long x, long y, long s) {
    return ((x & y) | ((x | y) & ~s)) >>> 63;
  }

  /** Returns 1 if the unsigned 128-bit (xHi, xLo) < (yHi, yLo), else 0, without branches. */
  static long lessThan(long xHi, long xLo, long yHi, long yLo) {
    long ltHi = ((~xHi & yHi) | ((~(xHi ^ yHi)) & (xHi - yHi))) >>> 63;
    long ltLo = ((~xLo & yLo) | ((~(xLo ^ yLo)) & (xLo - yLo))) >>> 63;
    long diff = xHi ^ yHi;
    long eqHi = 1 ^ ((diff | -diff) >>> 63);
    return ltHi | (eqHi & ltLo);
  }

  /** Always true: every draw is below 2^62 in magnitude. */
  @Override
  public boolean drawsFitLong() {
    return true;
  }

  /**
   * Returns the variance of the exact discrete Laplace of the same scale ({@link
   * Accuracy#laplaceVariance}); this sampler is within total variation {@link #delta()} of it.
   */
  @Override
  public double variance() { // double: a figure shown to people, never used to sample
    return Accuracy.laplaceVariance(scale);
  }

  /** Returns the exact discrete Laplace half-width of the same scale. */
  @Override
  public BigInteger halfWidth(int draws, double confidence) { // double: a figure shown to people, never used to sample
    return Accuracy.halfWidth(draws, confidence, (n, c) -> Accuracy.laplaceHalfWidth(scale, n, c));
  }

  @Override
  public String describe() {
    return "fixed-work discrete Laplace with scale " + scale + " (total variation <= 2^" + log2(delta)
        + " from the exact distribution)";
  }

  /** Returns log2 of a delta rounded to an integer, for people. */
  static long log2(Rational delta) {
    return Math.round(Math.log(Accuracy.toDouble(delta)) / Math.log(2)); // double: a figure shown to people, never used to sample
  }

  @Override
  public String toString() {
    return "HardenedDiscreteLaplace(scale=" + scale + ", digits=" + digits + ", uniformBits=" + uniformBits + ")";
  }
}
