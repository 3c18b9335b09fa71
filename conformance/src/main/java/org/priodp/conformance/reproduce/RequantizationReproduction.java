package org.priodp.conformance.reproduce;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.requantization.DistributionFamily;
import org.priodp.noise.compress.requantization.LloydMaxQuantizer;
import org.priodp.noise.compress.requantization.RequantizationChannel;
import org.priodp.noise.compress.requantization.RequantizationDesign;
import org.priodp.noise.compress.requantization.RequantizationDesigner;
import org.priodp.noise.compress.requantization.RequantizationEstimator;

/**
 * Reproduces Figs. 1 and 2 of the randomized requantization paper (Sec. 4): R = 4 input bits,
 * Lloyd-Max levels from the public density N(10, 2) (2 the standard deviation), the family
 * N(mu, sigma) for mu in [8, 12], sigma in [1, 3] on a 0.25 grid (153 members), output alphabets
 * of 4, 3, 2 and 1 bits (compression ratios 1, 0.75, 0.5, 0.25).
 *
 * <p>Fig. 1: the minimum epsilon (exactly guaranteed by the deployed rational channel) against the
 * distortion bound delta, by bisection with one LP per step. Fig. 2a-d: for each ratio, the MSE
 * between the quantized coefficient and its release against epsilon, for the LP channel at that
 * epsilon (minimum worst-case distortion) and for Laplace-perturb-then-quantize at the same output
 * rate (Laplace with scale (max level - min level) / epsilon added to the quantized coefficient,
 * then the output quantizer: epsilon-LDP by post-processing); 15 coefficients from N(10, 2) per
 * signal. Fig. 2e-f: epsilon = 1, rho = 0.5, N = 1..20 users with independent realizations: the
 * MSE of the sum of the releases against the sum of the quantized coefficients, and of their mean
 * against mu = 10 (the CSV also has the collector's pseudo-inverse "debiased" mean estimate, which
 * at this ill-conditioned 16 x 4 channel has a far larger MSE and is therefore not plotted).
 *
 * <p>The paper's figures have no numeric axes in our copy; the comparison is qualitative (who is
 * lower, how the curves move). MSEs are simulated with the exact channel sampler and a fixed seed.
 */
public final class RequantizationReproduction {

  /** Input bits R. */
  public static final int BITS_IN = 4;

  /** Output bits for ratios 1, 0.75, 0.5, 0.25. */
  public static final int[] BITS_OUT = {4, 3, 2, 1};

  /**
   * Sizes of a run.
   *
   * @param deltas the distortion bounds of Fig. 1
   * @param epsilons the epsilons of Fig. 2a-d
   * @param signals signals of 15 coefficients per point of Fig. 2a-d
   * @param trials repetitions per N in Fig. 2e-f
   * @param maxUsers the largest N in Fig. 2e-f (the paper: 20)
   */
  public record Settings(double[] deltas, double[] epsilons, int signals, int trials, int maxUsers) {
    /** Validates the sizes. */
    public Settings {
      if (deltas.length == 0 || epsilons.length == 0 || signals < 1 || trials < 2 || maxUsers < 1) {
        throw new IllegalArgumentException("settings too small");
      }
      deltas = deltas.clone();
      epsilons = epsilons.clone();
    }

    /** The paper-sized run. */
    public static Settings paper() {
      double[] deltas = new double[52];
      for (int i = 0; i < deltas.length; i++) {
        deltas[i] = 0.25 * (i + 1);
      }
      double[] eps = new double[24];
      for (int i = 0; i < eps.length; i++) {
        eps[i] = 0.25 * (i + 1);
      }
      return new Settings(deltas, eps, 400, 400, 20);
    }
  }

