package org.priodp.conformance.reproduce;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.ppr.PprGaussianMean;
import org.priodp.noise.compress.ppr.PprGuarantees;
import org.priodp.noise.compress.ppr.RenyiAccountant;

/**
 * Reproduces Fig. 1 of the PPR paper (Liu, Chen, Özgür and Li): mean squared error against the
 * central epsilon for distributed mean estimation with n clients, d dimensions, entries +-1/sqrt(d),
 * delta = 10^-6, alpha = 2, at several bit budgets per client, for
 *
 * <ul>
 *   <li>the uncompressed Gaussian mechanism: MSE d mu^2 / n^2 with mu the Rényi-DP noise multiplier;
 *   <li>PPR of the Gaussian mechanism on the whole vector (proposal N(0, (sigma^2 + 1/d) I)): the
 *       smallest sigma >= mu/sqrt(n) whose Theorem 4.3 bound with the Shannon code for Zipf,
 *       KL + log2(3.56)/min((alpha-1)/2, 1) + log2(. + 1) + 2 with KL = (d/2) log2(1 + 1/(d
 *       sigma^2)), fits the budget; MSE d sigma^2 / n (PPR is exact);
 *   <li>sliced PPR (chunks of m coordinates, chunk norm sqrt(m/d) for this data): the same with the
 *       per-chunk bound summed over the d/m chunks;
 *   <li>CSGM at rate gamma = budget/d (one bit per kept +-1/sqrt(d) entry), noise from its own
 *       Rényi-DP accountant: MSE (1 - gamma)/(n gamma) + d sigma^2/(n gamma)^2;
 *   <li>an actual simulation of sliced PPR (encode, decode, average over the n clients) at a few
 *       epsilons with the uncompressed Gaussian's sigma: measured MSE and bits per client, and how
 *       many chunks hit the encoder's iteration cap.
 * </ul>
 */
public final class PprReproduction {
  private PprReproduction() {}

  /** The experiment's settings. */
  public record Settings(int n, int d, double delta, double alpha, double[] epsilons, int[] budgets, int chunkDim,
      double[] simulatedEpsilons, int simulatedTrials, long cap) {
    /** The paper's Fig. 1 (n = 500, d = 1000), simulated at epsilon 0.1, 0.25, 0.5 and 1. */
    public static Settings paper() {
      return new Settings(500, 1000, 1e-6, 2, grid(0.05, 6, 30), new int[] {25, 50, 100, 200, 400}, 50,
          new double[] {0.1, 0.25, 0.5, 1}, 2, 2_000_000);
    }

    /** A quicker run: 12 epsilons, one simulated trial at epsilon 0.25 and 0.5. */
    public static Settings quick() {
      return new Settings(500, 1000, 1e-6, 2, grid(0.05, 6, 12), new int[] {25, 50, 100, 200, 400}, 50,
          new double[] {0.25, 0.5}, 1, 2_000_000);
    }
  }

  static double[] grid(double lo, double hi, int count) {
    double[] g = new double[count];
    for (int i = 0; i < count; i++) {
      g[i] = lo * Math.pow(hi / lo, (double) i / (count - 1));
    }
    return g;
  }

  /** One analytic point. */
  public record Row(double epsilon, int bits, double gaussianMse, double pprMse, double slicedMse, double csgmMse) {}

  /** One simulated point. */
  public record Simulated(double epsilon, double sigma, double mse, double expectedMse, double bitsPerClient,
      double bitsBound, long cappedChunks, long chunks, double secondsPerChunk) {}

  /** The headline: the MSE reduction of PPR over CSGM at one (epsilon, bits). */
  public record Headline(double epsilon, int bits, double pprMse, double csgmMse) {
    /** 1 - PPR / CSGM. */
    public double reduction() {
      return 1 - pprMse / csgmMse;
    }
  }

  /** Theorem 4.3 + Shannon code bits of PPR on {@code chunks} chunks of dimension m, norm c. */
  static double pprBits(int chunks, int m, double c2, double sigma, double alpha) {
    double kl = 0.5 * m * Math.log1p(c2 / (m * sigma * sigma)) / Math.log(2);
    return chunks * PprGuarantees.shannonCodeBits(PprGuarantees.expectedLog2IndexBound(kl, alpha));
  }

