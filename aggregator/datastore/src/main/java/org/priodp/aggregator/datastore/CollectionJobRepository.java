package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.CollectionJobId;

/**
 * The Leader's collection jobs of a task inside a {@link TaskTransaction} (DAP-18 "Collection Job
 * Initialization", "Collection Job Deletion"). Leasing a pending job to a driver, and finishing
 * it under the lease, is {@link JobLeaseRepository}'s.
 */
public interface CollectionJobRepository {
  /** Returns the collection job with this id, in any state, if any. */
  Optional<CollectionJobRecord> get(CollectionJobId jobId);

  /** Returns the task's collection jobs in the given states, oldest first. */
  List<CollectionJobRecord> inStates(Set<CollectionJobRecord.State> states);

  /**
   * Inserts a new collection job (free, lease_expires_ms 0); {@link DatastoreException} if the id
   * exists.
   */
  void insert(CollectionJobRecord job);

  /**
   * Sets the state of a collection job (for a job the Collector deleted and POSTs again), leaving
   * its response, error and lease columns as they are; returns whether it exists.
   */
  boolean setState(CollectionJobId jobId, CollectionJobRecord.State state, Instant now);

  /** Sets the batch a leader-selected collection job collects; returns whether it exists. */
  boolean setBatch(CollectionJobId jobId, BatchIdentifier batch, Instant now);

  /**
   * Marks the collection job deleted unless it is unknown or already deleted; returns whether it
   * changed. Released shares, collected intervals and the job's response stay (DAP-18 "Collection
   * Job Deletion": nothing the double-collection checks need is deleted).
   */
  boolean delete(CollectionJobId jobId, Instant now);

  /**
   * Records that the job's CollectionJobResp is being answered to the Collector (DAP-18
   * "Collection Job Initialization"); the first time counts. Returns whether it changed: false if
   * the job is unknown, has no response or was answered before.
   */
  boolean markDelivered(CollectionJobId jobId, Instant now);

  /**
   * Returns the batches of the task's collection jobs, in any state, whose CollectionJobResp was
   * answered to the Collector ({@link #markDelivered}): the batches the Collector has.
   */
  Set<BatchIdentifier> deliveredBatches();
}
