package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.priodp.noise.Rational;
import org.priodp.noise.compress.requantization.DistributionFamily;
import org.priodp.noise.compress.requantization.LloydMaxQuantizer;
import org.priodp.noise.compress.requantization.RequantizationChannel;
import org.priodp.noise.compress.requantization.RequantizationDesign;
import org.priodp.noise.compress.requantization.RequantizationDesigner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Randomized requantization (requantization paper, Sec. 3) on the command line: {@code design}
 * finds the privacy-optimal channel for a distortion bound and prints it as JSON.
 */
@Command(
    name = "requantize",
    mixinStandardHelpOptions = true,
    description = {
      "Designs locally private randomized requantization channels.",
      "",
      "Randomized requantization: an epsilon-locally-private channel from 2^R input levels to"
          + " 2^R-hat output levels with bounded worst-case distortion over a family of"
          + " distributions."
    },
    footer = {
      "%nExample:",
      "  prio-dp requantize design --bits-in 3 --bits-out 2 --distortion 1 --mu 8:12 --sigma 1:3"
    },
    subcommands = {RequantizeCommand.Design.class})
public final class RequantizeCommand implements PrioDpSubcommand {

  @Spec CommandSpec spec;

  /** Without a subcommand: fail with the usage. */
  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand (design)");
  }

  /** Designs the channel by bisection on e^epsilon with one LP per step. */
  @Command(name = "design", mixinStandardHelpOptions = true,
      description = {"Finds the most private channel within a distortion bound (JSON).",
        "",
        "Finds the smallest epsilon whose channel keeps the worst-case mean squared error "
        + "over the family at most D (bisection, one LP per step); prints the target and the exactly "
        + "guaranteed epsilon, the worst-case distortion and the exact channel as JSON. "
        + "The input and output levels are Lloyd-Max quantizers of the public density "
        + "N(--public-mu, --public-sigma), by default the centre of the family."},
      footer = {"%nExample:",
        "  prio-dp requantize design --bits-in 3 --bits-out 2 --distortion 1 --mu 8:12 --sigma 1:3"})
  static final class Design implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--bits-in", required = true, paramLabel = "R", description = "Input bits R: 2^R input levels (1..8).")
    int bitsIn;

    @Option(names = "--bits-out", required = true, paramLabel = "R_HAT", description = "Output bits R-hat <= R.")
    int bitsOut;

    @Option(names = "--distortion", required = true, paramLabel = "D", description = "Worst-case MSE bound delta > 0 (decimal or fraction).")
    String distortion;

    @Option(names = "--family", defaultValue = "gaussian", paramLabel = "FAMILY",
        description = "Family of input distributions: gaussian.")
    String family;

    @Option(names = "--mu", required = true, paramLabel = "LO:HI", description = "Range of the Gaussian means, e.g. 8:12.")
    String mu;

    @Option(names = "--sigma", required = true, paramLabel = "LO:HI", description = "Range of the standard deviations, e.g. 1:3.")
    String sigma;

    @Option(names = "--grid-step", defaultValue = "0.25", paramLabel = "STEP",
        description = "Grid step of mu and sigma.")
    String gridStep;

    @Option(names = "--public-mu", paramLabel = "MU",
        description = "Mean of the public density for Lloyd-Max (default: centre of --mu).")
    String publicMu;

    @Option(names = "--public-sigma", paramLabel = "SIGMA",
        description = "Standard deviation of the public density (default: centre of --sigma).")
    String publicSigma;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write the JSON to FILE.")
    Path out;

    @Override
    public Integer call() throws IOException {
      if (bitsIn < 1 || bitsIn > 8) {
        throw new IllegalArgumentException("--bits-in must be in [1, 8], got " + bitsIn);
      }
      if (bitsOut < 1 || bitsOut > bitsIn) {
        throw new IllegalArgumentException("--bits-out must be in [1, --bits-in], got " + bitsOut);
      }
      if ((1 << bitsIn) * (1 << bitsOut) > 4096) {
        throw new IllegalArgumentException("2^" + bitsIn + " x 2^" + bitsOut + " channel entries exceed the LP limit of 4096");
      }
      if (!family.equals("gaussian")) {
        throw new IllegalArgumentException("--family must be gaussian, got '" + family + "'");
      }
      double delta = positive("--distortion", distortion);
      double[] mus = range("--mu", mu, false);
      double[] sigmas = range("--sigma", sigma, true);
      double step = positive("--grid-step", gridStep);
      double pm = publicMu == null ? 0.5 * (mus[0] + mus[1]) : number("--public-mu", publicMu);
      double ps = publicSigma == null ? 0.5 * (sigmas[0] + sigmas[1]) : positive("--public-sigma", publicSigma);
      var density = LloydMaxQuantizer.gaussianDensity(pm, ps);
      LloydMaxQuantizer in = LloydMaxQuantizer.fromDensity(density, pm - 12 * ps, pm + 12 * ps, 1 << bitsIn);
      LloydMaxQuantizer outQ = LloydMaxQuantizer.fromDensity(density, pm - 12 * ps, pm + 12 * ps, 1 << bitsOut);
      DistributionFamily fam = DistributionFamily.gaussianGrid(in, mus[0], mus[1], sigmas[0], sigmas[1], step);
      RequantizationDesign d = RequantizationDesigner.of(in, outQ, fam).design(delta);
      RequantizationChannel c = d.channel();
      long[][] num = new long[c.inputSize()][c.outputSize()];
      for (int i = 0; i < num.length; i++) {
        for (int j = 0; j < num[i].length; j++) {
          num[i][j] = c.numerator(i, j);
        }
      }
      Json famJson = Json.object().nested()
          .put("type", "gaussian")
          .putDoubles("mu", mus)
          .putDoubles("sigma", sigmas)
          .put("gridStep", step)
          .put("members", fam.size());
      String json = Json.object()
          .put("bitsIn", bitsIn)
          .put("bitsOut", bitsOut)
          .put("compressionRatio", (double) bitsOut / bitsIn)
          .put("distortionBound", delta)
          .put("family", famJson)
          .put("publicDensity", "N(" + pm + ", " + ps + ")")
          .put("targetEpsilon", d.targetEpsilon())
          .put("epsilon", d.guaranteedEpsilon())
          .put("expEpsilon", c.maxRatio().toString())
          .put("worstCaseDistortion", d.channelDistortion())
          .put("lpDistortion", d.lpDistortion())
          .put("minimumDistortion", d.minimumDistortion())
          .put("lpSolves", d.lpSolves())
          .putDoubles("inputLevels", in.levels())
          .putDoubles("outputLevels", outQ.levels())
          .put("denominator", c.denominator())
          .putMatrix("numerators", num)
          .toString();
      if (out != null) {
        CliIo.writeAtomically(out, json + "\n");
      }
      PrintWriter w = spec.commandLine().getOut();
      w.println(json);
      w.flush();
      return 0;
    }

    private static double number(String name, String text) {
      Rational r;
      try {
        r = Rational.parse(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(name + ": " + e.getMessage());
      }
      return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), MathContext.DECIMAL64).doubleValue();
    }

    private static double positive(String name, String text) {
      double v = number(name, text);
      if (!(v > 0)) {
        throw new IllegalArgumentException(name + " must be > 0, got " + text.strip());
      }
      return v;
    }

    private static double[] range(String name, String text, boolean positive) {
      String[] parts = text.split(":", -1);
      if (parts.length > 2) {
        throw new IllegalArgumentException(name + " must be LO:HI or a single value, got '" + text + "'");
      }
      double lo = positive ? positive(name, parts[0]) : number(name, parts[0]);
      double hi = parts.length == 2 ? (positive ? positive(name, parts[1]) : number(name, parts[1])) : lo;
      if (lo > hi) {
        throw new IllegalArgumentException(name + " range is reversed: " + text);
      }
      return new double[] {lo, hi};
    }
  }
}
