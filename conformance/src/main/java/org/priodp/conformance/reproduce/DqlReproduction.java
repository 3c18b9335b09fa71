package org.priodp.conformance.reproduce;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.EliasCode;
import org.priodp.noise.compress.dql.DqlCodec;
import org.priodp.noise.compress.dql.DqlGuarantees;
import org.priodp.noise.compress.dql.DqlParameters;

/**
 * Reproduces Fig. 3 of the DQL paper: data x uniform on [-1, 1], database epsilon from 1 to 11,
 * for each the smallest ell on a fine grid whose mean signed Elias gamma length is at most 5
 * bits, plotted as log epsilon (database: epsilon, decoder: ell epsilon) against log MSE; beside
 * it the Laplace-then-quantize baseline at the same mean 5 bits (the finest quantization step on
 * a grid with mean signed Elias gamma length at most 5). Also tabulates the Theorem 8 bound
 * against the measured mean Elias delta length for several (epsilon, ell, |x|).
 *
 * <p>Where no ell on the grid (up to 1001) reaches a mean of 5 bits, the row has ell = NaN and
 * the DQL points are left out of the plot: the mean length levels off as ell grows because
 * P(T = 0) tends to 0 (about 5.2 bits at epsilon = 11 for every ell >= 100).
 *
 * <p>All runs are seeded and use common random numbers across the grid searches, so the output
 * is reproducible and the searched mean lengths are monotone in the grid parameter.
 */
public final class DqlReproduction {

  /**
   * Sizes of a run.
   *
   * @param samples draws per evaluated grid point
   * @param epsilons the database epsilons (the paper: 1 to 11)
   * @param gridPoints points of the geometric ell - 1 grid on [0.001, 1000] and of the baseline
   *     step grid on [0.001, 100]
   * @param theorem8Samples draws per row of the Theorem 8 table
   */
  public record Settings(int samples, double[] epsilons, int gridPoints, int theorem8Samples) {
    /** Validates the sizes. */
    public Settings {
      if (samples < 100 || gridPoints < 10 || theorem8Samples < 100 || epsilons.length == 0) {
        throw new IllegalArgumentException("settings too small");
      }
      epsilons = epsilons.clone();
    }

    /** The paper's figure: epsilon = 1, 2, ..., 11, 200 000 draws per point, 2000-point grids. */
    public static Settings paper() {
      return new Settings(200_000, new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 2000, 200_000);
    }
  }

  private static final double TARGET_BITS = 5;

  /** One point of Fig. 3. */
  record Point(double epsilon, double ell, double dqlBits, double dqlMse, double baselineStep,
      double baselineBits, double baselineMse) {}

  private DqlReproduction() {}

  /** Runs the paper-sized reproduction into {@code outDir}; returns the files written. */
  public static List<Path> run(Path outDir, PrintWriter progress) throws IOException {
    return run(outDir, progress, Settings.paper());
  }

  /** Runs the reproduction with the given sizes; returns the PNG and CSV files written. */
  public static List<Path> run(Path outDir, PrintWriter progress, Settings s) throws IOException {
    Files.createDirectories(outDir);
    List<Point> points = new ArrayList<>();
    for (int i = 0; i < s.epsilons().length; i++) {
      double eps = s.epsilons()[i];
      Point p = point(eps, s);
      points.add(p);
      progress.printf(Locale.ROOT, "[%d/%d] epsilon %.3g: ell %.4f (mean gamma %.3f bits, MSE %.4g, decoder epsilon %.4g);"
          + " baseline step %.4g (%.3f bits, MSE %.4g)%n",
          i + 1, s.epsilons().length, eps, p.ell(), p.dqlBits(), p.dqlMse(), eps * p.ell(), p.baselineStep(), p.baselineBits(), p.baselineMse());
      progress.flush();
    }
    Path csv = outDir.resolve("dql-fig3.csv");
    StringBuilder sb = new StringBuilder(
        "database_epsilon,ell,decoder_epsilon,dql_mean_gamma_bits,dql_mse,dql_mse_theory,baseline_step,baseline_mean_gamma_bits,baseline_mse\n");
    for (Point p : points) {
      sb.append(String.format(Locale.ROOT, "%.6g,%.6g,%.6g,%.5f,%.6g,%.6g,%.6g,%.5f,%.6g%n", p.epsilon(), p.ell(),
          p.epsilon() * p.ell(), p.dqlBits(), p.dqlMse(), 2 / (p.epsilon() * p.epsilon()), p.baselineStep(), p.baselineBits(), p.baselineMse()));
    }
    Files.writeString(csv, sb);
    Path png = outDir.resolve("dql-fig3.png");
    plot(points, png);
    progress.println("Theorem 8: measured mean signed Elias delta length vs the bound");
    Path table = outDir.resolve("dql-theorem8.csv");
    Files.writeString(table, theorem8Table(s.theorem8Samples(), progress));
    progress.printf("wrote %s, %s, %s%n", png, csv, table);
    progress.flush();
    return List.of(png, csv, table);
  }

