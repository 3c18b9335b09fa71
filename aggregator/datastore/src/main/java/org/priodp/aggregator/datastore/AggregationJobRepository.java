package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregationJobId;

/**
 * A task's aggregation jobs inside a {@link TaskTransaction}: the Helper's ({@link
 * AggregationJobRecord}, DAP-18 "Helper Initialization", "Helper Continuation") and the Leader's
 * ({@link LeaderAggregationJob}, DAP-18 "Leader Initialization"), which claim the task's uploaded
 * reports. Leasing a Leader job to a driver is {@link JobLeaseRepository}'s.
 */
public interface AggregationJobRepository {
  /** Returns the Helper aggregation job with this id, if any. */
  Optional<AggregationJobRecord> get(AggregationJobId jobId);

  /** Inserts or replaces the Helper aggregation job. */
  void put(AggregationJobRecord job);

  /**
   * Claims up to {@code maxReports} of the task's unclaimed client reports, oldest first (then by
   * report ID), for a new active Leader job {@code jobId} with a free lease and, in
   * leader-selected mode, its {@code batch}, if at least {@code minReports} are unclaimed (DAP-18
   * "Leader Initialization"); returns the job, or empty if too few reports are pending.
   */
  Optional<LeaderAggregationJob> createLeader(AggregationJobId jobId, int maxReports,
      int minReports, Optional<BatchIdentifier> batch, Instant now);

  /**
   * Returns the verification_key_id the Leader chose for this job of its own, if it chose one
   * (DAP-19 "Leader Initialization": every attempt of a job must send the same request).
   */
  Optional<Integer> leaderVerificationKeyId(AggregationJobId jobId);

  /** Records the verification_key_id the Leader chose for this job of its own. */
  void setLeaderVerificationKeyId(AggregationJobId jobId, int verificationKeyId);

  /** Returns the Leader aggregation job with this id, if any. */
  Optional<LeaderAggregationJob> leader(AggregationJobId jobId);

  /** Marks the Leader aggregation job finished and frees its lease. */
  void finishLeader(AggregationJobId jobId, Instant now);

  /**
   * Returns a leader-selected batch of the task whose non-abandoned Leader jobs have claimed fewer
   * than {@code target} reports, with that number, if there is one (DAP-18 "Leader-Selected Batch
   * Mode": the Leader assigns reports to batches).
   */
  Optional<LeaderBatchFill> openLeaderBatch(long target);

  /** A leader-selected batch and how many reports jobs have claimed for it. */
  record LeaderBatchFill(BatchIdentifier batch, long reports) {}

  /** Returns whether an {@code active} Leader aggregation job aggregates into this batch. */
  boolean leaderActive(BatchIdentifier batch);

  /**
   * Returns [the smallest min_report_time, the largest max_report_time] (time_precision units) of
   * the task's finished Leader aggregation jobs of this batch, or empty if it has none.
   */
  Optional<long[]> leaderReportSpan(BatchIdentifier batch);
}
