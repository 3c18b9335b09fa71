package org.priodp.aggregator.store;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.priodp.aggregator.dap.TaskId;

/**
 * The encoded {@code AggregateShare} (an HPKE ciphertext of the noised share) released for one
 * batch (DAP-18 "Obtaining Aggregate Shares", "Aggregate Share Encryption"). HPKE SealBase is
 * randomized, so the sealed bytes are persisted once, before they leave the process, and every
 * repeat of the request returns exactly these bytes. Keyed by (task, batch identifier); records the
 * SHA-256 digest of the request that produced it.
 */
public record ReleasedAggregateShare(TaskId taskId, byte[] batchIdentifier, byte[] requestDigest,
    byte[] aggregateShare, Instant createdAt) {
  /** Validates and copies the fields; createdAt is truncated to milliseconds. */
  public ReleasedAggregateShare {
    Objects.requireNonNull(taskId, "taskId");
    batchIdentifier = StoreValues.nonEmpty(batchIdentifier, "batchIdentifier");
    requestDigest = StoreValues.fixed(requestDigest, StoreValues.DIGEST_LENGTH, "requestDigest");
    aggregateShare = StoreValues.nonEmpty(aggregateShare, "aggregateShare");
    createdAt = StoreValues.millis(createdAt);
  }

  /** Returns a copy of the batch identifier. */
  @Override
  public byte[] batchIdentifier() {
    return batchIdentifier.clone();
  }

  /** Returns a copy of the request digest. */
  @Override
  public byte[] requestDigest() {
    return requestDigest.clone();
  }

  /** Returns a copy of the encoded AggregateShare. */
  @Override
  public byte[] aggregateShare() {
    return aggregateShare.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReleasedAggregateShare r && r.taskId.equals(taskId)
        && Arrays.equals(r.batchIdentifier, batchIdentifier)
        && Arrays.equals(r.requestDigest, requestDigest)
        && Arrays.equals(r.aggregateShare, aggregateShare) && r.createdAt.equals(createdAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(taskId, Arrays.hashCode(batchIdentifier), Arrays.hashCode(aggregateShare));
  }

  @Override
  public String toString() {
    return "ReleasedAggregateShare[" + taskId + ", batch=" + StoreValues.hex(batchIdentifier)
        + ", " + aggregateShare.length + " bytes, createdAt=" + createdAt + "]";
  }
}
