package org.priodp.aggregator.store;

import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.TaskId;

/**
 * What the DAP-18 aggregate-share service persists ("Obtaining Aggregate Shares", "Aggregate
 * Share Deletion"): batch aggregations written by the host, noised shares written once per batch
 * (first writer wins), and the aggregate-share resources served by GET and DELETE. Implementations
 * are thread-safe. Failures of the underlying database surface as {@link StoreException}.
 */
public interface AggregateShareStore extends AutoCloseable {
  /** Returns the schema version the database is at after migration. */
  int schemaVersion();

  /** Inserts or replaces the host's batch aggregation for (task, batch identifier). */
  void putBatchAggregation(BatchAggregation aggregation);

  /** Returns the batch aggregation for (task, batch identifier), if any. */
  Optional<BatchAggregation> batchAggregation(TaskId taskId, BatchIdentifier batch);

  /**
   * Returns the task's batch aggregations whose identifiers lie in [fromInclusive, toExclusive)
   * in unsigned byte-wise order, sorted by identifier.
   */
  List<BatchAggregation> batchAggregations(TaskId taskId, BatchIdentifier fromInclusive,
      BatchIdentifier toExclusive);

  /**
   * Runs {@code work} in one database transaction serialized with every other task transaction of
   * the same task across all processes sharing the database (PostgreSQL: a transaction-scoped
   * advisory lock on the task; SQLite: {@code BEGIN IMMEDIATE}, the database write lock). Commits
   * when {@code work} returns and rolls back when it throws, rethrowing its exception unchanged.
   */
  <T> T inTaskTransaction(TaskId taskId, TaskWork<T> work);

  /** The work of a {@link #inTaskTransaction task transaction}. */
  @FunctionalInterface
  interface TaskWork<T> {
    /** Runs inside the transaction. */
    T run(TaskTransaction tx);
  }

  /** Returns the noised share for (task, batch identifier), if any. */
  Optional<NoisedAggregateShare> noisedShare(TaskId taskId, BatchIdentifier batch);

  /** Returns the time ranges of the task's released time-interval batches, by start. */
  List<CollectedInterval> collectedIntervals(TaskId taskId);

  /**
   * Stores the released (sealed) aggregate share unless one exists for (task, batch identifier),
   * then returns the stored one: the first writer wins and every caller gets the same bytes.
   */
  ReleasedAggregateShare putReleasedShareIfAbsent(ReleasedAggregateShare candidate);

  /** Returns the released aggregate share for (task, batch identifier), if any. */
  Optional<ReleasedAggregateShare> releasedShare(TaskId taskId, BatchIdentifier batch);

  /**
   * Creates the resource unless one exists for the same (task, request digest), then returns the
   * stored one; throws StoreException if the id is taken by a different request.
   */
  AggregateShareResource createResourceIfAbsent(AggregateShareResource candidate);

  /** Returns the resource (task, id), if any. */
  Optional<AggregateShareResource> resource(TaskId taskId, AggregateShareId id);

  /** Deletes the resource (task, id), keeping the noised share; returns whether it existed. */
  boolean deleteResource(TaskId taskId, AggregateShareId id);

  /** Returns this aggregator's HPKE keys, active and retired, by config id. */
  java.util.List<HelperHpkeKey> hpkeKeys();

  /** Inserts an HPKE key unless its config id is taken; returns whether it was inserted. */
  boolean insertHpkeKey(HelperHpkeKey key);

  /** Sets the state of the key with this config id; returns whether it exists. */
  boolean setHpkeKeyState(int configId, HelperHpkeKey.State state);

  /** Returns the aggregation job (task, id), if any. */
  Optional<AggregationJobRecord> aggregationJob(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId);

  /**
   * Checks that the database answers a trivial query now; throws {@link StoreException} with the
   * cause if it does not (used by the readiness probe).
   */
  void checkReady();

  /** Releases the database connections. */
  @Override
  void close();

  // ---- Leader aggregation (issue 17, the Leader's aggregation driver) ----

  /**
   * Leases one active Leader aggregation job of one of {@code tasks} whose lease is free or
   * expired at {@code now}, oldest first, in a short transaction of its own (PostgreSQL: {@code
   * SELECT ... FOR UPDATE SKIP LOCKED}, so concurrent processes take different jobs; SQLite: the
   * database write lock): writes {@code owner}, {@code token} and an expiry of {@code now +
   * lease}, and counts the attempt. Returns the job as leased, or empty if none is available.
   */
  Optional<LeaderAggregationJob> leaseLeaderAggregationJob(java.util.Collection<TaskId> tasks,
      String owner, org.priodp.aggregator.dap.ByteString token, java.time.Instant now,
      java.time.Duration lease);

  /**
   * Returns the reports claimed by the Leader aggregation job, ordered by report time and then
   * report ID (the order of its AggregationJobInitReq).
   */
  List<LeaderJobReport> leaderJobReports(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId);

  /**
   * If the job is active and leased with {@code token}: frees its lease until {@code retryAt}
   * (a later attempt may lease it then) and records {@code detail}; returns whether it did.
   */
  boolean releaseLeaderAggregationJob(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId, org.priodp.aggregator.dap.ByteString token,
      java.time.Instant retryAt, String detail);

  /**
   * If the job is active and leased with {@code token}: marks it abandoned with {@code detail}
   * (DAP-18 "Aggregation Job Abandonment and Deletion"; its reports stay claimed and are not
   * aggregated); returns whether it did.
   */
  boolean abandonLeaderAggregationJob(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId, org.priodp.aggregator.dap.ByteString token,
      String detail, java.time.Instant now);

  /** Returns the Leader aggregation job (task, id), if any. */
  Optional<LeaderAggregationJob> leaderAggregationJob(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId);
}