  /** The paper's setup: alphabets and family, shared by the benchmark. */
  public record Setup(LloydMaxQuantizer input, List<LloydMaxQuantizer> outputs, DistributionFamily family) {
    /** Builds the setup of Sec. 4. */
    public static Setup paper() {
      var density = LloydMaxQuantizer.gaussianDensity(10, 2);
      LloydMaxQuantizer in = LloydMaxQuantizer.fromDensity(density, 10 - 24, 10 + 24, 1 << BITS_IN);
      List<LloydMaxQuantizer> outs = new ArrayList<>();
      for (int b : BITS_OUT) {
        outs.add(LloydMaxQuantizer.fromDensity(density, 10 - 24, 10 + 24, 1 << b));
      }
      return new Setup(in, List.copyOf(outs), DistributionFamily.gaussianGrid(in, 8, 12, 1, 3, 0.25));
    }

    /** Returns the designer for output index k (ratio BITS_OUT[k] / BITS_IN). */
    public RequantizationDesigner designer(int k) {
      return RequantizationDesigner.of(input, outputs.get(k), family);
    }
  }

  private RequantizationReproduction() {}

  /** Runs the paper-sized reproduction into {@code outDir}; returns the files written. */
  public static List<Path> run(Path outDir, PrintWriter progress, long seed) throws IOException {
    return run(outDir, progress, seed, Settings.paper());
  }

  /** Runs the reproduction with the given sizes; returns the PNG and CSV files written. */
  public static List<Path> run(Path outDir, PrintWriter progress, long seed, Settings s) throws IOException {
    Files.createDirectories(outDir);
    Setup setup = Setup.paper();
    List<Path> files = new ArrayList<>();
    files.addAll(figure1(outDir, progress, setup, s));
    files.addAll(figure2(outDir, progress, setup, s, seed));
    files.addAll(figure2ef(outDir, progress, setup, s, seed));
    progress.flush();
    return files;
  }

  private static RandomSource source(long seed, int stream) {
    return RandomSource.seeded(ByteBuffer.allocate(12).putLong(seed).putInt(stream).array());
  }

  // ------------------------------------------------------------------ Fig. 1

  private static List<Path> figure1(Path dir, PrintWriter progress, Setup setup, Settings s) throws IOException {
    StringBuilder csv = new StringBuilder("ratio,bits_out,delta,target_epsilon,epsilon,exp_epsilon,worst_case_distortion,lp_solves\n");
    XYChart chart = new XYChartBuilder().width(800).height(600)
        .title("Min epsilon vs distortion bound, R = 4 (cf. requantization paper Fig. 1)")
        .xAxisTitle("distortion bound delta (worst-case MSE over the family)").yAxisTitle("minimum epsilon (exact channel)").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    long t0 = System.nanoTime();
    for (int k = 0; k < BITS_OUT.length; k++) {
      RequantizationDesigner d = setup.designer(k);
      double ratio = (double) BITS_OUT[k] / BITS_IN;
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      List<RequantizationDesign> designs = d.designAll(s.deltas());
      for (int i = 0; i < designs.size(); i++) {
        RequantizationDesign r = designs.get(i);
        if (r == null) { // infeasible: delta at or too close above the smallest achievable distortion
          continue;
        }
        double delta = s.deltas()[i];
        csv.append(String.format(Locale.ROOT, "%.2f,%d,%.4f,%.6f,%.6f,%s,%.6f,%d%n", ratio, BITS_OUT[k], delta,
            r.targetEpsilon(), r.guaranteedEpsilon(), r.channel().maxRatio(), r.channelDistortion(), r.lpSolves()));
        xs.add(delta);
        ys.add(r.guaranteedEpsilon());
      }
      progress.printf(Locale.ROOT, "Fig. 1: ratio %.2f: %d points (smallest delta %.4f)%n", ratio, xs.size(), d.minimumDistortion());
      progress.flush();
      XYSeries series = chart.addSeries("rho = " + ratio, xs, ys);
      series.setMarker(SeriesMarkers.NONE);
    }
    progress.printf(Locale.ROOT, "Fig. 1: designed in %.1f s%n", (System.nanoTime() - t0) / 1e9);
    Path png = dir.resolve("requantization-fig1.png");
    Path out = dir.resolve("requantization-fig1.csv");
    Files.writeString(out, csv);
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    return List.of(png, out);
  }

  // ------------------------------------------------------------------ Fig. 2a-d

