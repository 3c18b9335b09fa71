package org.priodp.aggregator.datastore;

import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.TaskId;

/**
 * The reads and writes of one task inside one database transaction that is serialized with every
 * other {@link AggregateShareStore#inTaskTransaction task transaction} of the same task, in this
 * process and in any other process on the same database (DESIGN.md non-negotiable 3). What the
 * work reads cannot change before it commits, so a check-then-insert inside it is atomic. Valid
 * only during the call that received it.
 */
public interface TaskTransaction {
  /** Returns the task this transaction holds. */
  TaskId taskId();

  /** Returns the noised share of a batch, if any. */
  Optional<NoisedAggregateShare> noisedShare(BatchIdentifier batch);

  /** Returns the batch aggregation (bucket) with this identifier, if any. */
  Optional<BatchAggregation> batchAggregation(BatchIdentifier batch);

  /**
   * Returns the task's batch aggregations whose identifiers lie in [fromInclusive, toExclusive)
   * in unsigned byte-wise order, sorted by identifier.
   */
  List<BatchAggregation> batchAggregations(BatchIdentifier fromInclusive,
      BatchIdentifier toExclusive);

  /** Returns whether a released batch of the task covers any point of {@code range}. */
  boolean collectedIntervalOverlaps(CollectedInterval range);

  /**
   * Inserts the noised share of a new batch and, for a time-interval batch, the range it covers;
   * throws {@link StoreException} if the batch already has one (the caller checked first, under
   * the same transaction, so this means a bug).
   */
  void insertNoisedShare(NoisedAggregateShare share, Optional<CollectedInterval> range);

  /** Inserts or replaces the batch aggregation (bucket) with this identifier. */
  void putBatchAggregation(BatchAggregation aggregation);

  /** Returns whether the report ID was committed to a batch bucket of the task (replay check). */
  boolean reportAggregated(org.priodp.aggregator.dap.ReportId reportId);

  /** Records that the report was committed by the job, for later replay checks. */
  void insertAggregatedReport(org.priodp.aggregator.dap.ReportId reportId,
      org.priodp.aggregator.dap.AggregationJobId jobId);

  /**
   * Records that the report, whose time is {@code reportTime} (time_precision units), was
   * committed by the job, so that retention can later collect the ID together with the rule
   * that rejects reports older than the cutoff.
   */
  void insertAggregatedReport(org.priodp.aggregator.dap.ReportId reportId,
      org.priodp.aggregator.dap.AggregationJobId jobId, long reportTime);

  /**
   * Returns the task's retention cutoff (time_precision units, unsigned): report IDs of reports
   * older than it may have been deleted, so such reports must be rejected (report_dropped).
   * Empty if nothing was ever collected.
   */
  Optional<Long> retentionCutoff();

  /**
   * Collects the task's expired rows (DAP-18 "Reducing Storage Requirements"): first raises the
   * stored retention cutoff to {@code cutoff} (never lowers it), then deletes the report IDs
   * whose time is below the stored cutoff and the finished (ready, failed, abandoned)
   * aggregation jobs created before {@code jobsCreatedBefore}, and the Leader's uploaded reports
   * below the cutoff that no active Leader aggregation job holds (counted with the report IDs).
   * Noised and released shares and collected intervals are never touched.
   */
  RetentionCounts collectExpired(long cutoff, java.time.Instant jobsCreatedBefore);

  /** Returns the time ranges of the task's released time-interval batches, by start. */
  List<CollectedInterval> collectedIntervals();

  /**
   * Deletes the task's batch aggregations (buckets) whose identifiers lie in [fromInclusive,
   * toExclusive) in unsigned byte-wise order; returns how many.
   */
  int deleteBatchAggregations(BatchIdentifier fromInclusive, BatchIdentifier toExclusive);

  /** What {@link #collectExpired} deleted. */
  record RetentionCounts(long cutoff, int reports, int jobs, int buckets) {
    /** Counts without buckets (the store step deletes none). */
    public RetentionCounts(long cutoff, int reports, int jobs) {
      this(cutoff, reports, jobs, 0);
    }
  }

  /** Returns the aggregation job with this id, if any. */
  Optional<AggregationJobRecord> aggregationJob(org.priodp.aggregator.dap.AggregationJobId jobId);

  /** Inserts or replaces the aggregation job. */
  void putAggregationJob(AggregationJobRecord job);

  // ---- issue 17, the Leader's report upload (client_reports, migration 6) ----

