package org.priodp.aggregator.datastore;

import java.util.Objects;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;

/**
 * An un-noised batch aggregation written by the host aggregator: the merged aggregate share of a
 * batch bucket with its report count and checksum (DAP-18 "Batch Buckets", "Obtaining Aggregate
 * Shares"). The report count is an unsigned 64-bit value.
 */
public record BatchAggregation(TaskId taskId, BatchIdentifier batch,
    ByteString aggregationParameter, ByteString aggregateShare, long reportCount,
    ByteString checksum) {
  /** Validates the fields. */
  public BatchAggregation {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(aggregationParameter, "aggregationParameter");
    Objects.requireNonNull(aggregateShare, "aggregateShare");
    StoreValues.checksum(checksum);
  }
}
