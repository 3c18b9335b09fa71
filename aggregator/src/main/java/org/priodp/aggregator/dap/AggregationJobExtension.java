package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * One aggregation job extension, {@code struct { AggregationJobExtensionType extension_type;
 * opaque extension_data<0..2^16-1>; } AggregationJobExtension} (DAP-18 "Aggregation Job
 * Extensions"), listed as {@code AggregationJobExtension extensions<0..2^16-1>} in strictly
 * increasing type order. Unknown types are kept as their uint16 code point (the Helper answers
 * {@code unsupportedExtension}); the only registered one is {@code leader_selected_batch_id(1)},
 * whose data must be exactly one {@link BatchId} (DAP-18 "Leader-selected Batch Mode",
 * "Aggregation Job Extension"; otherwise {@code invalidMessage}).
 *
 * <p>An out-of-order list is {@code invalidMessage}, as DAP-18 "Helper Initialization" says for
 * this list ("MUST fail the job with error invalidMessage"), although the "DAP errors" table
 * describes out-of-order lists under {@code invalidExtension}; the section-specific rule wins.
 */
public record AggregationJobExtension(int extensionType, byte[] extensionData) {
  /** The code point of {@code leader_selected_batch_id}. */
  public static final int LEADER_SELECTED_BATCH_ID = 1;

  /** Validates the uint16 type, the data length and the payload of a leader_selected_batch_id. */
  public AggregationJobExtension {
    Extensions.checkType(extensionType);
    extensionData = Octets.checkVector(extensionData, 0, 0xffff, "extension_data");
    if (extensionType == LEADER_SELECTED_BATCH_ID && extensionData.length != BatchId.LENGTH) {
      throw new IllegalArgumentException("leader_selected_batch_id: extension_data must be one "
          + BatchId.LENGTH + "-byte BatchID, got " + extensionData.length + " bytes");
    }
  }

  /** Returns a leader_selected_batch_id extension carrying the batch ID. */
  public static AggregationJobExtension leaderSelectedBatchId(BatchId batchId) {
    return new AggregationJobExtension(LEADER_SELECTED_BATCH_ID, batchId.encode());
  }

  /** Returns the batch ID if this is a leader_selected_batch_id extension. */
  public Optional<BatchId> asLeaderSelectedBatchId() {
    return extensionType == LEADER_SELECTED_BATCH_ID
        ? Optional.of(new BatchId(extensionData)) : Optional.empty();
  }

  /** Returns a copy of the extension data. */
  @Override
  public byte[] extensionData() {
    return extensionData.clone();
  }

  /** Copies a list after checking strict type order and the encoded size {@code <0..2^16-1>}. */
  static List<AggregationJobExtension> checkList(List<AggregationJobExtension> list, String field) {
    if (list == null) {
      throw new NullPointerException(field + " is null");
    }
    List<AggregationJobExtension> copy = List.copyOf(list);
    long size = 0;
    int previous = -1;
    for (AggregationJobExtension e : copy) {
      if (e.extensionType <= previous) {
        throw new IllegalArgumentException(field + ": extension types not strictly increasing ("
            + previous + " then " + e.extensionType + ")");
      }
      previous = e.extensionType;
      size += 4 + e.extensionData.length;
    }
    if (size > Extensions.MAX_LIST_BYTES) {
      throw new IllegalArgumentException(field + ": encoded list of " + size + " bytes exceeds 65535");
    }
    return copy;
  }

  static List<AggregationJobExtension> readList(DapReader r, String field) {
    List<AggregationJobExtension> out = new ArrayList<>();
    int previous = -1;
    for (Extensions.Entry e : Extensions.read(r, field)) {
      String f = field + "[" + out.size() + "]";
      if (e.type() <= previous) {
        throw new DapDecodeException(f + ".extension_type",
            "extension types not strictly increasing (" + previous + " then " + e.type() + ")");
      }
      previous = e.type();
      out.add(Decoding.build(f + ".extension_data", () -> new AggregationJobExtension(e.type(), e.data())));
    }
    return out;
  }

  static void writeList(DapWriter w, List<AggregationJobExtension> list) {
    List<Extensions.Entry> entries = new ArrayList<>();
    for (AggregationJobExtension e : list) {
      entries.add(new Extensions.Entry(e.extensionType, e.extensionData));
    }
    Extensions.write(w, entries);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AggregationJobExtension e && e.extensionType == extensionType
        && Arrays.equals(e.extensionData, extensionData);
  }

  @Override
  public int hashCode() {
    return 31 * extensionType + Arrays.hashCode(extensionData);
  }

  @Override
  public String toString() {
    return "AggregationJobExtension[type=" + extensionType + ", data=" + Octets.hex(extensionData) + "]";
  }
}
