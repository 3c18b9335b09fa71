package org.priodp.aggregator.store;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.TaskId;

/**
 * The HTTP resource {@code {helper}/tasks/{task-id}/aggregate_shares/{aggregate-share-id}} (DAP-18
 * "Obtaining Aggregate Shares", "Aggregate Share Deletion"): which batch it serves and the SHA-256
 * digest of the request that created it, so that a byte-identical repeat finds it again (DAP-18
 * "Resource Creation"). Deleting it never deletes the noised share.
 */
public record AggregateShareResource(TaskId taskId, AggregateShareId id, byte[] batchIdentifier,
    byte[] requestDigest, Instant createdAt) {
  /** Validates and copies the fields; createdAt is truncated to milliseconds. */
  public AggregateShareResource {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(id, "id");
    batchIdentifier = StoreValues.nonEmpty(batchIdentifier, "batchIdentifier");
    requestDigest = StoreValues.fixed(requestDigest, StoreValues.DIGEST_LENGTH, "requestDigest");
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

  @Override
  public boolean equals(Object o) {
    return o instanceof AggregateShareResource r && r.taskId.equals(taskId) && r.id.equals(id)
        && Arrays.equals(r.batchIdentifier, batchIdentifier)
        && Arrays.equals(r.requestDigest, requestDigest) && r.createdAt.equals(createdAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(taskId, id);
  }

  @Override
  public String toString() {
    return "AggregateShareResource[" + taskId + ", " + id + ", batch="
        + StoreValues.hex(batchIdentifier) + ", createdAt=" + createdAt + "]";
  }
}
