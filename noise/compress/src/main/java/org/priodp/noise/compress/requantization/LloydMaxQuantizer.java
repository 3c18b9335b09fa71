package org.priodp.noise.compress.requantization;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.DoubleUnaryOperator;

/**
 * A scalar quantizer designed by the Lloyd-Max algorithm (requantization paper, Sec. 3, refs.
 * [16, 17]) from public data: reconstruction levels in increasing order and the decision
 * thresholds between them (midpoints of adjacent levels, the nearest-neighbour rule).
 *
 * <p>Used on public data only (a sample or a density), so the doubles here never touch a private
 * value; the levels are the alphabets X and X-hat of the requantization channel. Residual error:
 * the algorithm stops when no level moves by more than 1e-12 times the data range, or after
 * 10,000 iterations; a density is integrated on a grid of 200,001 points (midpoint rule).
 *
 * @param levels the reconstruction levels, strictly increasing, finite
 */
public record LloydMaxQuantizer(double[] levels) {

  private static final int MAX_ITERATIONS = 10_000;
  private static final int DENSITY_GRID = 200_001;

  /** Validates and copies the levels (at least one, finite, strictly increasing). */
  public LloydMaxQuantizer {
    Objects.requireNonNull(levels, "levels");
    if (levels.length == 0) {
      throw new IllegalArgumentException("a quantizer needs at least one level");
    }
    levels = levels.clone();
    for (int i = 0; i < levels.length; i++) {
      if (!Double.isFinite(levels[i])) {
        throw new IllegalArgumentException("level " + i + " is not finite: " + levels[i]);
      }
      if (i > 0 && !(levels[i] > levels[i - 1])) {
        throw new IllegalArgumentException("levels must be strictly increasing at index " + i);
      }
    }
  }

  /** Returns a quantizer with the given levels (same as the constructor). */
  public static LloydMaxQuantizer of(double... levels) {
    return new LloydMaxQuantizer(levels);
  }

