package org.priodp.aggregator.dap;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * One report extension, {@code struct { ExtensionType extension_type; opaque
 * extension_data<0..2^16-1>; } Extension} with {@code enum { reserved(0), (2^16-1) }
 * ExtensionType} (DAP-18 "Report Extensions"), carried in {@code ReportMetadata.public_extensions}
 * and {@code PlaintextInputShare.private_extensions}, each {@code Extension <0..2^16-1>}.
 *
 * <p>The list rules of DAP-18 (strictly increasing types in each list, no type both public and
 * private, only recognized types) are <em>per-report</em> rules: "Input Share Validation" says a
 * violation marks that one input share invalid with report error {@code invalid_message}, and the
 * Leader "MUST discard the report" at upload. A decoder that failed the whole message would turn
 * one bad report into a failed upload or aggregation job, so lists are decoded as they stand
 * (only their wire bounds are checked) and {@link #validate} applies the rules. The DAP-18 report
 * extension registry holds only {@code reserved(0)}; so does DAP-19's. {@link #toString} shows types and lengths
 * only: private extension data may hold a secret for one Aggregator.
 */
public record ReportExtension(int extensionType, ByteString extensionData)
    implements Extensions.Entry {
  /** {@code Extension extensions<0..2^16-1>}: kept in wire order, checked per report by {@link #validate}. */
  static final Extensions<ReportExtension> LIST = Extensions.unordered(ReportExtension::new);

  /** Validates the uint16 type and the data length. */
  public ReportExtension {
    Extensions.checkEntry(extensionType, extensionData);
  }

  /** Returns the extension holding a copy of {@code extensionData}. */
  public ReportExtension(int extensionType, byte[] extensionData) {
    this(extensionType, Octets.of(extensionData, "extension_data"));
  }

  /** Returns true if each type is greater than the one before it (DAP-18 "Report Extensions"). */
  public static boolean isStrictlyIncreasing(List<ReportExtension> extensions) {
    return Extensions.isStrictlyIncreasing(extensions);
  }

  /** Which extension rule a report breaks (DAP-19 "Leader Behavior" of upload tells them apart). */
  public enum Failure {
    /** A list is not strictly increasing, or a type is both public and private. */
    REPEATED,
    /** A type this Aggregator does not recognize. */
    UNRECOGNIZED
  }

  /**
   * Applies the extension checks of DAP-19 (and DAP-18) "Input Share Validation" to one report:
   * each list strictly increasing, no type in both lists, every type recognized. Returns the first
   * rule broken, in that order, else empty. In aggregation every failure is {@link
   * ReportError#INVALID_MESSAGE}; at upload the {@link DapVersion} picks the error.
   */
  public static Optional<Failure> validate(List<ReportExtension> publicExtensions,
      List<ReportExtension> privateExtensions, IntPredicate recognized) {
    if (!isStrictlyIncreasing(publicExtensions) || !isStrictlyIncreasing(privateExtensions)) {
      return Optional.of(Failure.REPEATED);
    }
    Set<Integer> seen = new HashSet<>();
    for (ReportExtension e : publicExtensions) {
      seen.add(e.extensionType);
    }
    for (ReportExtension e : privateExtensions) {
      if (seen.contains(e.extensionType)) {
        return Optional.of(Failure.REPEATED);
      }
    }
    for (List<ReportExtension> list : List.of(publicExtensions, privateExtensions)) {
      for (ReportExtension e : list) {
        if (!recognized.test(e.extensionType)) {
          return Optional.of(Failure.UNRECOGNIZED);
        }
      }
    }
    return Optional.empty();
  }

  /** Shows the type and the data length, never the data (it may be a secret for one Aggregator). */
  @Override
  public String toString() {
    return "ReportExtension[type=" + extensionType + ", " + extensionData.length() + " data bytes]";
  }
}
