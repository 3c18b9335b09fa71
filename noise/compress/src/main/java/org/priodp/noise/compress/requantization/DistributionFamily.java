package org.priodp.noise.compress.requantization;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.hipparchus.special.Erf;

/**
 * A finite family of input distributions P over the input levels (requantization paper, Sec. 2,
 * the set script-P of Eq. (6)): the channel designer bounds the expected distortion for every
 * member. Each member is a PMF over the input cells with a label for reports.
 *
 * <p>Doubles are fine here: the family is public design data, not a privacy parameter.
 *
 * @param pmfs the members, each non-negative with sum 1 (within 1e-9), all of the same length
 * @param labels one label per member
 */
public record DistributionFamily(List<double[]> pmfs, List<String> labels) {

  /** Validates and copies the members (at least one, same length, PMFs within 1e-9). */
  public DistributionFamily {
    Objects.requireNonNull(pmfs, "pmfs");
    Objects.requireNonNull(labels, "labels");
    if (pmfs.isEmpty()) {
      throw new IllegalArgumentException("a family needs at least one distribution");
    }
    if (labels.size() != pmfs.size()) {
      throw new IllegalArgumentException("need one label per distribution: " + labels.size() + " != " + pmfs.size());
    }
    int n = Objects.requireNonNull(pmfs.get(0), "pmf 0").length;
    List<double[]> copy = new ArrayList<>(pmfs.size());
    for (int k = 0; k < pmfs.size(); k++) {
      double[] p = Objects.requireNonNull(pmfs.get(k), "pmf " + k).clone();
      if (p.length != n || n == 0) {
        throw new IllegalArgumentException("pmf " + k + " has length " + p.length + ", expected " + n + " > 0");
      }
      double s = 0;
      for (double v : p) {
        if (!(v >= 0) || Double.isInfinite(v)) {
          throw new IllegalArgumentException("pmf " + k + " holds " + v + ", not a probability");
        }
        s += v;
      }
      if (Math.abs(s - 1) > 1e-9) {
        throw new IllegalArgumentException("pmf " + k + " sums to " + s + ", not 1");
      }
      copy.add(p);
    }
    pmfs = Collections.unmodifiableList(copy);
    labels = List.copyOf(labels);
  }

  /** Returns a family of the given PMFs, labelled by their index. */
  public static DistributionFamily of(List<double[]> pmfs) {
    List<String> labels = new ArrayList<>();
    for (int k = 0; k < pmfs.size(); k++) {
      labels.add("P" + k);
    }
    return new DistributionFamily(pmfs, labels);
  }

  /**
   * Returns the paper's family (Sec. 4): Gaussians N(mu, sigma), sigma the standard deviation,
   * for mu on the grid muLo, muLo + step, ..., muHi and likewise sigma, each discretized over the
   * input quantizer's cells (the outer cells extend to infinity). The grid always includes both
   * end points.
   *
   * @throws IllegalArgumentException if a range is empty or reversed, sigma is not > 0, or the step
   *     is not > 0 or gives more than 100,000 members
   */
  public static DistributionFamily gaussianGrid(LloydMaxQuantizer input, double muLo, double muHi,
      double sigmaLo, double sigmaHi, double step) {
    Objects.requireNonNull(input, "input");
    if (!(Double.isFinite(muLo) && Double.isFinite(muHi) && muLo <= muHi)) {
      throw new IllegalArgumentException("mu range must be finite with lo <= hi, got " + muLo + ":" + muHi);
    }
    if (!(sigmaLo > 0 && Double.isFinite(sigmaHi) && sigmaLo <= sigmaHi)) {
      throw new IllegalArgumentException("sigma range must be finite with 0 < lo <= hi, got " + sigmaLo + ":" + sigmaHi);
    }
    if (!(step > 0) || Double.isInfinite(step)) {
      throw new IllegalArgumentException("grid step must be > 0, got " + step);
    }
    double[] mus = grid(muLo, muHi, step);
    double[] sigmas = grid(sigmaLo, sigmaHi, step);
    if ((long) mus.length * sigmas.length > 100_000) {
      throw new IllegalArgumentException("grid step " + step + " gives more than 100,000 distributions");
    }
    double[] t = input.thresholds();
    List<double[]> pmfs = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (double mu : mus) {
      for (double sigma : sigmas) {
        pmfs.add(discretizedGaussian(t, mu, sigma));
        labels.add("N(" + mu + ", " + sigma + ")");
      }
    }
    return new DistributionFamily(pmfs, labels);
  }

  /**
   * Returns N(mu, sigma) discretized over the cells defined by the thresholds: cell i holds the
   * mass between threshold i - 1 and threshold i (erf differences, accurate in the tails).
   */
  public static double[] discretizedGaussian(double[] thresholds, double mu, double sigma) {
    int n = thresholds.length + 1;
    double[] p = new double[n];
    double s = 0;
    for (int i = 0; i < n; i++) {
      double a = i == 0 ? -40 : Math.max(-40, (thresholds[i - 1] - mu) / (sigma * Math.sqrt(2)));
      double b = i == n - 1 ? 40 : Math.min(40, (thresholds[i] - mu) / (sigma * Math.sqrt(2)));
      p[i] = b > a ? 0.5 * Erf.erf(a, b) : 0;
      s += p[i];
    }
    for (int i = 0; i < n; i++) {
      p[i] /= s;
    }
    return p;
  }

  /** Returns the number of members. */
  public int size() {
    return pmfs.size();
  }

  /** Returns the number of input levels each member is over. */
  public int inputSize() {
    return pmfs.get(0).length;
  }

  /** Returns a copy of member {@code k}. */
  public double[] pmf(int k) {
    return pmfs.get(k).clone();
  }

  private static double[] grid(double lo, double hi, double step) {
    long count = (long) Math.floor((hi - lo) / step + 1e-9) + 1;
    if (count > 100_000) {
      throw new IllegalArgumentException("grid step " + step + " gives more than 100,000 points");
    }
    List<Double> v = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      v.add(lo + i * step);
    }
    if (hi - v.get(v.size() - 1) > 1e-9 * Math.max(1, Math.abs(hi))) {
      v.add(hi);
    } else {
      v.set(v.size() - 1, hi);
    }
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
