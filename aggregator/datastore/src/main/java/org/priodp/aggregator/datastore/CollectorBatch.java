package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.CollectionJobId;

/**
 * The batch of one collection job of a collector_selected task (draft-ietf-ppm-dap-attribution-00
 * section 4): the batch identifier the Leader assigned when the job was created, how many reports
 * were stored by uploads to the job, and when the Collector's first GET closed it (empty while
 * uploads are accepted). Immutable.
 *
 * @param jobId the collection job
 * @param batch the batch identifier (the encoding of its batch selector)
 * @param uploaded how many reports uploads to the job stored
 * @param closedAt when the batch closed, if it did
 */
public record CollectorBatch(CollectionJobId jobId, BatchIdentifier batch, long uploaded,
    Optional<Instant> closedAt) {
  /** Rejects null fields and a negative count. */
  public CollectorBatch {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(closedAt, "closedAt");
    if (uploaded < 0) {
      throw new IllegalArgumentException("uploaded must not be negative, got " + uploaded);
    }
  }

  /** Returns whether uploads to the job are refused from now on. */
  public boolean closed() {
    return closedAt.isPresent();
  }
}
