package org.priodp.noise.compress.requantization;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.compress.internal.Uniforms;

/**
 * The deployed randomized requantization channel Q(x-hat | x) (requantization paper, Sec. 2):
 * an exact right-stochastic matrix of rationals with one common denominator, its input and output
 * alphabets, the epsilon it actually guarantees (Eq. (1), from the exact entries) and an exact
 * sampler.
 *
 * <p>Every probability the sampler uses is an integer numerator over the common denominator; a
 * row is sampled by one uniform integer in [0, denominator) compared with cumulative numerators,
 * so the output distribution is exactly the row. The designer's double-precision LP solution is
 * only a starting point: {@link #fromDoubles} rounds it, re-normalises each row exactly, and the
 * guarantee reported is recomputed from the result, never taken from the design target.
 */
public final class RequantizationChannel {

  /** Bits of the common denominator used by {@link #fromDoubles}: 2^60 (at most 2^61 for the long sampler). */
  public static final int DENOMINATOR_BITS = 60;

  private final LloydMaxQuantizer input;
  private final LloydMaxQuantizer output;
  private final long[][] numerators;
  private final long denominator;
  private final Rational maxRatio;

  private RequantizationChannel(LloydMaxQuantizer input, LloydMaxQuantizer output, long[][] numerators, long denominator) {
    this.input = Objects.requireNonNull(input, "input");
    this.output = Objects.requireNonNull(output, "output");
    if (denominator < 1 || denominator > Uniforms.MAX_BOUND) {
      throw new IllegalArgumentException("denominator must be in [1, 2^61], got " + denominator);
    }
    if (numerators.length != input.size()) {
      throw new IllegalArgumentException("need " + input.size() + " rows, got " + numerators.length);
    }
    int m = output.size();
    long[][] copy = new long[numerators.length][];
    for (int i = 0; i < numerators.length; i++) {
      long[] row = numerators[i];
      if (row.length != m) {
        throw new IllegalArgumentException("row " + i + " has " + row.length + " entries, expected " + m);
      }
      long s = 0;
      for (long v : row) {
        if (v < 0) {
          throw new IllegalArgumentException("row " + i + " has a negative entry");
        }
        s = Math.addExact(s, v);
      }
      if (s != denominator) {
        throw new IllegalArgumentException("row " + i + " sums to " + s + "/" + denominator + ", not 1");
      }
      copy[i] = row.clone();
    }
    this.numerators = copy;
    this.denominator = denominator;
    this.maxRatio = computeMaxRatio(copy);
  }

  /**
   * Returns the channel with the given exact numerators over one common denominator (each row
   * must sum to it exactly).
   *
   * @throws IllegalArgumentException if a row does not sum to the denominator, an entry is
   *     negative, the shape does not match the alphabets, or some output has probability zero
   *     under one input and not under another (epsilon would be infinite)
   */
  public static RequantizationChannel of(LloydMaxQuantizer input, LloydMaxQuantizer output, long[][] numerators,
      long denominator) {
    return new RequantizationChannel(input, output, numerators, denominator);
  }

