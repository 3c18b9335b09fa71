package org.priodp.aggregator.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;
import org.priodp.vdaf.dp.Sensitivity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Prints the sensitivity of a Prio3 VDAF and, for a budget, the noise it calls for. */
@Command(
    name = "sensitivity",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Prints a Prio3 VDAF's sensitivity and, for a budget, its noise.",
      "",
      "The L1 and squared L2 sensitivity, computed from the VDAF's parameters; with --epsilon or"
          + " --rho also the noise scale, the standard deviation of one and of two aggregators'"
          + " noise, and the interval half-width."
    },
    footer = {
      "%nExample:",
      "  prio-dp sensitivity --vdaf Prio3SumVec --length 4 --max-measurement 255 --chunk-length 2"
          + " --epsilon 1",
      "  prio-dp sensitivity --vdaf Prio3L1BoundSum --length 10 --max-value 240 --chunk-length 9"
          + " --rho 1/2"
    })
public final class SensitivityCommand implements PrioDpSubcommand {
  @Spec CommandSpec spec;

  @Mixin VdafOptions vdaf = new VdafOptions();

  @Mixin DpOptions dp = new DpOptions();

  @Option(names = "--confidence", paramLabel = "C", defaultValue = "0.95",
      description = "Coverage of the intervals, in (0, 1).")
  String confidence;

  @Override
  public Integer call() {
    Prio3Variant variant = vdaf.variant();
    DpStrategy strategy = dp.strategy();
    double conf = parseConfidence(confidence);
    Prio3DpMechanism m = Prio3DpMechanism.of(variant, strategy, dp.rule());
    Sensitivity s = m.sensitivity();
    StringBuilder out = new StringBuilder();
    line(out, "vdaf", variant.describe());
    line(out, "sensitivity rule", s.rule().spelling());
    line(out, "L1 sensitivity", s.l1().toString());
    line(out, "squared L2 sensitivity", s.l2Squared().toString());
    if (!m.addsNoise()) {
      out.append("(give --epsilon or --rho for the noise scale and error bars)\n");
    } else {
      String pct = percent(conf);
      line(out, "strategy", strategy.describe());
      line(out, "noise per aggregator and coordinate", m.describeNoise());
      line(out, "standard deviation, one aggregator", figure(m.noiseStandardDeviation(1)));
      line(out, "standard deviation, two aggregators", figure(m.noiseStandardDeviation(2)));
      line(out, pct + " interval half-width, one aggregator", m.noiseHalfWidthBig(1, conf).toString());
      line(out, pct + " interval half-width, two aggregators", m.noiseHalfWidthBig(2, conf).toString());
      out.append("(the collector sees the sum of both aggregators' noise; privacy holds if one is honest)\n");
    }
    PrintWriter w = spec.commandLine().getOut();
    w.print(out);
    w.flush();
    return 0;
  }

  private static void line(StringBuilder out, String key, String value) {
    out.append(key).append(": ").append(value).append('\n');
  }

  static String figure(double v) {
    return String.format(Locale.ROOT, "%.6g", v);
  }

  static String percent(double conf) {
    return new java.math.BigDecimal(Double.toString(conf * 100)).stripTrailingZeros().toPlainString() + "%";
  }

  /** Parses a confidence in (0, 1); a figure for people, so a double. */
  static double parseConfidence(String text) {
    double c;
    try {
      c = Double.parseDouble(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--confidence: '" + text + "' is not a number");
    }
    if (!(c > 0 && c < 1)) {
      throw new IllegalArgumentException("--confidence must be in (0, 1), got " + text);
    }
    return c;
  }
}
