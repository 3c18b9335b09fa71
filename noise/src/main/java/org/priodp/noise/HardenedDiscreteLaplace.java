package org.priodp.noise;

import java.math.BigInteger;
import java.util.Objects;
import org.priodp.noise.internal.FixedPointExp;

/**
 * A fixed-work discrete Laplace sampler: the number of loop iterations and the amount of
 * randomness consumed depend only on the scale, never on the value returned. Its output is
 * within total variation distance {@link #delta()} of the exact discrete Laplace.
 *
 * <h2>Method</h2>
 *
 * With r = e^(-1/t), a discrete Laplace variable is Z = B S (1 + G): B = 1 with probability
 * P[Z != 0] = 2r / (1 + r), S a uniform sign, and G geometric with P[G = g] = (1 - r) r^g, all
 * independent. (Check: P[Z = 0] = (1 - r)/(1 + r) and P[Z = ±k] = r/(1 + r) (1 - r) r^(k-1),
 * which is the PMF.) The binary digits of G are independent, digit i being 1 with probability
 * q_i = 1 / (1 + e^(2^i / t)). The sampler draws B and digits 0 .. m-1 of G by comparing fresh
 * 80-bit uniform integers with the probabilities rounded down to 80 bits, and the sign from one
 * more bit, combining them without branches. It always consumes exactly 80 (m + 1) + 1 random
 * bits.
 *
 * <h2>The delta</h2>
 *
 * Two things separate the output from the exact distribution: m digits cannot express
 * G >= 2^m (the fixed rule: such a G is returned modulo 2^m), which has probability
 * e^(-2^m / t); and each of the m + 1 thresholds is rounded, by at most 2^-79 (rounding down to
 * 80 bits plus the proven error of the integer exp evaluation). By a coupling argument the
 * total variation distance to the exact discrete Laplace is at most
 * delta = e^(-2^m/t) + (m + 1) 2^-79, computed here as an exact rational upper bound; m is the
 * smallest digit count with delta <= the requested bound (default 2^-64). For epsilon-DP with
 * t = GS/epsilon, one hardened draw is (epsilon, (1 + e^epsilon) delta)-DP; a vector of n
 * independent draws is within n delta of the exact one, hence (epsilon, (1 + e^epsilon) n
 * delta)-DP.
 *
 * <h2>Threat model</h2>
 *
 * It hides the noise value from an observer who measures the sampler's running time or counts
 * the randomness it consumes: every call runs the same loop bounds, touches every threshold in
 * the same order and reads the same number of random bits, and the comparisons and the sum are
 * computed with arithmetic instead of data-dependent branches. It cannot hide what Java does
 * not promise: the JIT compiler may still turn arithmetic into branches, garbage collection
 * and safepoints add timing noise of their own, CPU caches and frequency scaling are shared
 * with other code, and the caller's handling of the result (for example formatting it as a
 * decimal string) takes time that depends on the value.
 */
public final class HardenedDiscreteLaplace implements NoiseSampler {

