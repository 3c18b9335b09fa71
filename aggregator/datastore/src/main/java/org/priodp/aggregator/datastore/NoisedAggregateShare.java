package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;

/**
 * The noised aggregate share of one batch, persisted before it is released so that noise is drawn
 * once per batch (DESIGN.md non-negotiable 3; DAP-18 "Obtaining Aggregate Shares": a batch is
 * collected once). Keyed by (task, batch); records the aggregation parameter, the request's
 * report count and checksum, the SHA-256 digest of the AggregateShareReq encoding, and the
 * creation time (kept to the millisecond).
 */
public record NoisedAggregateShare(TaskId taskId, BatchIdentifier batch,
    ByteString aggregationParameter, long reportCount, ByteString checksum,
    ByteString requestDigest, ByteString noisedShare, Instant createdAt) {
  /** Validates the fields; createdAt is truncated to milliseconds. */
  public NoisedAggregateShare {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(aggregationParameter, "aggregationParameter");
    StoreValues.checksum(checksum);
    StoreValues.digest(requestDigest, "requestDigest");
    Objects.requireNonNull(noisedShare, "noisedShare");
    createdAt = StoreValues.millis(createdAt);
  }
}
