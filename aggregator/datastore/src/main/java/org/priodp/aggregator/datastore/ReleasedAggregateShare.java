package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;

/**
 * The encoded {@code AggregateShare} (an HPKE ciphertext of the noised share) released for one
 * batch (DAP-18 "Obtaining Aggregate Shares", "Aggregate Share Encryption"). HPKE SealBase is
 * randomized, so the sealed bytes are persisted once, before they leave the process, and every
 * repeat of the request returns exactly these bytes. Keyed by (task, batch); records the SHA-256
 * digest of the request that produced it. The creation time is kept to the millisecond.
 */
public record ReleasedAggregateShare(TaskId taskId, BatchIdentifier batch, ByteString requestDigest,
    ByteString aggregateShare, Instant createdAt) {
  /** Validates the fields; createdAt is truncated to milliseconds. */
  public ReleasedAggregateShare {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(batch, "batch");
    StoreValues.digest(requestDigest, "requestDigest");
    StoreValues.nonEmpty(aggregateShare, "aggregateShare");
    createdAt = StoreValues.millis(createdAt);
  }
}
