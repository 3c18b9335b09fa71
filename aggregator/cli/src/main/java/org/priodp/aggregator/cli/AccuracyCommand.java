package org.priodp.aggregator.cli;

import java.io.PrintWriter;
import org.priodp.noise.Accuracy;
import org.priodp.noise.Budget;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.GridLaplace;
import org.priodp.noise.Rational;
import org.priodp.noise.local.KaryRandomizedResponse;
import org.priodp.noise.local.LocalEstimator;
import org.priodp.noise.local.RandomizedResponse;
import org.priodp.noise.local.SymmetricRappor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Prints the error a user should expect from a mechanism, for one report and for the aggregate
 * of N (lecture, Theorems 5, 9 and 12). Figures for people, in double precision.
 */
@Command(
    name = "accuracy",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the error to expect from a mechanism, for one report and for N.",
      "",
      "The standard deviation and an error bound, for one report and for the aggregate of N;"
          + " figures for people, in double precision.",
      "",
      "rr, krr, rappor: local randomizers (debiased counts and the mean, lecture Theorem 5).",
      "laplace: the lecture's Laplace mechanism (Theorem 12) beside the exact grid version.",
      "discrete-laplace: central noise added by each of two aggregators (integer sensitivity)."
    },
    footer = {"%nExample:", "  prio-dp accuracy --mechanism krr --epsilon 1 --k 4 --n 10000"})
public final class AccuracyCommand implements PrioDpSubcommand {

  @Spec CommandSpec spec;

  @Option(names = "--mechanism", required = true, paramLabel = "MECHANISM",
      description = "rr, krr, rappor, laplace or discrete-laplace.")
  String mechanism;

  @Option(names = "--epsilon", required = true, paramLabel = "EPSILON",
      description = "Epsilon > 0, a decimal or a fraction (e.g. 1, 0.5, 1/2).")
  String epsilon;

  @Option(names = "--k", paramLabel = "K",
      description = "Buckets (krr, rappor) or coordinates (laplace, discrete-laplace) (default: 2 for"
          + " krr and rappor, 1 otherwise).")
  Integer k;

  @Option(names = "--max-weight", paramLabel = "W",
      description = "rappor: largest report weight (default: K, no truncation).")
  Integer maxWeight;

  @Option(names = "--n", defaultValue = "1000", paramLabel = "N", description = "Number of reports.")
  long n;

  @Option(names = "--sensitivity", defaultValue = "1", paramLabel = "S",
      description = "L1 sensitivity (laplace, discrete-laplace).")
  String sensitivity;

  @Option(names = "--delta", defaultValue = "0.05", paramLabel = "DELTA",
      description = "Failure probability of the bound, in (0, 1).")
  double delta;

  @Option(names = "--grid-bits", defaultValue = "10", paramLabel = "B",
      description = "laplace: grid 2^-B of the exact version.")
  int gridBits;

