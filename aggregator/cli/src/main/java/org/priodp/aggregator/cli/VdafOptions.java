package org.priodp.aggregator.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.priodp.vdaf.Prio3Variant;
import picocli.CommandLine.Option;

/**
 * The command-line options that name a Prio3 variant and its parameters (one option per
 * parameter, e.g. --max-measurement for max_measurement), turned into a validated {@link
 * Prio3Variant}. Every bad or missing value is an {@link IllegalArgumentException} with
 * one clear line.
 */
final class VdafOptions {
  static final String NAMES = String.join(", ", Prio3Variant.names());

  /** The names --vdaf accepts, for the help text. */
  static final class Names implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return Prio3Variant.names().iterator();
    }
  }

  @Option(names = "--vdaf", required = true, paramLabel = "NAME", completionCandidates = Names.class,
      description = "The VDAF: ${COMPLETION-CANDIDATES}.")
  String vdaf;

  @Option(names = "--length", paramLabel = "N",
      description = "The VDAF's length (SumVec, Histogram, MultihotCountVec, L1BoundSum).")
  String length;

  @Option(names = "--max-measurement", paramLabel = "N", description = "The VDAF's max_measurement (Sum, SumVec).")
  String maxMeasurement;

  @Option(names = "--chunk-length", paramLabel = "N",
      description = "The VDAF's chunk_length (SumVec, Histogram, MultihotCountVec, L1BoundSum).")
  String chunkLength;

  @Option(names = "--max-weight", paramLabel = "N", description = "The VDAF's max_weight (MultihotCountVec).")
  String maxWeight;

  @Option(names = "--max-value", paramLabel = "N",
      description = "The VDAF's max_value, the bound on the sum of a measurement (L1BoundSum).")
  String maxValue;

  @Option(names = "--proofs", paramLabel = "N", description = "Number of proofs (Prio3SumVecWithMultiproof only) (default: 3).")
  String proofs;

  /** Returns the validated variant ({@link Prio3Variant#parse}, the name matched ignoring case). */
  Prio3Variant variant() {
    String name = Prio3Variant.names().stream()
        .filter(n -> n.equalsIgnoreCase(vdaf.strip()))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown --vdaf '" + vdaf + "': use one of " + NAMES));
    Map<String, String> parameters = new LinkedHashMap<>();
    String[][] given = {
      {"length", length}, {"max_measurement", maxMeasurement}, {"chunk_length", chunkLength},
      {"max_weight", maxWeight}, {"max_value", maxValue}, {"proofs", proofs}
    };
    for (String[] g : given) {
      if (g[1] != null) {
        parameters.put(g[0], g[1]);
      }
    }
    return Prio3Variant.parse(name, parameters, k -> "--" + k.replace('_', '-'));
  }
}