  /**
   * Designs a quantizer with {@code count} levels from a public sample by the Lloyd-Max
   * iteration (nearest-neighbour cells, centroid levels), started from the sample quantiles.
   *
   * @throws IllegalArgumentException if the sample has fewer than {@code count} distinct finite
   *     values or {@code count < 1}
   */
  public static LloydMaxQuantizer fromSample(double[] sample, int count) {
    Objects.requireNonNull(sample, "sample");
    double[] x = sample.clone();
    for (double v : x) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException("the sample holds a non-finite value: " + v);
      }
    }
    Arrays.sort(x);
    double[] w = new double[x.length];
    Arrays.fill(w, 1.0);
    return design(x, w, count);
  }

  /**
   * Designs a quantizer with {@code count} levels from a public density on [lo, hi] (not
   * necessarily normalised), integrated on a fine grid, by the Lloyd-Max iteration.
   *
   * @throws IllegalArgumentException if the interval is empty, the density is negative or not
   *     finite somewhere, or it has too little mass to place {@code count} levels
   */
  public static LloydMaxQuantizer fromDensity(DoubleUnaryOperator density, double lo, double hi, int count) {
    Objects.requireNonNull(density, "density");
    if (!(Double.isFinite(lo) && Double.isFinite(hi) && lo < hi)) {
      throw new IllegalArgumentException("the density's interval must be finite with lo < hi, got [" + lo + ", " + hi + "]");
    }
    double h = (hi - lo) / DENSITY_GRID;
    double[] x = new double[DENSITY_GRID];
    double[] w = new double[DENSITY_GRID];
    for (int i = 0; i < DENSITY_GRID; i++) {
      x[i] = lo + (i + 0.5) * h;
      double f = density.applyAsDouble(x[i]);
      if (!(f >= 0) || Double.isInfinite(f)) {
        throw new IllegalArgumentException("the density must be finite and >= 0, got " + f + " at " + x[i]);
      }
      w[i] = f * h;
    }
    return design(x, w, count);
  }

  /** Returns a Gaussian density N(mu, sigma) (sigma the standard deviation), for {@link #fromDensity}. */
  public static DoubleUnaryOperator gaussianDensity(double mu, double sigma) {
    if (!Double.isFinite(mu) || !(sigma > 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("need finite mu and sigma > 0, got " + mu + ", " + sigma);
    }
    return v -> Math.exp(-0.5 * ((v - mu) / sigma) * ((v - mu) / sigma)) / (sigma * Math.sqrt(2 * Math.PI));
  }

  /** Returns the number of levels. */
  public int size() {
    return levels.length;
  }

  /** Returns level {@code i}. */
  public double level(int i) {
    return levels[i];
  }

  /** Returns a copy of the levels. */
  @Override
  public double[] levels() {
    return levels.clone();
  }

  /**
   * Returns the decision thresholds: {@code size() - 1} midpoints, threshold i separating cells i
   * and i + 1 (cell 0 extends to minus infinity, the last cell to plus infinity).
   */
  public double[] thresholds() {
    double[] t = new double[levels.length - 1];
    for (int i = 0; i < t.length; i++) {
      t[i] = 0.5 * (levels[i] + levels[i + 1]);
    }
    return t;
  }

  /** Returns the index of the cell holding {@code value} (ties go to the upper cell). */
  public int index(double value) {
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException("cannot quantize NaN");
    }
    int lo = 0;
    int hi = levels.length - 1;
    while (lo < hi) { // first i with value < threshold(i), thresholds increasing
      int mid = (lo + hi) >>> 1;
      if (value < 0.5 * (levels[mid] + levels[mid + 1])) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** Returns the reconstruction level of {@code value}'s cell. */
  public double quantize(double value) {
    return levels[index(value)];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LloydMaxQuantizer q && Arrays.equals(levels, q.levels);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(levels);
  }

  @Override
  public String toString() {
    return "LloydMaxQuantizer" + Arrays.toString(levels);
  }

  /** Lloyd-Max on sorted weighted points: prefix sums make each iteration O(count log n). */
  private static LloydMaxQuantizer design(double[] x, double[] w, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("need at least one level, got " + count);
    }
    int n = x.length;
    double[] cw = new double[n + 1];
    double[] cwx = new double[n + 1];
    for (int i = 0; i < n; i++) {
      cw[i + 1] = cw[i] + w[i];
      cwx[i + 1] = cwx[i] + w[i] * x[i];
    }
    double total = cw[n];
    if (!(total > 0)) {
      throw new IllegalArgumentException("the data have no mass");
    }
    long distinct = n == 0 ? 0 : 1 + java.util.stream.IntStream.range(1, n).filter(i -> x[i] != x[i - 1] && w[i] > 0).count();
    if (distinct < count) {
      throw new IllegalArgumentException("need at least " + count + " distinct values to place " + count + " levels, got " + distinct);
    }
    double[] lv = new double[count];
    for (int k = 0; k < count; k++) { // start at the weighted quantiles (k + 0.5) / count
      int i = firstAtLeast(cw, total * (k + 0.5) / count);
      lv[k] = x[Math.min(n - 1, Math.max(0, i - 1))];
    }
    spread(lv, x[0], x[n - 1]);
    double scale = Math.max(x[n - 1] - x[0], Double.MIN_NORMAL);
    for (int it = 0; it < MAX_ITERATIONS; it++) {
      double moved = 0;
      int start = 0;
      double[] next = new double[count];
      for (int k = 0; k < count; k++) {
        int end = k == count - 1 ? n : firstAbove(x, 0.5 * (lv[k] + lv[k + 1]));
        end = Math.max(end, start);
        double m = cw[end] - cw[start];
        next[k] = m > 0 ? (cwx[end] - cwx[start]) / m : lv[k];
        start = end;
      }
      spread(next, x[0], x[n - 1]);
      for (int k = 0; k < count; k++) {
        moved = Math.max(moved, Math.abs(next[k] - lv[k]));
      }
      lv = next;
      if (moved <= 1e-12 * scale) {
        break;
      }
    }
    return new LloydMaxQuantizer(lv);
  }

  /** Makes the levels strictly increasing (ties from empty or duplicated cells get nudged apart). */
  private static void spread(double[] lv, double lo, double hi) {
    double gap = Math.max((hi - lo) * 1e-9, Math.ulp(Math.max(Math.abs(lo), Math.abs(hi))) * 4);
    for (int k = 1; k < lv.length; k++) {
      if (!(lv[k] > lv[k - 1])) {
        lv[k] = lv[k - 1] + gap;
      }
    }
  }

  private static int firstAtLeast(double[] sorted, double v) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static int firstAbove(double[] sorted, double v) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