  @Override
  public Integer call() {
    Budget.PureDp budget = Budget.PureDp.parse(epsilon);
    if (n < 1) {
      throw new IllegalArgumentException("--n must be >= 1, got " + n);
    }
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("--delta must be in (0, 1), got " + delta);
    }
    PrintWriter out = spec.commandLine().getOut();
    switch (mechanism) {
      case "rr" -> local(out, "randomized response", RandomizedResponse.of(budget).estimator(), 2);
      case "krr" -> {
        int kk = buckets();
        local(out, kk + "-ary randomized response", KaryRandomizedResponse.of(kk, budget).estimator(), kk);
      }
      case "rappor" -> {
        int kk = buckets();
        SymmetricRappor r = new SymmetricRappor(kk, budget.epsilon(), maxWeight == null ? kk : maxWeight);
        out.printf("max weight %d: one attempt fits with probability %.6g%n", r.maxWeight(), LocalEstimator.rapporAcceptance(r));
        local(out, "symmetric RAPPOR over " + kk + " buckets", r.estimator(), kk);
      }
      case "laplace" -> laplace(out, budget);
      case "discrete-laplace" -> discreteLaplace(out, budget);
      default -> throw new IllegalArgumentException(
          "unknown mechanism '" + mechanism + "' (use rr, krr, rappor, laplace or discrete-laplace)");
    }
    out.flush();
    return 0;
  }

  private int buckets() {
    int kk = k == null ? 2 : k;
    if (kk < 2) {
      throw new IllegalArgumentException("--k must be >= 2 buckets, got " + kk);
    }
    return kk;
  }

  private int coordinates() {
    int d = k == null ? 1 : k;
    if (d < 1) {
      throw new IllegalArgumentException("--k must be >= 1 coordinates, got " + d);
    }
    return d;
  }

  private void local(PrintWriter out, String name, LocalEstimator est, int buckets) {
    out.printf("%s, epsilon %s: P[report j | true j] = %.6f, P[report j | true not j] = %.6f%n", name, epsilon,
        est.a(), est.b());
    out.printf("one report: debiased indicator has standard deviation <= %.4f%n", Math.sqrt(est.countVarianceBound(1, 0)));
    out.printf("aggregate of N = %d: debiased count per %s has standard deviation <= %.2f%n", n,
        buckets == 2 ? "value" : "bucket", Math.sqrt(est.countVarianceBound(n, 0)));
    out.printf("  mean (fraction) standard deviation <= %.5f; |error| <= %.5f with probability >= %s (Chebyshev, lecture Theorem 5)%n",
        Math.sqrt(est.countVarianceBound(n, 0)) / n, est.meanHalfWidth(n, delta), 1 - delta);
  }

  private void laplace(PrintWriter out, Budget.PureDp budget) {
    Rational sens = Rational.parsePositive("--sensitivity", sensitivity);
    int d = coordinates();
    double b = Accuracy.toDouble(sens) / Accuracy.toDouble(budget.epsilon());
    double lecture = Accuracy.lectureLaplaceBound(sens, budget.epsilon(), d, delta);
    out.printf("Laplace mechanism, sensitivity %s, epsilon %s, %d coordinate(s): scale b = %.6g%n", sensitivity, epsilon, d, b);
    out.printf("one release: standard deviation %.6g per coordinate; max |error| <= %.6g with probability >= %s (lecture: ln(d/delta) b)%n",
        Math.sqrt(2) * b, lecture, 1 - delta);
    GridLaplace g = GridLaplace.of(sens, d, gridBits, budget);
    out.printf("exact grid version (grid 2^-%d, grid sensitivity %s): standard deviation %.6g; max |error| <= %.6g with probability >= %s; P[max |error| >= lecture bound] = %.4g%n",
        gridBits, g.gridSensitivity(), Math.sqrt(Accuracy.laplaceVariance(g.noise().scale())) / Math.pow(2, gridBits),
        Accuracy.gridLaplaceHalfWidth(g, delta), 1 - delta, Accuracy.gridLaplaceExceedance(g, lecture));
    out.printf("aggregate of N = %d: a sum query gets the same noise; its mean is off by the above / N (%.6g standard deviation)%n",
        n, Math.sqrt(2) * b / n);
  }

  private void discreteLaplace(PrintWriter out, Budget.PureDp budget) {
    Rational sens = Rational.parsePositive("--sensitivity", sensitivity);
    if (!sens.isInteger()) {
      throw new IllegalArgumentException("discrete-laplace needs an integer --sensitivity, got " + sensitivity);
    }
    int d = coordinates();
    DiscreteLaplace dl = DiscreteLaplace.forBudget(sens.numerator(), budget);
    double perCoordinate = 1 - delta / d;
    out.printf("discrete Laplace, sensitivity %s, epsilon %s: scale %s per aggregator, %d coordinate(s)%n",
        sensitivity, epsilon, dl.scale(), d);
    out.printf("one aggregator's noise: standard deviation %.4f; |noise| <= %d per coordinate, all coordinates with probability >= %s%n",
        Math.sqrt(Accuracy.laplaceVariance(dl.scale())), Accuracy.laplaceHalfWidth(dl.scale(), 1, perCoordinate), 1 - delta);
    out.printf("aggregate of N = %d (two aggregators' noise): count standard deviation %.4f; |error| <= %d per coordinate, all with probability >= %s; mean error <= %.6g%n",
        n, Math.sqrt(2 * Accuracy.laplaceVariance(dl.scale())), Accuracy.laplaceHalfWidth(dl.scale(), 2, perCoordinate), 1 - delta,
        Accuracy.laplaceHalfWidth(dl.scale(), 2, perCoordinate).doubleValue() / n);
  }
}
