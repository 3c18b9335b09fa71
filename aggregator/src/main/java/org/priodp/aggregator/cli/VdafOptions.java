package org.priodp.aggregator.cli;

import java.math.BigInteger;
import java.util.Locale;
import org.priodp.vdaf.Prio3Variant;
import picocli.CommandLine.Option;

/**
 * The command-line options that name a Prio3 variant and its parameters, turned into a validated
 * {@link Prio3Variant}. Every bad or missing value is an {@link IllegalArgumentException} with
 * one clear line.
 */
final class VdafOptions {
  static final String NAMES =
      "Prio3Count, Prio3Sum, Prio3SumVec, Prio3Histogram, Prio3MultihotCountVec, Prio3SumVecWithMultiproof";

  @Option(names = "--vdaf", paramLabel = "NAME", description = "The VDAF (required): " + NAMES + ".")
  String vdaf;

  @Option(names = "--length", paramLabel = "N", description = "length (SumVec, Histogram, MultihotCountVec).")
  String length;

  @Option(names = "--max-measurement", paramLabel = "N", description = "max_measurement (Sum, SumVec).")
  String maxMeasurement;

  @Option(names = "--chunk-length", paramLabel = "N", description = "chunk_length (SumVec, Histogram, MultihotCountVec).")
  String chunkLength;

  @Option(names = "--max-weight", paramLabel = "N", description = "max_weight (MultihotCountVec).")
  String maxWeight;

  @Option(names = "--proofs", paramLabel = "N", description = "Number of proofs (Prio3SumVecWithMultiproof only; default 3).")
  String proofs;

  /** Returns the validated variant. */
  Prio3Variant variant() {
    if (vdaf == null) {
      throw new IllegalArgumentException("missing --vdaf (one of " + NAMES + ")");
    }
    String name = vdaf.strip().toLowerCase(Locale.ROOT);
    return switch (name) {
      case "prio3count" -> {
        only("Prio3Count");
        yield new Prio3Variant.Count();
      }
      case "prio3sum" -> {
        only("Prio3Sum", "--max-measurement");
        yield new Prio3Variant.Sum(big("--max-measurement", maxMeasurement, "Prio3Sum"));
      }
      case "prio3sumvec" -> {
        only("Prio3SumVec", "--length", "--max-measurement", "--chunk-length");
        yield Prio3Variant.SumVec.of(integer("--length", length, "Prio3SumVec"),
            big("--max-measurement", maxMeasurement, "Prio3SumVec"),
            integer("--chunk-length", chunkLength, "Prio3SumVec"));
      }
      case "prio3sumvecwithmultiproof" -> {
        only("Prio3SumVecWithMultiproof", "--length", "--max-measurement", "--chunk-length", "--proofs");
        yield Prio3Variant.SumVec.field64Multiproof(integer("--length", length, "Prio3SumVecWithMultiproof"),
            big("--max-measurement", maxMeasurement, "Prio3SumVecWithMultiproof"),
            integer("--chunk-length", chunkLength, "Prio3SumVecWithMultiproof"),
            proofs == null ? 3 : integer("--proofs", proofs, "Prio3SumVecWithMultiproof"));
      }
      case "prio3histogram" -> {
        only("Prio3Histogram", "--length", "--chunk-length");
        yield new Prio3Variant.Histogram(integer("--length", length, "Prio3Histogram"),
            integer("--chunk-length", chunkLength, "Prio3Histogram"));
      }
      case "prio3multihotcountvec" -> {
        only("Prio3MultihotCountVec", "--length", "--max-weight", "--chunk-length");
        yield new Prio3Variant.MultihotCountVec(integer("--length", length, "Prio3MultihotCountVec"),
            integer("--max-weight", maxWeight, "Prio3MultihotCountVec"),
            integer("--chunk-length", chunkLength, "Prio3MultihotCountVec"));
      }
      default -> throw new IllegalArgumentException("unknown --vdaf '" + vdaf + "': use one of " + NAMES);
    };
  }

  /** Rejects options that the variant does not take, so that a typo does not go unnoticed. */
  private void only(String vdafName, String... allowed) {
    java.util.List<String> ok = java.util.List.of(allowed);
    String[][] given = {
      {"--length", length}, {"--max-measurement", maxMeasurement}, {"--chunk-length", chunkLength},
      {"--max-weight", maxWeight}, {"--proofs", proofs}
    };
    for (String[] g : given) {
      if (g[1] != null && !ok.contains(g[0])) {
        throw new IllegalArgumentException(g[0] + " does not apply to " + vdafName);
      }
    }
  }

  private static String need(String option, String value, String vdafName) {
    if (value == null) {
      throw new IllegalArgumentException(vdafName + " needs " + option);
    }
    return value.strip();
  }

  private static BigInteger big(String option, String value, String vdafName) {
    String v = need(option, value, vdafName);
    try {
      return new BigInteger(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + ": '" + v + "' is not an integer");
    }
  }

  private static int integer(String option, String value, String vdafName) {
    String v = need(option, value, vdafName);
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + ": '" + v + "' is not an integer in the int range");
    }
  }

  /** Returns the VDAF's name and parameters as the specification writes them. */
  static String describe(Prio3Variant v) {
    String name = v.algorithm().specName();
    if (v instanceof Prio3Variant.Sum s) {
      return name + "(max_measurement=" + s.maxMeasurement() + ")";
    } else if (v instanceof Prio3Variant.SumVec s) {
      return name + "(length=" + s.length() + ", max_measurement=" + s.maxMeasurement() + ", chunk_length="
          + s.chunkLength() + (s.proofs() == 1 ? "" : ", proofs=" + s.proofs()) + ")";
    } else if (v instanceof Prio3Variant.Histogram h) {
      return name + "(length=" + h.length() + ", chunk_length=" + h.chunkLength() + ")";
    } else if (v instanceof Prio3Variant.MultihotCountVec m) {
      return name + "(length=" + m.length() + ", max_weight=" + m.maxWeight() + ", chunk_length="
          + m.chunkLength() + ")";
    }
    return name;
  }
}
