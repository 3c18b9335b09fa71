package org.priodp.conformance.reproduce;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.local.LocalEstimator;
import org.priodp.noise.local.RandomizedResponse;

/**
 * Reproduces the lecture's Theorem 5 for randomized response: the error of the mean estimator
 * (Claim 3) against n for several epsilons, simulated with the exact RR sampler and a fixed seed,
 * beside the bound sqrt(1/delta)/(2(1 - 2p) sqrt(n)). Writes a CSV and a PNG (XChart).
 */
public final class RandomizedResponseReproduction {
  /** The epsilons simulated. */
  public static final List<String> EPSILONS = List.of("1/2", "1", "2");
  /** The population sizes simulated. */
  public static final int[] NS = {100, 300, 1000, 3000, 10000};
  /** Repetitions per (epsilon, n). */
  public static final int TRIALS = 200;
  /** delta of the bound; the simulated (1 - delta) quantile of |error| is plotted against it. */
  public static final double DELTA = 0.05;
  /** The true fraction of ones. */
  public static final double TRUE_MEAN = 0.3;

  /** One row of the CSV. */
  public record Row(String epsilon, int n, double rmse, double quantile, double bound, double sdBound) {}

  private RandomizedResponseReproduction() {}

  /** Simulates every (epsilon, n) from the seed and returns the rows. */
  public static List<Row> simulate(String seedHex) {
    SeededRandomSource rnd = SeededRandomSource.fromHex(seedHex);
    List<Row> rows = new ArrayList<>();
    for (String eps : EPSILONS) {
      RandomizedResponse rr = RandomizedResponse.ofEpsilon(Rational.parse(eps));
      LocalEstimator est = rr.estimator();
      for (int n : NS) {
        int ones = (int) Math.round(TRUE_MEAN * n);
        double truth = (double) ones / n;
        double[] err = new double[TRIALS];
        double sq = 0;
        for (int t = 0; t < TRIALS; t++) {
          long reported = 0;
          for (int i = 0; i < n; i++) {
            reported += rr.randomize(i < ones ? 1 : 0, rnd);
          }
          err[t] = Math.abs(est.estimateMean(reported, n) - truth);
          sq += err[t] * err[t];
        }
        Arrays.sort(err);
        double q = err[(int) Math.ceil((1 - DELTA) * TRIALS) - 1];
        rows.add(new Row(eps, n, Math.sqrt(sq / TRIALS), q, est.meanHalfWidth(n, DELTA),
            Math.sqrt(est.countVarianceBound(n, 0)) / n));
      }
    }
    return rows;
  }

  /** Writes randomized-response.csv and randomized-response.png into {@code dir}; returns the two paths. */
  public static List<Path> write(List<Row> rows, Path dir) throws IOException {
    Files.createDirectories(dir);
    Path csv = dir.resolve("randomized-response.csv");
    try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      w.write("epsilon,n,trials,rmse,abs_error_q" + (int) Math.round(100 * (1 - DELTA))
          + ",lecture_bound_delta_" + DELTA + ",sd_bound\n");
      for (Row r : rows) {
        w.write(String.format(Locale.ROOT, "%s,%d,%d,%.6g,%.6g,%.6g,%.6g%n", r.epsilon(), r.n(), TRIALS, r.rmse(),
            r.quantile(), r.bound(), r.sdBound()));
      }
    }
    XYChart chart = new XYChartBuilder().width(900).height(600)
        .title("Randomized response: |error| of the mean estimate vs n (" + TRIALS + " trials, seeded)")
        .xAxisTitle("n (reports)").yAxisTitle("|estimate - true mean|").build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setYAxisLogarithmic(true);
    java.awt.Color[] colours = {new java.awt.Color(0x1f77b4), new java.awt.Color(0xd62728), new java.awt.Color(0x2ca02c)};
    for (int e = 0; e < EPSILONS.size(); e++) {
      String eps = EPSILONS.get(e);
      java.awt.Color colour = colours[e % colours.length];
      double[] x = rows.stream().filter(r -> r.epsilon().equals(eps)).mapToDouble(Row::n).toArray();
      double[] q = rows.stream().filter(r -> r.epsilon().equals(eps)).mapToDouble(Row::quantile).toArray();
      double[] b = rows.stream().filter(r -> r.epsilon().equals(eps)).mapToDouble(Row::bound).toArray();
      XYSeries sim = chart.addSeries("eps=" + eps + " simulated " + (int) Math.round(100 * (1 - DELTA)) + "% quantile", x, q);
      sim.setMarker(SeriesMarkers.CIRCLE);
      sim.setLineColor(colour);
      sim.setMarkerColor(colour);
      XYSeries bound = chart.addSeries("eps=" + eps + " lecture bound (Thm 5, delta=" + DELTA + ")", x, b);
      bound.setMarker(SeriesMarkers.NONE);
      bound.setLineColor(colour);
      bound.setLineStyle(new java.awt.BasicStroke(2f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER,
          10f, new float[] {6f, 4f}, 0f));
    }
    Path png = dir.resolve("randomized-response.png");
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    return List.of(csv, png);
  }
}
