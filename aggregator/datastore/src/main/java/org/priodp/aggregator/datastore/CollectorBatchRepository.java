package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Optional;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.ReportId;

/**
 * A task's collector-selected batches inside a {@link TaskTransaction}
 * (draft-ietf-ppm-dap-attribution-00 section 4): one per collection job, the reports uploaded to
 * it, and its closing. Because every call runs in the task transaction (serialized per task across
 * processes), an upload that checks {@link CollectorBatch#closed()} and stores its reports cannot
 * interleave with {@link #close}.
 */
public interface CollectorBatchRepository {
  /** Records the batch of a new collection job, open and empty. */
  void create(CollectionJobId jobId, BatchIdentifier batch, Instant now);

  /** Returns the batch of this collection job, if the job is collector-selected. */
  Optional<CollectorBatch> get(CollectionJobId jobId);

  /**
   * Closes the job's batch if it is open (one conditional update); returns whether this call
   * closed it.
   */
  boolean close(CollectionJobId jobId, Instant now);

  /**
   * Stores a report uploaded to the batch unless the task holds a report with this ID (as {@link
   * ClientReportRepository#insertIfAbsent}, report IDs are unique per task whatever the batch), and
   * counts it in the job's upload count; returns whether this call inserted.
   */
  boolean insertIfAbsent(CollectionJobId jobId, BatchIdentifier batch, ReportId id,
      long reportTime, ByteString encodedReport);

  /** Returns the batch a stored report was uploaded to, if any. */
  Optional<BatchIdentifier> batchOf(ReportId id);

  /**
   * Returns whether a report uploaded to the batch is unclaimed or in an active Leader
   * aggregation job: the batch may still grow in the buckets.
   */
  boolean outstanding(BatchIdentifier batch);
}
