package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;

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
   * Claims up to {@code maxReports} unclaimed reports uploaded to one collector-selected batch
   * (draft-ietf-ppm-dap-attribution-00 section 4; {@link CollectorBatchRepository}), oldest first,
   * for a new active Leader job {@code jobId} of that batch; returns the job, or empty if no
   * such report is pending.
   */
  Optional<LeaderAggregationJob> createLeaderOfUploadedBatch(AggregationJobId jobId,
      int maxReports, Instant now);

  /**
   * Returns the verification_key_id the Leader chose for this job of its own, if it chose one
   * (DAP-19 "Leader Initialization": every attempt of a job must send the same request).
   */
  Optional<Integer> leaderVerificationKeyId(AggregationJobId jobId);

  /** Records the verification_key_id the Leader chose for this job of its own. */
  void setLeaderVerificationKeyId(AggregationJobId jobId, int verificationKeyId);

  /**
   * The AggregationJobInitReq a Leader job sends, fixed at its first attempt (DAP-19 "Leader
   * Initialization", "Resource Creation"): {@code orderSalt} orders its reports, {@code digest} is
   * the SHA-256 of the encoded request; or, for a job active when migration 12 ran, which may
   * have sent its first request already, {@link #LEGACY_ORDER} and no digest (empty): the order
   * of report time, then report ID.
   */
  record LeaderRequest(int orderSalt, ByteString digest) {
    /** The salt of a job from before migration 12. */
    public static final int LEGACY_ORDER = -1;

    /** Validates the digest (32 bytes; empty for the legacy order) and the salt. */
    public LeaderRequest {
      java.util.Objects.requireNonNull(digest, "digest");
      if (orderSalt == LEGACY_ORDER ? digest.length() != 0
          : digest.length() != 32 || orderSalt < 0) {
        throw new IllegalArgumentException("need a SHA-256 digest and a salt >= 0");
      }
    }
  }

  /** Returns the request this Leader job of its own fixed at its first attempt, if it did. */
  Optional<LeaderRequest> leaderRequest(AggregationJobId jobId);

  /**
   * Returns whether a Leader job of the task already fixed a request with this digest: the
   * Helper would answer an identical request from that job's stored answer.
   */
  boolean leaderRequestSent(ByteString digest);

  /** Records the request the Leader job fixed at its first attempt. */
  void setLeaderRequest(AggregationJobId jobId, LeaderRequest request);

  /**
   * Returns how many of the Leader job's Helper calls failed for a cause that can be fixed (see
   * {@link JobLeaseRepository#failAggregationJob}); 0 for an unknown job.
   */
  int leaderHelperFailures(AggregationJobId jobId);

  /** Returns the task's Leader aggregation jobs in these states, oldest first. */
  java.util.List<LeaderAggregationJob> leaderJobs(java.util.Collection<LeaderAggregationJob.State> states);

  /**
   * Puts the reports of an abandoned Leader job back into the pool (DAP-18 "Aggregation Job
   * Abandonment and Deletion": the Leader may place them in a new job): every report it claimed
   * that is not committed to a bucket becomes unclaimed and claimable at once, in this
   * transaction; the job stays abandoned, with {@code note} added to its detail and no reports.
   * Returns how many reports went back, or empty if the task has no abandoned job with this ID.
   */
  Optional<Integer> requeueAbandonedLeader(AggregationJobId jobId, String note, Instant now);

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
