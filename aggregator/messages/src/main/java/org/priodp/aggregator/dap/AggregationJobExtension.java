package org.priodp.aggregator.dap;

import java.util.Optional;
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
public record AggregationJobExtension(int extensionType, ByteString extensionData)
    implements Extensions.Entry {
  /** The code point of {@code leader_selected_batch_id}. */
  public static final int LEADER_SELECTED_BATCH_ID = 1;

  /** {@code AggregationJobExtension extensions<0..2^16-1>}: strictly increasing, else invalidMessage. */
  static final Extensions<AggregationJobExtension> LIST =
      Extensions.ordered(AggregationJobExtension::new, DapError.INVALID_MESSAGE);

  /** Validates the uint16 type, the data length and the payload of a leader_selected_batch_id. */
  public AggregationJobExtension {
    Extensions.checkEntry(extensionType, extensionData);
    if (extensionType == LEADER_SELECTED_BATCH_ID && extensionData.length() != BatchId.LENGTH) {
      throw new IllegalArgumentException("leader_selected_batch_id: extension_data must be one "
          + BatchId.LENGTH + "-byte BatchID, got " + extensionData.length() + " bytes");
    }
  }

  /** Returns the extension holding a copy of {@code extensionData}. */
  public AggregationJobExtension(int extensionType, byte[] extensionData) {
    this(extensionType, Octets.of(extensionData, "extension_data"));
  }

  /** Returns a leader_selected_batch_id extension carrying the batch ID. */
  public static AggregationJobExtension leaderSelectedBatchId(BatchId batchId) {
    return new AggregationJobExtension(LEADER_SELECTED_BATCH_ID, batchId.value());
  }

  /** Returns the batch ID if this is a leader_selected_batch_id extension. */
  public Optional<BatchId> asLeaderSelectedBatchId() {
    return extensionType == LEADER_SELECTED_BATCH_ID
        ? Optional.of(new BatchId(extensionData)) : Optional.empty();
  }
}
