package org.priodp.aggregator.store;

import java.util.Arrays;
import java.util.Objects;
import org.priodp.aggregator.dap.TaskId;

/**
 * An un-noised batch aggregation written by the host aggregator: the merged aggregate share of a
 * batch bucket with its report count and checksum (DAP-18 "Batch Buckets", "Obtaining Aggregate
 * Shares"). The batch identifier is opaque to the store; for ordered range reads use an encoding
 * whose byte order matches the bucket order (e.g. an encoded DAP Interval, big-endian).
 */
public record BatchAggregation(TaskId taskId, byte[] batchIdentifier, byte[] aggregationParameter,
    byte[] aggregateShare, long reportCount, byte[] checksum) {
  /** Validates and copies the fields. */
  public BatchAggregation {
    Objects.requireNonNull(taskId, "taskId");
    batchIdentifier = StoreValues.nonEmpty(batchIdentifier, "batchIdentifier");
    aggregationParameter = Objects.requireNonNull(aggregationParameter, "aggregationParameter").clone();
    aggregateShare = Objects.requireNonNull(aggregateShare, "aggregateShare").clone();
    checksum = StoreValues.checksum(checksum);
  }

  /** Returns a copy of the batch identifier. */
  @Override
  public byte[] batchIdentifier() {
    return batchIdentifier.clone();
  }

  /** Returns a copy of the aggregation parameter. */
  @Override
  public byte[] aggregationParameter() {
    return aggregationParameter.clone();
  }

  /** Returns a copy of the un-noised aggregate share. */
  @Override
  public byte[] aggregateShare() {
    return aggregateShare.clone();
  }

  /** Returns a copy of the checksum. */
  @Override
  public byte[] checksum() {
    return checksum.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BatchAggregation b && b.taskId.equals(taskId)
        && Arrays.equals(b.batchIdentifier, batchIdentifier)
        && Arrays.equals(b.aggregationParameter, aggregationParameter)
        && Arrays.equals(b.aggregateShare, aggregateShare) && b.reportCount == reportCount
        && Arrays.equals(b.checksum, checksum);
  }

  @Override
  public int hashCode() {
    return Objects.hash(taskId, Arrays.hashCode(batchIdentifier), reportCount);
  }

  @Override
  public String toString() {
    return "BatchAggregation[" + taskId + ", batch=" + StoreValues.hex(batchIdentifier)
        + ", reportCount=" + Long.toUnsignedString(reportCount) + ", share=" + aggregateShare.length
        + " bytes]";
  }
}