  /** Laplace(scale) from 53-bit uniforms of the seeded source (baseline only; doubles). */
  private static double laplace(double scale, RandomSource rnd) {
    double u = ((rnd.nextBits(53) + 0.5) / (1L << 53)) - 0.5;
    return -scale * Math.signum(u) * Math.log1p(-2 * Math.abs(u));
  }

  private static double gaussian(RandomSource rnd) {
    double u1 = (rnd.nextBits(53) + 0.5) / (1L << 53);
    double u2 = (rnd.nextBits(53) + 0.5) / (1L << 53);
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  private static List<Path> figure2(Path dir, PrintWriter progress, Setup setup, Settings s, long seed) throws IOException {
    StringBuilder csv = new StringBuilder("ratio,bits_out,epsilon,requantization_mse,laplace_quantize_mse,channel_epsilon\n");
    List<Path> files = new ArrayList<>();
    LloydMaxQuantizer in = setup.input();
    double range = in.level(in.size() - 1) - in.level(0);
    String[] panel = {"a", "b", "c", "d"};
    for (int k = 0; k < BITS_OUT.length; k++) {
      RequantizationDesigner d = setup.designer(k);
      LloydMaxQuantizer out = setup.outputs().get(k);
      double ratio = (double) BITS_OUT[k] / BITS_IN;
      double[] rq = new double[s.epsilons().length];
      double[] lp = new double[s.epsilons().length];
      for (int e = 0; e < s.epsilons().length; e++) {
        double eps = s.epsilons()[e];
        RequantizationChannel c = RequantizationChannel.fromDoubles(in, out, d.minimizeDistortion(Math.exp(eps)).q());
        RandomSource rnd = source(seed, 1000 * k + e);
        double sq = 0;
        double sl = 0;
        long count = 0;
        for (int sig = 0; sig < s.signals(); sig++) {
          for (int coef = 0; coef < 15; coef++) {
            int i = in.index(10 + 2 * gaussian(rnd));
            double x = in.level(i);
            double a = x - out.level(c.sample(i, rnd));
            double b = x - out.quantize(x + laplace(range / eps, rnd));
            sq += a * a;
            sl += b * b;
            count++;
          }
        }
        rq[e] = sq / count;
        lp[e] = sl / count;
        csv.append(String.format(Locale.ROOT, "%.2f,%d,%.4f,%.6f,%.6f,%.6f%n", ratio, BITS_OUT[k], eps, rq[e], lp[e], c.epsilon()));
      }
      XYChart chart = new XYChartBuilder().width(800).height(600)
          .title(String.format(Locale.ROOT, "MSE vs epsilon, rho = %.2f (cf. paper Fig. 2%s)", ratio, panel[k]))
          .xAxisTitle("epsilon").yAxisTitle("MSE").build();
      chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
      chart.addSeries("randomized requantization", s.epsilons(), rq).setMarker(SeriesMarkers.CIRCLE);
      chart.addSeries("Laplace perturb, then quantize", s.epsilons(), lp).setMarker(SeriesMarkers.SQUARE);
      Path png = dir.resolve("requantization-fig2" + panel[k] + ".png");
      BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
      files.add(png);
      progress.printf(Locale.ROOT, "Fig. 2%s: rho %.2f done%n", panel[k], ratio);
      progress.flush();
    }
    Path out = dir.resolve("requantization-fig2a-d.csv");
    Files.writeString(out, csv);
    files.add(out);
    return files;
  }

  // ------------------------------------------------------------------ Fig. 2e-f

  private static List<Path> figure2ef(Path dir, PrintWriter progress, Setup setup, Settings s, long seed) throws IOException {
    int k = 2; // rho = 0.5
    double eps = 1.0;
    LloydMaxQuantizer in = setup.input();
    LloydMaxQuantizer out = setup.outputs().get(k);
    RequantizationChannel c = RequantizationChannel.fromDoubles(in, out, setup.designer(k).minimizeDistortion(Math.exp(eps)).q());
    RequantizationEstimator est = RequantizationEstimator.of(c);
    double range = in.level(in.size() - 1) - in.level(0);
    int maxN = s.maxUsers();
    double[] ns = new double[maxN];
    double[] sumRq = new double[maxN];
    double[] sumLp = new double[maxN];
    double[] meanRq = new double[maxN];
    double[] meanLp = new double[maxN];
    double[] meanDebiased = new double[maxN];
    RandomSource rnd = source(seed, 99);
    StringBuilder csv = new StringBuilder("users,sum_mse_requantization,sum_mse_laplace_quantize,mean_mse_requantization,"
        + "mean_mse_laplace_quantize,mean_mse_requantization_debiased\n");
    for (int n = 1; n <= maxN; n++) {
      double aS = 0;
      double bS = 0;
      double aM = 0;
      double bM = 0;
      double dM = 0;
      long count = 0;
      for (int t = 0; t < s.trials(); t++) {
        for (int coef = 0; coef < 15; coef++) {
          double truth = 0;
          double rqSum = 0;
          double lpSum = 0;
          double[] counts = new double[out.size()];
          for (int u = 0; u < n; u++) {
            int i = in.index(10 + 2 * gaussian(rnd));
            double x = in.level(i);
            truth += x;
            int j = c.sample(i, rnd);
            counts[j]++;
            rqSum += out.level(j);
            lpSum += out.quantize(x + laplace(range / eps, rnd));
          }
          aS += (rqSum - truth) * (rqSum - truth);
          bS += (lpSum - truth) * (lpSum - truth);
          aM += (rqSum / n - 10) * (rqSum / n - 10);
          bM += (lpSum / n - 10) * (lpSum / n - 10);
          double m = est.mean(counts, n, 0).value();
          dM += (m - 10) * (m - 10);
          count++;
        }
      }
      ns[n - 1] = n;
      sumRq[n - 1] = aS / count;
      sumLp[n - 1] = bS / count;
      meanRq[n - 1] = aM / count;
      meanLp[n - 1] = bM / count;
      meanDebiased[n - 1] = dM / count;
      csv.append(String.format(Locale.ROOT, "%d,%.6f,%.6f,%.6f,%.6f,%.6f%n", n, sumRq[n - 1], sumLp[n - 1], meanRq[n - 1],
          meanLp[n - 1], meanDebiased[n - 1]));
    }
    progress.printf(Locale.ROOT, "Fig. 2e-f: N = 1..%d done (channel epsilon %.6f)%n", maxN, c.epsilon());
    XYChart sum = new XYChartBuilder().width(800).height(600)
        .title("MSE of the sum vs N, epsilon = 1, rho = 0.5 (cf. paper Fig. 2e)")
        .xAxisTitle("number of users N").yAxisTitle("MSE of the sum").build();
    sum.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    sum.addSeries("randomized requantization", ns, sumRq).setMarker(SeriesMarkers.CIRCLE);
    sum.addSeries("Laplace perturb, then quantize", ns, sumLp).setMarker(SeriesMarkers.SQUARE);
    XYChart mean = new XYChartBuilder().width(800).height(600)
        .title("MSE of the mean (vs mu = 10) vs N, epsilon = 1, rho = 0.5 (cf. paper Fig. 2f)")
        .xAxisTitle("number of users N").yAxisTitle("MSE of the mean").build();
    mean.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    mean.addSeries("randomized requantization", ns, meanRq).setMarker(SeriesMarkers.CIRCLE);
    mean.addSeries("Laplace perturb, then quantize", ns, meanLp).setMarker(SeriesMarkers.SQUARE);
    // The debiased estimate (CSV only) is unbiased only where Q is invertible; at rho = 0.5 and
    // epsilon = 1 the pseudo-inverse weights are huge and its MSE dwarfs both curves.
    Path pe = dir.resolve("requantization-fig2e.png");
    Path pf = dir.resolve("requantization-fig2f.png");
    Path out2 = dir.resolve("requantization-fig2e-f.csv");
    BitmapEncoder.saveBitmap(sum, pe.toString(), BitmapEncoder.BitmapFormat.PNG);
    BitmapEncoder.saveBitmap(mean, pf.toString(), BitmapEncoder.BitmapFormat.PNG);
    Files.writeString(out2, csv);
    return List.of(pe, pf, out2);
  }
}
