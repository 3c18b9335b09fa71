package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;

/**
 * The HTTP resource {@code {helper}/tasks/{task-id}/aggregate_shares/{aggregate-share-id}} (DAP-18
 * "Obtaining Aggregate Shares", "Aggregate Share Deletion"): which batch it serves and the SHA-256
 * digest of the request that created it, so that a byte-identical repeat finds it again (DAP-18
 * "Resource Creation"). Deleting it never deletes the noised share.
 */
public record AggregateShareResource(TaskId taskId, AggregateShareId id, BatchIdentifier batch,
    ByteString requestDigest, Instant createdAt) {
  /** Validates the fields; createdAt is truncated to milliseconds. */
  public AggregateShareResource {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(batch, "batch");
    StoreValues.digest(requestDigest, "requestDigest");
    createdAt = StoreValues.millis(createdAt);
  }
}
