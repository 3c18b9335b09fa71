package org.priodp.aggregator.cli;

import java.io.PrintWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpUnsharder;
import org.priodp.vdaf.dp.UnshardResult;
import org.priodp.vdaf.dp.PostProcessing;
import org.priodp.vdaf.dp.Prio3DpMechanism;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The collector's step: sums the aggregators' shares and prints the signed aggregate with intervals. */
@Command(
    name = "unshard",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Sums the aggregators' shares and prints the aggregate with intervals.",
      "",
      "Sums the aggregators' (noised) aggregate shares, lifts each coordinate to the integer"
          + " nearest its valid range [0, n * max] widened by the noise bound (failure probability"
          + " 2^-40), and prints the result as JSON with the confidence interval of the total noise"
          + " per coordinate (every aggregator adds its own draw, so the noise is the sum of one"
          + " draw per share). --num-measurements must be the true report count; a range the field"
          + " cannot hold unambiguously is refused.",
      "",
      "Give the same --epsilon or --rho the aggregators used; without either, the shares are"
          + " taken as un-noised and decoded exactly."
    },
    footer = {
      "%nExample:",
      "  prio-dp unshard --vdaf Prio3Count --num-measurements 5 --epsilon 1 SHARE1 SHARE2"
    })
public final class UnshardCommand implements PrioDpSubcommand {
  @Spec CommandSpec spec;

  @Mixin VdafOptions vdaf = new VdafOptions();

  @Mixin DpOptions dp = new DpOptions();

  @Option(names = "--num-measurements", required = true, paramLabel = "N",
      description = "Number of measurements (reports) aggregated (DAP's report_count).")
  String numMeasurements;

  @Option(names = "--confidence", paramLabel = "C", defaultValue = "0.95",
      description = "Coverage of the intervals, in (0, 1).")
  String confidence;

  @Option(names = "--post-process", paramLabel = "KIND", defaultValue = "none",
      description = "Optional post-processing, reported apart from the estimates: none, clamp"
          + " (to [0, n * max]), round-histogram-to-count (Prio3Histogram: non-negative, summing to n).")
  String postProcess;

  @Parameters(paramLabel = "SHARE", arity = "0..*",
      showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER, description = "The aggregate shares in hex, one per aggregator.")
  List<String> shares = List.of();

  @Override
  public Integer call() {
    Prio3Variant variant = vdaf.variant();
    long n;
    try {
      n = Long.parseLong(numMeasurements.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--num-measurements: '" + numMeasurements + "' is not an integer");
    }
    if (shares.isEmpty()) {
      throw new IllegalArgumentException("give the aggregate shares (hex), one per aggregator");
    }
    List<byte[]> bytes = new ArrayList<>();
    for (int i = 0; i < shares.size(); i++) {
      bytes.add(CliIo.hex("aggregate share " + (i + 1), shares.get(i)));
    }
    Prio3DpMechanism m = Prio3DpMechanism.of(variant, dp.strategy(), dp.rule());
    DpUnsharder c = DpUnsharder.of(m)
        .withConfidence(SensitivityCommand.parseConfidence(confidence))
        .withPostProcessing(PostProcessing.parse(postProcess.strip()));
    UnshardResult r = c.unshard(bytes, n);
    PrintWriter w = spec.commandLine().getOut();
    w.println(toJson(r, m));
    w.flush();
    return 0;
  }

  static String toJson(UnshardResult r, Prio3DpMechanism m) {
    List<BigInteger> lo = new ArrayList<>();
    List<BigInteger> hi = new ArrayList<>();
    for (int i = 0; i < r.estimates().size(); i++) {
      lo.add(r.lower(i));
      hi.add(r.upper(i));
    }
    Json j = Json.object()
        .put("vdaf", r.variant().describe())
        .put("num_measurements", r.numMeasurements())
        .put("strategy", r.strategy().describe())
        .put("sensitivity_rule", m.sensitivity().rule().spelling())
        .put("sensitivity_l1", m.sensitivity().l1())
        .put("sensitivity_l2_squared", m.sensitivity().l2Squared())
        .putNumbers("aggregate", r.estimates());
    Json noise = j.nested()
        .put("noised_shares", r.noisedShares())
        .put("per_aggregator", m.describeNoise())
        .put("confidence", r.confidence())
        .put("half_width", r.halfWidth())
        .put("note", r.noiseNote());
    j.put("noise", noise).putPairs("intervals", lo, hi);
    Json post = j.nested().put("kind", r.postProcessing().cliName());
    if (r.postProcessing() != PostProcessing.NONE) {
      post.put("note", "post-processed for display: biased, and not covered by the intervals; the"
              + " aggregate above is the unbiased estimate")
          .putNumbers("values", r.postProcessed());
    }
    j.put("post_processing", post);
    return j.toString();
  }
}