  /** The smallest sigma >= sigmaMin whose PPR bits fit the budget (bits decrease in sigma). */
  static double pprSigma(int chunks, int m, double c2, double sigmaMin, double alpha, int budget) {
    if (pprBits(chunks, m, c2, sigmaMin, alpha) <= budget) {
      return sigmaMin;
    }
    if (pprBits(chunks, m, c2, 1e12, alpha) > budget) {
      return Double.NaN; // the per-chunk overhead alone exceeds the budget
    }
    double lo = sigmaMin;
    double hi = sigmaMin * 2;
    while (pprBits(chunks, m, c2, hi, alpha) > budget) {
      hi *= 2;
    }
    for (int i = 0; i < 80; i++) {
      double mid = Math.sqrt(lo * hi);
      if (pprBits(chunks, m, c2, mid, alpha) > budget) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /** Computes the analytic curves. */
  public static List<Row> analytic(Settings s, PrintWriter progress) {
    List<Row> rows = new ArrayList<>();
    int n = s.n();
    int d = s.d();
    int chunks = (d + s.chunkDim() - 1) / s.chunkDim();
    for (int i = 0; i < s.epsilons().length; i++) {
      double eps = s.epsilons()[i];
      double mu = RenyiAccountant.gaussianNoiseMultiplier(eps, s.delta());
      double sigmaG = mu / Math.sqrt(n);
      double gaussMse = d * sigmaG * sigmaG / n;
      for (int b : s.budgets()) {
        double sigma = pprSigma(1, d, 1, sigmaG, s.alpha(), b);
        double sliced = pprSigma(chunks, s.chunkDim(), (double) s.chunkDim() / d, sigmaG, s.alpha(), b);
        double gamma = Math.min(1, (double) b / d);
        double sc = RenyiAccountant.csgmSigma(d, gamma, 1 / Math.sqrt(d), eps, s.delta());
        double csgm = (1 - gamma) / (n * gamma) + d * sc * sc / ((double) n * n * gamma * gamma);
        rows.add(new Row(eps, b, gaussMse, d * sigma * sigma / n, d * sliced * sliced / n, csgm));
      }
      progress.printf(Locale.ROOT, "[%d/%d] epsilon %.3g: Gaussian MSE %.4g%n", i + 1, s.epsilons().length, eps, gaussMse);
      progress.flush();
    }
    return rows;
  }

  /** Simulates sliced PPR (encode, decode, average) at the settings' simulated epsilons. */
  public static List<Simulated> simulate(Settings s, String seedHex, PrintWriter progress) {
    List<Simulated> out = new ArrayList<>();
    int n = s.n();
    int d = s.d();
    double[] x = new double[d];
    for (int j = 0; j < d; j++) {
      x[j] = (j % 2 == 0 ? 1 : -1) / Math.sqrt(d);
    }
    RandomSource local = new SeededRandomSource(("ppr-local-" + seedHex).getBytes(StandardCharsets.US_ASCII));
    for (double eps : s.simulatedEpsilons()) {
      double sigma = RenyiAccountant.gaussianNoiseMultiplier(eps, s.delta()) / Math.sqrt(n);
      PprGaussianMean m = new PprGaussianMean(d, s.chunkDim(), sigma, Math.sqrt((double) s.chunkDim() / d), s.alpha(), s.cap());
      double sse = 0;
      long bits = 0;
      long capped = 0;
      long t0 = System.nanoTime();
      for (int trial = 0; trial < s.simulatedTrials(); trial++) {
        SharedRandomness shared = SharedRandomness.fromHex(seedHex + String.format("%02x%04x", trial, (int) (eps * 1000)));
        double[] mean = new double[d];
        for (int i = 0; i < n; i++) {
          PprGaussianMean.ClientMessage msg = m.encode(shared, i, x, local);
          bits += msg.bits();
          capped += msg.capped();
          double[] y = m.decode(shared, i, msg.indices());
          for (int j = 0; j < d; j++) {
            mean[j] += y[j] / n;
          }
          if ((i + 1) % 100 == 0) {
            progress.printf(Locale.ROOT, "  simulation epsilon %.3g trial %d: %d/%d clients%n", eps, trial + 1, i + 1, n);
            progress.flush();
          }
        }
        for (int j = 0; j < d; j++) {
          sse += (mean[j] - x[j]) * (mean[j] - x[j]);
        }
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      long chunkCount = (long) s.simulatedTrials() * n * m.chunkCount();
      Simulated r = new Simulated(eps, sigma, sse / s.simulatedTrials(), d * sigma * sigma / n,
          (double) bits / ((long) s.simulatedTrials() * n), m.bitsBound(), capped, chunkCount, seconds / chunkCount);
      progress.printf(Locale.ROOT, "simulated epsilon %.3g: sigma %.4g, MSE %.4g (expected %.4g), %.1f bits/client (bound %.1f),"
          + " %d of %d chunks capped, %.3f ms/chunk%n", eps, sigma, r.mse(), r.expectedMse(), r.bitsPerClient(), r.bitsBound(),
          capped, chunkCount, r.secondsPerChunk() * 1e3);
      progress.flush();
      out.add(r);
    }
    return out;
  }

  /** The headline reduction at (epsilon, bits), computed directly. */
  public static Headline headline(Settings s, double eps, int b) {
    Settings one = new Settings(s.n(), s.d(), s.delta(), s.alpha(), new double[] {eps}, new int[] {b}, s.chunkDim(),
        new double[0], 0, s.cap());
    Row r = analytic(one, new PrintWriter(java.io.Writer.nullWriter())).get(0);
    return new Headline(eps, b, r.pprMse(), r.csgmMse());
  }

  /** Runs everything and writes ppr-fig1.csv, ppr-simulation.csv and ppr-fig1.png into outDir. */
  public static List<Path> run(Path outDir, PrintWriter progress, Settings s, String seedHex) throws IOException {
    Files.createDirectories(outDir);
    progress.printf(Locale.ROOT, "PPR Fig. 1: n=%d d=%d delta=%g alpha=%g, %d epsilons, budgets %s bits, slices of %d%n", s.n(), s.d(),
        s.delta(), s.alpha(), s.epsilons().length, java.util.Arrays.toString(s.budgets()), s.chunkDim());
    progress.flush();
    List<Row> rows = analytic(s, progress);
    List<Simulated> sims = simulate(s, seedHex, progress);
    Path csv = outDir.resolve("ppr-fig1.csv");
    StringBuilder sb = new StringBuilder("epsilon,bits,gaussian_mse,ppr_mse,ppr_sliced_mse,csgm_mse\n");
    for (Row r : rows) {
      sb.append(String.format(Locale.ROOT, "%.6g,%d,%.6g,%.6g,%.6g,%.6g%n", r.epsilon(), r.bits(), r.gaussianMse(), r.pprMse(),
          r.slicedMse(), r.csgmMse()));
    }
    Files.writeString(csv, sb.toString());
    Path simCsv = outDir.resolve("ppr-simulation.csv");
    StringBuilder sc = new StringBuilder(
        "epsilon,sigma,simulated_mse,expected_mse,bits_per_client,bits_bound,capped_chunks,chunks,ms_per_chunk\n");
    for (Simulated r : sims) {
      sc.append(String.format(Locale.ROOT, "%.6g,%.6g,%.6g,%.6g,%.3f,%.3f,%d,%d,%.4f%n", r.epsilon(), r.sigma(), r.mse(),
          r.expectedMse(), r.bitsPerClient(), r.bitsBound(), r.cappedChunks(), r.chunks(), r.secondsPerChunk() * 1e3));
    }
    Files.writeString(simCsv, sc.toString());
    Path png = outDir.resolve("ppr-fig1.png");
    plot(s, rows, sims, png);
    for (double[] h : new double[][] {{1, 50}, {0.5, 25}}) {
      Headline hl = headline(s, h[0], (int) h[1]);
      progress.printf(Locale.ROOT, "headline: epsilon %.2g, %d bits: CSGM MSE %.4g, PPR MSE %.4g, reduction %.1f%%%n", hl.epsilon(),
          hl.bits(), hl.csgmMse(), hl.pprMse(), 100 * hl.reduction());
    }
    progress.flush();
    return List.of(csv, simCsv, png);
  }

  private static void plot(Settings s, List<Row> rows, List<Simulated> sims, Path png) throws IOException {
    XYChart chart = new XYChartBuilder().width(1000).height(700)
        .title(String.format(Locale.ROOT, "DME, n=%d, d=%d, delta=1e-6: PPR (alpha=2) vs CSGM (cf. PPR paper Fig. 1)", s.n(), s.d()))
        .xAxisTitle("central epsilon").yAxisTitle("MSE").build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    int budgets = s.budgets().length;
    add(chart, "Gaussian (uncompressed)", rows, 0, budgets, Row::gaussianMse, SeriesLines.SOLID, SeriesMarkers.NONE);
    for (int k = 0; k < budgets; k++) {
      int b = s.budgets()[k];
      add(chart, "PPR " + b + " bits", rows, k, budgets, Row::pprMse, SeriesLines.SOLID, SeriesMarkers.CIRCLE);
      add(chart, "CSGM " + b + " bits", rows, k, budgets, Row::csgmMse, SeriesLines.DASH_DASH, SeriesMarkers.DIAMOND);
      add(chart, "PPR sliced (m=" + s.chunkDim() + ") " + b + " bits", rows, k, budgets, Row::slicedMse, SeriesLines.DOT_DOT,
          SeriesMarkers.NONE);
    }
    if (!sims.isEmpty()) {
      double[] xs = sims.stream().mapToDouble(Simulated::epsilon).toArray();
      double[] ys = sims.stream().mapToDouble(Simulated::mse).toArray();
      XYSeries sim = chart.addSeries("simulated sliced PPR (encode, decode, average)", xs, ys);
      sim.setLineStyle(SeriesLines.NONE);
      sim.setMarker(SeriesMarkers.CROSS);
      sim.setMarkerColor(java.awt.Color.BLACK);
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  private static void add(XYChart chart, String name, List<Row> rows, int k, int budgets,
      java.util.function.ToDoubleFunction<Row> f, java.awt.BasicStroke line, org.knowm.xchart.style.markers.Marker marker) {
    List<Double> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    for (int i = k; i < rows.size(); i += budgets) {
      double y = f.applyAsDouble(rows.get(i));
      if (Double.isFinite(y) && y > 0) {
        xs.add(rows.get(i).epsilon());
        ys.add(y);
      }
    }
    if (xs.isEmpty()) {
      return;
    }
    XYSeries series = chart.addSeries(name, xs, ys);
    series.setMarker(marker);
    series.setLineStyle(line);
  }
}
