package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
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
 * extension registry holds only {@code reserved(0)}. {@link #toString} shows types and lengths
 * only: private extension data may hold a secret for one Aggregator.
 */
public record ReportExtension(int extensionType, byte[] extensionData) {
  /** Validates the uint16 type and the data length, and copies the data. */
  public ReportExtension {
    Extensions.checkType(extensionType);
    extensionData = Octets.checkVector(extensionData, 0, 0xffff, "extension_data");
  }

  /** Returns a copy of the extension data. */
  @Override
  public byte[] extensionData() {
    return extensionData.clone();
  }

  /** Returns true if each type is greater than the one before it (DAP-18 "Report Extensions"). */
  public static boolean isStrictlyIncreasing(List<ReportExtension> extensions) {
    int previous = -1;
    for (ReportExtension e : extensions) {
      if (e.extensionType <= previous) {
        return false;
      }
      previous = e.extensionType;
    }
    return true;
  }

  /**
   * Applies the extension checks of DAP-18 "Input Share Validation" to one report: every type
   * recognized, each list strictly increasing, no type in both lists. Returns
   * {@link ReportError#INVALID_MESSAGE} if any fails, else empty.
   */
  public static Optional<ReportError> validate(List<ReportExtension> publicExtensions,
      List<ReportExtension> privateExtensions, IntPredicate recognized) {
    if (!isStrictlyIncreasing(publicExtensions) || !isStrictlyIncreasing(privateExtensions)) {
      return Optional.of(ReportError.INVALID_MESSAGE);
    }
    Set<Integer> seen = new HashSet<>();
    for (ReportExtension e : publicExtensions) {
      seen.add(e.extensionType);
    }
    for (List<ReportExtension> list : List.of(publicExtensions, privateExtensions)) {
      for (ReportExtension e : list) {
        if (!recognized.test(e.extensionType)) {
          return Optional.of(ReportError.INVALID_MESSAGE);
        }
      }
    }
    for (ReportExtension e : privateExtensions) {
      if (seen.contains(e.extensionType)) {
        return Optional.of(ReportError.INVALID_MESSAGE);
      }
    }
    return Optional.empty();
  }

  /** Copies a list, checking its encoded size fits {@code <0..2^16-1>}; the order is kept as given. */
  static List<ReportExtension> checkList(List<ReportExtension> list, String field) {
    if (list == null) {
      throw new NullPointerException(field + " is null");
    }
    List<ReportExtension> copy = List.copyOf(list);
    long size = 0;
    for (ReportExtension e : copy) {
      size += 4 + e.extensionData.length;
    }
    if (size > Extensions.MAX_LIST_BYTES) {
      throw new IllegalArgumentException(field + ": encoded list of " + size + " bytes exceeds 65535");
    }
    return copy;
  }

  static List<ReportExtension> readList(DapReader r, String field) {
    List<ReportExtension> out = new ArrayList<>();
    for (Extensions.Entry e : Extensions.read(r, field)) {
      out.add(new ReportExtension(e.type(), e.data()));
    }
    return out;
  }

  static void writeList(DapWriter w, List<ReportExtension> list) {
    List<Extensions.Entry> entries = new ArrayList<>();
    for (ReportExtension e : list) {
      entries.add(new Extensions.Entry(e.extensionType, e.extensionData));
    }
    Extensions.write(w, entries);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReportExtension e && e.extensionType == extensionType
        && Arrays.equals(e.extensionData, extensionData);
  }

  @Override
  public int hashCode() {
    return 31 * extensionType + Arrays.hashCode(extensionData);
  }

  @Override
  public String toString() {
    return "ReportExtension[type=" + extensionType + ", " + extensionData.length + " data bytes]";
  }
}
