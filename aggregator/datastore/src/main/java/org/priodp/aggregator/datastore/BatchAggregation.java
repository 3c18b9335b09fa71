package org.priodp.aggregator.datastore;

import java.util.Objects;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;

/**
 * An un-noised batch aggregation written by the host aggregator: the merged aggregate share of a
 * batch bucket with its report count and checksum (DAP-18 "Batch Buckets", "Obtaining Aggregate
 * Shares"), and the privacy budgets of the counted reports ({@link BucketBudgets}, attribution
 * draft section 5). The report count is an unsigned 64-bit value.
 */
public record BatchAggregation(TaskId taskId, BatchIdentifier batch,
    ByteString aggregationParameter, ByteString aggregateShare, long reportCount,
    ByteString checksum, BucketBudgets budgets) {
  /** Validates the fields. */
  public BatchAggregation {
    Objects.requireNonNull(budgets, "budgets");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(aggregationParameter, "aggregationParameter");
    Objects.requireNonNull(aggregateShare, "aggregateShare");
    StoreValues.checksum(checksum);
  }

  /**
   * Returns the batch aggregation whose reports' budgets are not known ({@link
   * BucketBudgets#UNKNOWN}): as written before the budgets were kept.
   */
  public BatchAggregation(TaskId taskId, BatchIdentifier batch, ByteString aggregationParameter,
      ByteString aggregateShare, long reportCount, ByteString checksum) {
    this(taskId, batch, aggregationParameter, aggregateShare, reportCount, checksum,
        BucketBudgets.UNKNOWN);
  }
}