  /**
   * Stores an uploaded report in {@code client_reports} (DAP-18 "Upload Request", "Leader
   * Behavior") unless the task already holds a report with this ID: {@code reportTime} is the
   * report's time in time_precision units (unsigned), {@code encodedReport} the encoded Report;
   * the row is not yet claimed by an aggregation job. Insert-if-absent on (task, report ID), so
   * of two concurrent inserts of one ID, from any processes, exactly one stores a row. Returns
   * whether this call inserted; false leaves the stored row as it was.
   */
  boolean insertClientReport(org.priodp.aggregator.dap.ReportId id, long reportTime,
      org.priodp.aggregator.dap.ByteString encodedReport);

  /** Returns the encoded Report the task stores under this report ID, if any. */
  Optional<org.priodp.aggregator.dap.ByteString> clientReport(
      org.priodp.aggregator.dap.ReportId id);

  // --- The Leader's collection jobs (issue 17, collection part) ---

  /** Returns the collection job with this id, in any state, if any. */
  Optional<CollectionJobRecord> collectionJob(org.priodp.aggregator.dap.CollectionJobId jobId);

  /** Returns the task's collection jobs in the given states, oldest first. */
  List<CollectionJobRecord> collectionJobs(java.util.Set<CollectionJobRecord.State> states);

  /** Inserts a new collection job (free, lease_expires_ms 0); StoreException if the id exists. */
  void insertCollectionJob(CollectionJobRecord job);

  /**
   * Sets the state of a collection job (for a job the Collector deleted and POSTs again), leaving
   * its response, error and lease columns as they are; returns whether it exists.
   */
  boolean setCollectionJobState(org.priodp.aggregator.dap.CollectionJobId jobId,
      CollectionJobRecord.State state, java.time.Instant now);

  /** Sets the batch a leader-selected collection job collects; returns whether it exists. */
  boolean setCollectionJobBatch(org.priodp.aggregator.dap.CollectionJobId jobId,
      BatchIdentifier batch, java.time.Instant now);

  /**
   * Returns whether the task has, in [fromInclusive, toExclusive) (time_precision units), an
   * unclaimed client report or an {@code active} Leader aggregation job whose report times meet
   * the interval: reports the Helper may still commit to buckets of the interval.
   */
  boolean clientReportsOutstanding(long fromInclusive, long toExclusive);

  /** Returns whether an {@code active} Leader aggregation job aggregates into this batch. */
  boolean leaderAggregationActive(BatchIdentifier batch);

  // ---- Leader aggregation (issue 17, the Leader's aggregation driver) ----

  /**
   * Claims up to {@code maxReports} of the task's unclaimed client reports, oldest first (then by
   * report ID), for a new active job {@code jobId} with a free lease and, in leader-selected
   * mode, its {@code batch}, if at least {@code minReports} are unclaimed (DAP-18 "Leader
   * Initialization"); returns the job, or empty if too few reports are pending.
   */
  Optional<LeaderAggregationJob> createLeaderAggregationJob(
      org.priodp.aggregator.dap.AggregationJobId jobId, int maxReports, int minReports,
      Optional<BatchIdentifier> batch, java.time.Instant now);

  /**
   * Returns a leader-selected batch of the task whose non-abandoned jobs have claimed fewer than
   * {@code target} reports, with that number, if there is one.
   */
  Optional<LeaderBatchFill> openLeaderBatch(long target);

  /** A leader-selected batch and how many reports jobs have claimed for it. */
  record LeaderBatchFill(BatchIdentifier batch, long reports) {}

  /** Returns the Leader aggregation job with this id, if any. */
  Optional<LeaderAggregationJob> leaderAggregationJob(
      org.priodp.aggregator.dap.AggregationJobId jobId);

  /** Marks the Leader aggregation job finished and frees its lease. */
  void finishLeaderAggregationJob(org.priodp.aggregator.dap.AggregationJobId jobId,
      java.time.Instant now);

  /**
   * Returns which of these report IDs were committed to a batch bucket of the task (the replay
   * check of a whole job in a few queries).
   */
  java.util.Set<org.priodp.aggregator.dap.ReportId> aggregatedAmong(
      java.util.Collection<org.priodp.aggregator.dap.ReportId> ids);

  /**
   * Records that the reports (ID to time in time_precision units) were committed by the job, in
   * one batch.
   */
  void insertAggregatedReports(org.priodp.aggregator.dap.AggregationJobId jobId,
      java.util.Map<org.priodp.aggregator.dap.ReportId, Long> reportTimes);
}
