package org.priodp.noise.compress.requantization;

import java.util.Objects;
import org.hipparchus.exception.MathIllegalArgumentException;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.DecompositionSolver;
import org.hipparchus.linear.LUDecomposition;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.SingularValueDecomposition;

/**
 * The collector's estimates from a histogram of requantized outputs (requantization paper, Sec.
 * 4, estimating the mean of the users' readings): the mean of the input levels and, when the
 * channel matrix is square and invertible, the input distribution, each with a plug-in variance.
 *
 * <p>Every estimate is a linear statistic sum_j count_j w_j / n with output weights w. For the
 * mean, w is the minimum-norm least-squares solution of Q w = c (c the input levels, by the SVD
 * pseudo-inverse): when c is in the range of Q (always when Q is invertible) the estimate is
 * unbiased for the mean of the quantized readings, up to rounding; otherwise its bias is at most
 * {@link Estimate#biasBound()} = max_x |(Q w)_x - c_x| whatever the inputs. For the distribution,
 * w is a column of Q^-1. The variance is that of the randomization given the users' readings:
 * sum_u Var(w_J | x_u) / n^2 = sum_u (E[w_J^2 | x_u] - (Q w)_{x_u}^2) / n^2, estimated without
 * bias (when Q is invertible) by sum_j count_j (w_j^2 - v_j) / n^2 with Q v = (Q w)^2, clipped at
 * zero; plus the central noise's variance times sum_j w_j^2 / n^2. Doubles throughout: these are
 * estimates for people.
 */
public final class RequantizationEstimator {

  private final RequantizationChannel channel;
  private final DecompositionSolver pseudoInverse;
  private final RealMatrix q;
  private final double[] meanWeights;
  private final double[] meanSquareWeights;
  private final double meanBias;

  private RequantizationEstimator(RequantizationChannel channel) {
    this.channel = channel;
    this.q = new Array2DRowRealMatrix(channel.toDoubles(), false);
    double[] c = channel.input().levels();
    this.pseudoInverse = new SingularValueDecomposition(q).getSolver();
    double[] w = pseudoInverse.solve(new ArrayRealVector(c, false)).toArray();
    this.meanSquareWeights = squareWeights(w);
    double[] qw = q.operate(w);
    double bias = 0;
    for (int i = 0; i < c.length; i++) {
      bias = Math.max(bias, Math.abs(qw[i] - c[i]));
    }
    this.meanWeights = w;
    this.meanBias = bias;
  }

  /**
   * Returns the estimator for {@code channel}.
   *
   * <p>A channel with epsilon = 0 carries no information: its bias bound is then the spread of
   * the input levels around their least-squares fit.
   */
  public static RequantizationEstimator of(RequantizationChannel channel) {
    return new RequantizationEstimator(Objects.requireNonNull(channel, "channel"));
  }

  /**
   * An estimate with its variance and the largest possible bias.
   *
   * @param value the estimate
   * @param variance its estimated variance
   * @param biasBound an upper bound on |E[value] - truth| (0 when unbiased)
   */
  public record Estimate(double value, double variance, double biasBound) {
    /** Validates that the variance and bias bound are >= 0. */
    public Estimate {
      if (!(variance >= 0) || !(biasBound >= 0)) {
        throw new IllegalArgumentException("variance and bias bound must be >= 0, got " + variance + ", " + biasBound);
      }
    }

    /** Returns the standard deviation. */
    public double standardDeviation() {
      return Math.sqrt(variance);
    }
  }

  /** Returns a copy of the output weights of the mean estimator. */
  public double[] meanWeights() {
    return meanWeights.clone();
  }

  /**
   * Estimates the mean of the n users' quantized readings from the output histogram.
   *
   * @param counts one count per output (may be non-integral or negative after central noise)
   * @param n the number of reports
   * @param centralVariance per-coordinate variance of central noise in the counts (0 if none)
   */
  public Estimate mean(double[] counts, long n, double centralVariance) {
    return linear(counts, n, centralVariance, meanWeights, meanSquareWeights, meanBias);
  }

  /**
   * Estimates the input distribution (the fraction of users in each input cell) by inverting the
   * channel, when it is square and invertible.
   *
   * @throws IllegalArgumentException if the channel is not square or is singular
   */
  public Estimate[] distribution(double[] counts, long n, double centralVariance) {
    if (channel.inputSize() != channel.outputSize()) {
      throw new IllegalArgumentException("the input distribution is identifiable only when |X-hat| = |X|, got "
          + channel.outputSize() + " < " + channel.inputSize());
    }
    RealMatrix inv;
    try {
      inv = new LUDecomposition(new Array2DRowRealMatrix(channel.toDoubles(), false), 1e-13).getSolver().getInverse();
    } catch (MathIllegalArgumentException e) {
      throw new IllegalArgumentException("the channel matrix is singular: the input distribution is not identifiable", e);
    }
    Estimate[] out = new Estimate[channel.inputSize()];
    for (int i = 0; i < out.length; i++) {
      double[] w = inv.getColumn(i);
      out[i] = linear(counts, n, centralVariance, w, w, 0.0); // (Q w)^2 = e_i, and Q^-1 e_i = w

    }
    return out;
  }

  /** Returns v with Q v = (Q w)^2 entrywise (least squares): sum_j count_j v_j estimates sum_u (Q w)_{x_u}^2. */
  private double[] squareWeights(double[] w) {
    double[] qw = q.operate(w);
    for (int i = 0; i < qw.length; i++) {
      qw[i] *= qw[i];
    }
    return pseudoInverse.solve(new ArrayRealVector(qw, false)).toArray();
  }

  private Estimate linear(double[] counts, long n, double centralVariance, double[] w, double[] v, double bias) {
    Objects.requireNonNull(counts, "counts");
    if (counts.length != channel.outputSize()) {
      throw new IllegalArgumentException("expected " + channel.outputSize() + " counts, got " + counts.length);
    }
    if (n < 1) {
      throw new IllegalArgumentException("need at least one report, got n = " + n);
    }
    if (!(centralVariance >= 0) || Double.isInfinite(centralVariance)) {
      throw new IllegalArgumentException("central variance must be finite and >= 0, got " + centralVariance);
    }
    double s = 0;
    double conditional = 0;
    double ww = 0;
    for (int j = 0; j < w.length; j++) {
      if (!Double.isFinite(counts[j])) {
        throw new IllegalArgumentException("count " + j + " is not finite");
      }
      s += counts[j] * w[j];
      conditional += counts[j] * (w[j] * w[j] - v[j]);
      ww += w[j] * w[j];
    }
    double est = s / n;
    double nn = (double) n * n;
    double var = Math.max(0, conditional) / nn + centralVariance * ww / nn;
    return new Estimate(est, var, bias);
  }
}
