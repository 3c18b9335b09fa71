package org.priodp.aggregator.datastore;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;

/**
 * The leases that hand the Leader's aggregation jobs and collection jobs to one driver at a time,
 * in any process sharing the database (DAP-18 "Distributed Systems and Synchronization
 * Concerns"). A lease is taken in a short transaction of its own that picks a due row (PostgreSQL:
 * {@code SELECT ... FOR UPDATE SKIP LOCKED}, so concurrent drivers take different jobs; SQLite:
 * the database write lock) and is given back by one statement that checks the lease token, so a
 * driver whose lease expired and was taken over changes nothing. These run outside task
 * transactions: a lease must not wait for the task's work.
 */
public interface JobLeaseRepository {
  /**
   * Leases one active Leader aggregation job of one of {@code tasks} whose lease is free or
   * expired at {@code now}, oldest first: writes {@code owner}, {@code token} and an expiry of
   * {@code now + lease}, and counts the attempt. Returns the job as leased, with the expired
   * lease it took over if its holder never gave it back, or empty if none is available.
   */
  Optional<LeasedAggregationJob> takeAggregationJob(Collection<TaskId> tasks, String owner,
      ByteString token, Instant now, Duration lease);

  /** Leases a job as {@link #takeAggregationJob} does; returns the job as leased. */
  default Optional<LeaderAggregationJob> leaseAggregationJob(Collection<TaskId> tasks,
      String owner, ByteString token, Instant now, Duration lease) {
    return takeAggregationJob(tasks, owner, token, now, lease).map(LeasedAggregationJob::job);
  }

  /**
   * If the Leader job is active and leased with {@code token}: moves its lease's expiry to
   * {@code expiresAt} (a heartbeat of the lessee still working on it); returns whether it did,
   * false meaning the lease was taken over or given back.
   */
  boolean renewAggregationJob(TaskId taskId, AggregationJobId jobId, ByteString token,
      Instant expiresAt);

  /**
   * If the collection job is pending and leased with the lease's token: moves its expiry to
   * {@code expiresAt}; returns whether it did.
   */
  boolean renewCollectionJob(CollectionJobLease lease, Instant expiresAt);

  /**
   * Frees every lease of an active aggregation job or a pending collection job held by {@code
   * owner}, of any task: a replica starting under its stable name calls it before its workers
   * run, since no worker of it can hold them (they were held by its previous run, stopped or
   * killed). The jobs may be leased at once, by anyone. Returns how many leases it freed.
   */
  int releaseLeasesOf(String owner, Instant now);

  /**
   * If the Leader job is active and leased with {@code token}: frees its lease until {@code
   * retryAt} (a later attempt may lease it then) and records {@code detail}; returns whether it
   * did.
   */
  boolean releaseAggregationJob(TaskId taskId, AggregationJobId jobId, ByteString token,
      Instant retryAt, String detail);

  /**
   * As {@link #releaseAggregationJob}, after a Helper call that failed for a cause that can be
   * fixed (the Helper unreachable, 5xx, a timeout, 401/403/404): also counts the failure (see
   * {@link AggregationJobRepository#leaderHelperFailures}); returns whether it did.
   */
  boolean failAggregationJob(TaskId taskId, AggregationJobId jobId, ByteString token,
      Instant retryAt, String detail);

  /**
   * If the Leader job is active and leased with {@code token}: marks it abandoned with {@code
   * detail} (DAP-18 "Aggregation Job Abandonment and Deletion"; its reports stay claimed and are
   * not aggregated); returns whether it did.
   */
  boolean abandonAggregationJob(TaskId taskId, AggregationJobId jobId, ByteString token,
      String detail, Instant now);

  /**
   * Leases one pending collection job of the task whose lease has expired (lease_expires_ms at or
   * before {@code now}; 0 means free, a later time set by {@link #postponeCollectionJob} means
   * "not before"), oldest lease first: writes a fresh random token, the owner, {@code now +
   * leaseFor} and one more attempt. Empty if no job is due.
   */
  Optional<CollectionJobLease> leaseCollectionJob(TaskId taskId, String owner, Instant now,
      Duration leaseFor);

  /**
   * Finishes a leased collection job in one statement that checks the lease: state {@code ready}
   * with the encoded CollectionJobResp, or {@code failed} with an error type (null when the Helper
   * named none) and detail; clears the lease. Returns false, changing nothing, if the job is no
   * longer pending under this lease token (taken over after expiry, or deleted).
   */
  boolean finishCollectionJob(CollectionJobLease lease, CollectionJobRecord.State state,
      ByteString response, String errorType, String errorDetail, Instant now);

  /**
   * Gives a leased collection job back, still pending, to be leased again at or after {@code
   * retryAt}; returns false if the lease token no longer matches.
   */
  boolean postponeCollectionJob(CollectionJobLease lease, Instant retryAt, Instant now);
}