  /**
   * Converts an approximately stochastic double matrix (an LP solution) to an exact channel with
   * denominator 2^60: an output column whose largest entry is below 1e-12 is dropped (zero for
   * every input); every other entry is rounded to the nearest numerator, at least 1; each row is
   * then re-normalised exactly by giving the rounding remainder to its largest entry.
   */
  public static RequantizationChannel fromDoubles(LloydMaxQuantizer input, LloydMaxQuantizer output, double[][] q) {
    Objects.requireNonNull(q, "q");
    int n = input.size();
    int m = output.size();
    if (q.length != n) {
      throw new IllegalArgumentException("need " + n + " rows, got " + q.length);
    }
    long d = 1L << DENOMINATOR_BITS;
    boolean[] used = new boolean[m];
    for (double[] row : q) {
      if (row.length != m) {
        throw new IllegalArgumentException("every row needs " + m + " entries");
      }
      for (int j = 0; j < m; j++) {
        if (!Double.isFinite(row[j])) {
          throw new IllegalArgumentException("the matrix holds a non-finite entry");
        }
        used[j] |= row[j] >= 1e-12;
      }
    }
    long[][] num = new long[n][m];
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = 0; j < m; j++) {
        s += used[j] ? Math.max(q[i][j], 0) : 0;
      }
      if (!(s > 0)) {
        throw new IllegalArgumentException("row " + i + " has no mass");
      }
      long total = 0;
      int largest = -1;
      for (int j = 0; j < m; j++) {
        if (used[j]) {
          num[i][j] = Math.max(1, Math.round(Math.max(q[i][j], 0) / s * d));
          total += num[i][j];
          if (largest < 0 || num[i][j] > num[i][largest]) {
            largest = j;
          }
        }
      }
      num[i][largest] += d - total;
    }
    return new RequantizationChannel(input, output, num, d);
  }

  /** Returns the input alphabet X (the sensor's quantizer). */
  public LloydMaxQuantizer input() {
    return input;
  }

  /** Returns the output alphabet X-hat. */
  public LloydMaxQuantizer output() {
    return output;
  }

  /** Returns the number of inputs |X|. */
  public int inputSize() {
    return numerators.length;
  }

  /** Returns the number of outputs |X-hat|. */
  public int outputSize() {
    return output.size();
  }

  /** Returns the common denominator. */
  public long denominator() {
    return denominator;
  }

  /** Returns the numerator of Q(j | i). */
  public long numerator(int i, int j) {
    return numerators[i][j];
  }

  /** Returns Q(j | i) exactly. */
  public Rational probability(int i, int j) {
    return Rational.of(numerators[i][j], denominator);
  }

  /** Returns Q as doubles (for reports and estimates). */
  public double[][] toDoubles() {
    double[][] q = new double[numerators.length][output.size()];
    for (int i = 0; i < q.length; i++) {
      for (int j = 0; j < q[i].length; j++) {
        q[i][j] = (double) numerators[i][j] / denominator;
      }
    }
    return q;
  }

  /**
   * Returns e^epsilon exactly: the largest ratio Q(j|x) / Q(j|x~) over all inputs and outputs
   * (Eq. (1)); outputs that no input reaches do not count.
   */
  public Rational maxRatio() {
    return maxRatio;
  }

  /**
   * Returns the epsilon the exact matrix guarantees, ln({@link #maxRatio}), as a double that is
   * never below the true value: the logarithm is taken of an upper bound on the ratio (log1p of
   * the excess for ratios up to 2, so that ratios like 1 + 2^-60 keep their size), and the result
   * is moved two doubles upward to cover the logarithm's error of at most one ulp. The residual
   * is one-sided: the reported value exceeds the true epsilon by at most about eight ulps
   * (relative 2e-15), and is 0 exactly when the ratio is 1.
   */
  public double epsilon() {
    return lnUpperBound(maxRatio.numerator(), maxRatio.denominator());
  }

  /** Returns a double >= ln(n/d) for integers n >= d > 0, within about eight ulps of it. */
  static double lnUpperBound(BigInteger n, BigInteger d) {
    if (d.signum() <= 0 || n.compareTo(d) < 0) {
      throw new IllegalArgumentException("need n >= d > 0, got " + n + "/" + d);
    }
    if (n.equals(d)) {
      return 0.0;
    }
    BigInteger excess = n.subtract(d);
    double ln = excess.compareTo(d) <= 0
        ? Math.log1p(quotientUp(excess, d)) // ratio in (1, 2]: ln(1 + x), x in (0, 1]
        : Math.log(quotientUp(n, d));
    return Math.nextUp(Math.nextUp(ln));
  }

  /** Returns a double >= a/b (a > 0, b > 0): a 63-bit ceiling quotient, then two steps up. */
  private static double quotientUp(BigInteger a, BigInteger b) {
    int shift = a.bitLength() - b.bitLength() - 62;
    BigInteger[] qr = shift >= 0 ? a.divideAndRemainder(b.shiftLeft(shift)) : a.shiftLeft(-shift).divideAndRemainder(b);
    BigInteger q = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
    // q.doubleValue() and the scaling each round to nearest, at most half an ulp down
    return Math.nextUp(Math.nextUp(Math.scalb(q.doubleValue(), shift)));
  }

  /**
   * Returns the expected distortion E[(x - x-hat)^2] under input distribution {@code p} (Eq. (5)
   * with squared error), in doubles.
   */
  public double distortion(double[] p) {
    if (p.length != numerators.length) {
      throw new IllegalArgumentException("pmf has length " + p.length + ", expected " + numerators.length);
    }
    double s = 0;
    for (int i = 0; i < p.length; i++) {
      for (int j = 0; j < output.size(); j++) {
        double e = input.level(i) - output.level(j);
        s += p[i] * ((double) numerators[i][j] / denominator) * e * e;
      }
    }
    return s;
  }

  /** Returns the worst-case expected squared-error distortion over the family (Eq. (12)). */
  public double worstCaseDistortion(DistributionFamily family) {
    double w = 0;
    for (double[] p : family.pmfs()) {
      w = Math.max(w, distortion(p));
    }
    return w;
  }

  /**
   * Samples an output index for input index {@code i} exactly: one uniform integer in [0,
   * denominator) from {@code rnd}, located among the row's cumulative numerators.
   */
  public int sample(int i, RandomSource rnd) {
    Objects.requireNonNull(rnd, "rnd");
    if (i < 0 || i >= numerators.length) {
      throw new IllegalArgumentException("input index must be in [0, " + numerators.length + "), got " + i);
    }
    long u = Uniforms.below(denominator, rnd);
    long[] row = numerators[i];
    long c = 0;
    for (int j = 0; j < row.length; j++) {
      c += row[j];
      if (u < c) {
        return j;
      }
    }
    throw new IllegalStateException("row " + i + " does not sum to the denominator");
  }

  /** Quantizes a reading to its input cell, then samples the channel: the client's randomizer. */
  public int randomize(double reading, RandomSource rnd) {
    return sample(input.index(reading), rnd);
  }

  private static Rational computeMaxRatio(long[][] num) {
    Rational best = Rational.ONE;
    int m = num[0].length;
    for (int j = 0; j < m; j++) {
      long lo = Long.MAX_VALUE;
      long hi = 0;
      for (long[] row : num) {
        lo = Math.min(lo, row[j]);
        hi = Math.max(hi, row[j]);
      }
      if (hi == 0) {
        continue;
      }
      if (lo == 0) {
        throw new IllegalArgumentException("output " + j + " has probability 0 under some input and not under another: epsilon would be infinite");
      }
      Rational r = Rational.of(BigInteger.valueOf(hi), BigInteger.valueOf(lo));
      if (r.compareTo(best) > 0) {
        best = r;
      }
    }
    return best;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RequantizationChannel c && c.denominator == denominator && input.equals(c.input)
        && output.equals(c.output) && Arrays.deepEquals(numerators, c.numerators);
  }

  @Override
  public int hashCode() {
    return Objects.hash(input, output, denominator, Arrays.deepHashCode(numerators));
  }

  @Override
  public String toString() {
    return "RequantizationChannel[" + numerators.length + "x" + output.size() + ", e^epsilon=" + maxRatio + "]";
  }
}
