package org.priodp.aggregator.datastore;

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

  // --- The Leader's collection jobs (issue 17, collection part) ---

  /** Returns the collection job (task, id) in any state, if any. */
  Optional<CollectionJobRecord> collectionJob(TaskId taskId,
      org.priodp.aggregator.dap.CollectionJobId jobId);

  /**
   * Marks the collection job deleted unless it is unknown or already deleted; returns whether it
   * changed. Released shares, collected intervals and the job's response stay (DAP-18
   * "Collection Job Deletion": nothing the double-collection checks need is deleted).
   */
  boolean deleteCollectionJob(TaskId taskId, org.priodp.aggregator.dap.CollectionJobId jobId,
      java.time.Instant now);

  /**
   * Leases one pending collection job of the task whose lease has expired (lease_expires_ms at
   * or before {@code now}; 0 means free, a later time set by {@link #postponeCollectionJob} means
   * "not before"), oldest lease first: in one transaction it picks the row (PostgreSQL: {@code
   * SELECT ... FOR UPDATE SKIP LOCKED}, so concurrent processes pick different jobs; SQLite:
   * the database write lock), writes a fresh random token, the owner, {@code now + leaseFor}
   * and one more attempt, and commits. Empty if no job is due.
   */
  Optional<CollectionJobLease> leaseCollectionJob(TaskId taskId, String owner,
      java.time.Instant now, java.time.Duration leaseFor);

  /**
   * Finishes a leased job in one statement that checks the lease: state {@code ready} with the
   * encoded CollectionJobResp, or {@code failed} with an error type (null when the Helper named
   * none) and detail; clears the lease. Returns false, changing nothing, if the job is no longer
   * pending under this lease token (taken over after expiry, or deleted).
   */
  boolean finishCollectionJob(CollectionJobLease lease, CollectionJobRecord.State state,
      org.priodp.aggregator.dap.ByteString response, String errorType, String errorDetail,
      java.time.Instant now);

  /**
   * Gives a leased job back, still pending, to be leased again at or after {@code retryAt};
   * returns false if the lease token no longer matches.
   */
  boolean postponeCollectionJob(CollectionJobLease lease, java.time.Instant retryAt,
      java.time.Instant now);

  /**
   * Returns whether the task has uploaded reports with a time in [fromInclusive, toExclusive)
   * (time_precision units, unsigned) that no aggregation job has claimed yet, or an {@code
   * active} Leader aggregation job whose reports' times [min_report_time, max_report_time] meet
   * that interval: the Leader must wait for them before it collects (DAP-18 "Collection Job
   * Initialization": pending aggregation jobs that overlap the batch complete first).
   */
  boolean clientReportsOutstanding(TaskId taskId, long fromInclusive, long toExclusive);

  /**
   * Returns [the smallest min_report_time, the largest max_report_time] (time_precision units)
   * of the task's finished Leader aggregation jobs of this batch, or empty if it has none.
   */
  Optional<long[]> leaderBatchReportSpan(TaskId taskId, BatchIdentifier batch);

  // --- The Helper's asynchronous aggregate shares (issue 17, collection part) ---

  /**
   * Stores the request of an aggregate-share resource answered asynchronously unless one is
   * stored for (task, id), then returns the stored one.
   */
  AggregateShareRequest putShareRequestIfAbsent(AggregateShareRequest candidate);

  /** Returns the stored request of an asynchronous aggregate-share resource, if any. */
  Optional<AggregateShareRequest> shareRequest(TaskId taskId, AggregateShareId id);

  /** Records the DAP error an asynchronous aggregate share failed with; returns whether stored. */
  boolean failShareRequest(TaskId taskId, AggregateShareId id, String errorType,
      String errorDetail);

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

  // ---- the demo's progress (issue 17, demo part) ----

  /**
   * Returns how many of the task's reports are committed to a batch bucket (its {@code
   * aggregated_reports} rows, DAP-18 "Aggregation Job Execution"): the progress of aggregation.
   */
  long aggregatedReportCount(TaskId taskId);
}
