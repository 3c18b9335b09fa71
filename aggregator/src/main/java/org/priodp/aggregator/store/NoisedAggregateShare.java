package org.priodp.aggregator.store;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.priodp.aggregator.dap.TaskId;

/**
 * The noised aggregate share of one batch, persisted before it is released so that noise is drawn
 * once per batch (DESIGN.md non-negotiable 3; DAP-18 "Obtaining Aggregate Shares": a batch is
 * collected once). Keyed by (task, batch identifier); records the aggregation parameter, the
 * request's report count and checksum, the SHA-256 digest of the AggregateShareReq encoding, and
 * the creation time (kept to the millisecond).
 */
public record NoisedAggregateShare(TaskId taskId, byte[] batchIdentifier, byte[] aggregationParameter,
    long reportCount, byte[] checksum, byte[] requestDigest, byte[] noisedShare, Instant createdAt) {
  /** Validates and copies the fields; createdAt is truncated to milliseconds. */
  public NoisedAggregateShare {
    Objects.requireNonNull(taskId, "taskId");
    batchIdentifier = StoreValues.nonEmpty(batchIdentifier, "batchIdentifier");
    aggregationParameter = Objects.requireNonNull(aggregationParameter, "aggregationParameter").clone();
    checksum = StoreValues.checksum(checksum);
    requestDigest = StoreValues.fixed(requestDigest, StoreValues.DIGEST_LENGTH, "requestDigest");
    noisedShare = Objects.requireNonNull(noisedShare, "noisedShare").clone();
    createdAt = StoreValues.millis(createdAt);
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

  /** Returns a copy of the checksum. */
  @Override
  public byte[] checksum() {
    return checksum.clone();
  }

  /** Returns a copy of the request digest. */
  @Override
  public byte[] requestDigest() {
    return requestDigest.clone();
  }

  /** Returns a copy of the noised share. */
  @Override
  public byte[] noisedShare() {
    return noisedShare.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NoisedAggregateShare n && n.taskId.equals(taskId)
        && Arrays.equals(n.batchIdentifier, batchIdentifier)
        && Arrays.equals(n.aggregationParameter, aggregationParameter)
        && n.reportCount == reportCount && Arrays.equals(n.checksum, checksum)
        && Arrays.equals(n.requestDigest, requestDigest) && Arrays.equals(n.noisedShare, noisedShare)
        && n.createdAt.equals(createdAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(taskId, Arrays.hashCode(batchIdentifier), Arrays.hashCode(noisedShare));
  }

  @Override
  public String toString() {
    return "NoisedAggregateShare[" + taskId + ", batch=" + StoreValues.hex(batchIdentifier)
        + ", reportCount=" + Long.toUnsignedString(reportCount) + ", share=" + noisedShare.length
        + " bytes, createdAt=" + createdAt + "]";
  }
}