  private static Point point(double eps, Settings s) {
    // smallest ell on the grid with mean gamma length <= 5 (the length decreases as ell grows)
    int n = s.gridPoints();
    IntToDoubleFunction ellAt = k -> 1 + 0.001 * Math.pow(1e6, (double) k / (n - 1));
    int k = smallestIndex(n, j -> dqlGammaBits(eps, ellAt.applyAsDouble(j), s.samples()) <= TARGET_BITS);
    double ell = ellAt.applyAsDouble(k);
    double bits = dqlGammaBits(eps, ell, s.samples());
    double mse;
    if (bits > TARGET_BITS) {
      // the mean length levels off as ell grows (about 5.2 bits at epsilon 11): no ell reaches 5 bits
      ell = Double.NaN;
      mse = Double.NaN;
    } else {
      mse = dqlMse(eps, ell, s.samples());
    }
    IntToDoubleFunction stepAt = j -> 0.001 * Math.pow(1e5, (double) j / (n - 1));
    int b = smallestIndex(n, j -> baseline(eps, stepAt.applyAsDouble(j), s.samples())[0] <= TARGET_BITS);
    double step = stepAt.applyAsDouble(b);
    double[] base = baseline(eps, step, s.samples());
    return new Point(eps, ell, bits, mse, step, base[0], base[1]);
  }

  private interface IndexTest {
    boolean test(int index);
  }