  /** The default bound on delta, 2^-64. */
  public static final Rational DEFAULT_DELTA = Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(64));

  private static final int THRESHOLD_BITS = 80;
  private static final int LOW_BITS = THRESHOLD_BITS - 64;
  private static final int PRECISION = 192;
  private static final int MAX_DIGITS = 62;

  private final Rational scale;
  private final int digits;
  private final long[] thresholdHi;
  private final long[] thresholdLo;
  private final long nonZeroHi;
  private final long nonZeroLo;
  private final Rational delta;

  private HardenedDiscreteLaplace(
      Rational scale, int digits, long[] hi, long[] lo, long nonZeroHi, long nonZeroLo, Rational delta) {
    this.scale = scale;
    this.digits = digits;
    this.thresholdHi = hi;
    this.thresholdLo = lo;
    this.nonZeroHi = nonZeroHi;
    this.nonZeroLo = nonZeroLo;
    this.delta = delta;
  }

  /** Returns the hardened sampler for scale t with delta <= 2^-64. */
  public static HardenedDiscreteLaplace of(Rational scale) {
    return of(scale, DEFAULT_DELTA);
  }

  /**
   * Returns the hardened sampler for scale t with the fewest digits whose delta is at most
   * {@code maxDelta}.
   *
   * @throws IllegalArgumentException if the scale is not > 0, maxDelta is not in (0, 1), or the
   *     scale is so large that more than 62 digits would be needed
   */
  public static HardenedDiscreteLaplace of(Rational scale, Rational maxDelta) {
    Objects.requireNonNull(scale, "scale");
    Objects.requireNonNull(maxDelta, "maxDelta");
    if (scale.signum() <= 0) {
      throw new IllegalArgumentException("discrete Laplace scale must be > 0, got " + scale);
    }
    if (maxDelta.signum() <= 0 || maxDelta.compareTo(Rational.ONE) >= 0) {
      throw new IllegalArgumentException("delta bound must be in (0, 1), got " + maxDelta);
    }
    if (maxDelta.compareTo(Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(100))) < 0) {
      throw new IllegalArgumentException("delta bound below 2^-100 is not supported, got " + maxDelta);
    }
    BigInteger a = scale.numerator(); // t = a / b, so 2^i / t = 2^i b / a
    BigInteger b = scale.denominator();
    BigInteger pOne = BigInteger.ONE.shiftLeft(PRECISION);
    Rational rounding = Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(THRESHOLD_BITS - 1));
    for (int m = 1; m <= MAX_DIGITS; m++) {
      // upper bound on e^(-2^m / t)
      BigInteger tail = FixedPointExp.expNeg(b.shiftLeft(m), a, PRECISION)
          .add(BigInteger.valueOf(FixedPointExp.ERROR_ULPS));
      Rational delta = Rational.of(tail, pOne).add(rounding.multiply(Rational.of(m + 1)));
      if (delta.compareTo(maxDelta) <= 0) {
        return build(scale, m, delta);
      }
    }
    throw new IllegalArgumentException(
        "scale " + scale + " is too large for the hardened sampler (needs more than " + MAX_DIGITS + " digits)");
  }

  private static HardenedDiscreteLaplace build(Rational scale, int m, Rational delta) {
    BigInteger a = scale.numerator();
    BigInteger b = scale.denominator();
    BigInteger pOne = BigInteger.ONE.shiftLeft(PRECISION);
    long[] hi = new long[m];
    long[] lo = new long[m];
    for (int i = 0; i < m; i++) {
      // q_i = E / (1 + E) with E = e^(-2^i / t), rounded down to 80 bits: the top 64 bits in
      // hi, the last 16 in lo
      BigInteger e = FixedPointExp.expNeg(b.shiftLeft(i), a, PRECISION);
      BigInteger q = e.shiftLeft(THRESHOLD_BITS).divide(pOne.add(e));
      lo[i] = q.longValue() & ((1L << LOW_BITS) - 1);
      hi[i] = q.shiftRight(LOW_BITS).longValue();
    }
    // P[Z != 0] = 2r / (1 + r), r = e^(-1/t), rounded down to 80 bits
    BigInteger r = FixedPointExp.expNeg(b, a, PRECISION);
    BigInteger nonZero = r.shiftLeft(THRESHOLD_BITS + 1).divide(pOne.add(r));
    return new HardenedDiscreteLaplace(scale, m, hi, lo,
        nonZero.shiftRight(LOW_BITS).longValue(), nonZero.longValue() & ((1L << LOW_BITS) - 1), delta);
  }

  /** Returns the scale t. */
  public Rational scale() {
    return scale;
  }

  /** Returns the number m of binary digits drawn per geometric variable. */
  public int digits() {
    return digits;
  }

  /** Returns the exact upper bound on the total variation distance to the discrete Laplace. */
  public Rational delta() {
    return delta;
  }

  /** Returns the number of random bits every sample consumes: 80 (m + 1) + 1. */
  public long bitsPerSample() {
    return (digits + 1L) * THRESHOLD_BITS + 1;
  }

  @Override
  public long sample(RandomSource rnd) {
    long nonZero = lessThan(rnd.nextLong(), rnd.nextBits(LOW_BITS), nonZeroHi, nonZeroLo);
    long negative = -rnd.nextBits(1); // all ones for a negative sign
    long magnitude = (1 + geometric(rnd)) * nonZero;
    return (magnitude ^ negative) - negative;
  }

  @Override
  public BigInteger sampleBig(RandomSource rnd) {
    return BigInteger.valueOf(sample(rnd));
  }

  private long geometric(RandomSource rnd) {
    long g = 0;
    for (int i = 0; i < digits; i++) {
      long uHi = rnd.nextLong();
      long uLo = rnd.nextBits(LOW_BITS);
      g |= lessThan(uHi, uLo, thresholdHi[i], thresholdLo[i]) << i;
    }
    return g;
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
    return "fixed-work discrete Laplace with scale " + scale + " (total variation <= 2^"
        + Math.round(Math.log(Accuracy.toDouble(delta)) / Math.log(2)) // double: a figure shown to people, never used to sample
        + " from the exact distribution)";
  }

  @Override
  public String toString() {
    return "HardenedDiscreteLaplace(scale=" + scale + ", digits=" + digits + ")";
  }
}