  /** Binary search for the smallest index in [0, n) passing a monotone test (n - 1 if none). */
  private static int smallestIndex(int n, IndexTest test) {
    int lo = 0;
    int hi = n - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (test.test(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static RandomSource seeded(long a, long b) {
    return RandomSource.seeded(ByteBuffer.allocate(16).putLong(a).putLong(b).array());
  }

  private static double uniform(RandomSource r) {
    return r.nextBits(53) * 0x1.0p-53;
  }

  /** Mean signed Elias gamma length of DQL descriptions for x ~ U[-1, 1]; infinite if out of domain. */
  static double dqlGammaBits(double eps, double ell, int n) {
    DqlCodec codec = DqlCodec.of(DqlParameters.of(eps, ell), EliasCode.GAMMA);
    if (eps > codec.maxAbsScaledInput()) {
      return Double.POSITIVE_INFINITY;
    }
    RandomSource data = seeded(1, 0);
    RandomSource shared = seeded(2, 0);
    RandomSource local = seeded(3, 0);
    long bits = 0;
    for (int i = 0; i < n; i++) {
      double x = 2 * uniform(data) - 1;
      bits += EliasCode.GAMMA.signedLength(codec.encode(x, shared, local));
    }
    return (double) bits / n;
  }

  /** Measured E[(X-hat - x)^2] of DQL for x ~ U[-1, 1] (2 / eps^2 by Proposition 6). */
  static double dqlMse(double eps, double ell, int n) {
    DqlCodec codec = DqlCodec.of(DqlParameters.of(eps, ell), EliasCode.GAMMA);
    RandomSource data = seeded(4, 0);
    RandomSource shared = seeded(5, 0);
    RandomSource decoderShared = seeded(5, 0);
    RandomSource local = seeded(6, 0);
    double sum = 0;
    for (int i = 0; i < n; i++) {
      double x = 2 * uniform(data) - 1;
      double e = codec.decode(codec.encode(x, shared, local), decoderShared) - x;
      sum += e * e;
    }
    return sum / n;
  }

  /** Laplace-then-quantize: {mean signed gamma length of round(y / step), MSE of step * round(y / step)}. */
  static double[] baseline(double eps, double step, int n) {
    RandomSource data = seeded(7, 0);
    RandomSource noise = seeded(8, 0);
    long bits = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      double x = 2 * uniform(data) - 1;
      double v = (noise.nextBits(53) + 1) * 0x1.0p-53; // (0, 1]
      double lap = (noise.nextBit() == 0 ? 1 : -1) * -Math.log(v) / eps;
      long m = Math.round((x + lap) / step);
      bits += EliasCode.GAMMA.signedLength(Math.max(-EliasCode.MAX_SIGNED, Math.min(EliasCode.MAX_SIGNED, m)));
      double e = m * step - x;
      sum += e * e;
    }
    return new double[] {(double) bits / n, sum / n};
  }

  private static String theorem8Table(int n, PrintWriter progress) {
    StringBuilder sb = new StringBuilder("epsilon,ell,abs_x,measured_mean_delta_bits,theorem8_bound,theorem8_closed_form\n");
    progress.printf("%8s %6s %6s %10s %10s %12s%n", "epsilon", "ell", "|x|", "measured", "bound", "closed form");
    for (double eps : new double[] {1, 5}) {
      for (double ell : new double[] {1.5, 2, 10}) {
        for (double x : new double[] {0, 1, 4}) {
          DqlParameters p = DqlParameters.of(eps, ell);
          DqlCodec codec = DqlCodec.of(p, EliasCode.DELTA);
          RandomSource shared = seeded(9, 0);
          RandomSource local = seeded(10, 0);
          long bits = 0;
          for (int i = 0; i < n; i++) {
            bits += EliasCode.DELTA.signedLength(codec.encode(x, shared, local));
          }
          double measured = (double) bits / n;
          double bound = DqlGuarantees.expectedLengthBound(p, new double[] {x});
          double closed = DqlGuarantees.expectedLengthBoundClosedForm(p, new double[] {x});
          sb.append(String.format(Locale.ROOT, "%s,%s,%s,%.4f,%.4f,%.4f%n", eps, ell, x, measured, bound, closed));
          progress.printf(Locale.ROOT, "%8.3g %6.3g %6.3g %10.3f %10.3f %12.3f%n", eps, ell, x, measured, bound, closed);
        }
      }
    }
    progress.flush();
    return sb.toString();
  }

  private static void plot(List<Point> points, Path png) throws IOException {
    int n = points.size();
    double[] dqlMse = new double[n];
    double[] dbEps = new double[n];
    double[] decEps = new double[n];
    double[] baseMse = new double[n];
    double[] baseEps = new double[n];
    for (int i = 0; i < n; i++) {
      Point p = points.get(i);
      dqlMse[i] = Math.log10(p.dqlMse()); // NaN (not drawn) where no ell reaches 5 bits
      dbEps[i] = Math.log10(p.epsilon());
      decEps[i] = Math.log10(p.epsilon() * p.ell());
      baseMse[i] = Math.log10(p.baselineMse());
      baseEps[i] = Math.log10(p.epsilon());
    }
    XYChart chart = new XYChartBuilder().width(800).height(600)
        .title("DQL at 5 bits/value (Elias gamma), x ~ U[-1, 1] (cf. DQL paper Fig. 3)")
        .xAxisTitle("log10 MSE").yAxisTitle("log10 epsilon").build();
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
    XYSeries a = chart.addSeries("DQL, database epsilon", dqlMse, dbEps);
    a.setMarker(SeriesMarkers.CIRCLE);
    XYSeries b = chart.addSeries("DQL, decoder epsilon (ell * epsilon)", dqlMse, decEps);
    b.setMarker(SeriesMarkers.SQUARE);
    XYSeries c = chart.addSeries("Laplace then quantize (database = decoder)", baseMse, baseEps);
    c.setMarker(SeriesMarkers.DIAMOND);
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
