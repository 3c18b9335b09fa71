package org.priodp.aggregator.datastore;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.ReportId;

/**
 * A task's client reports inside a {@link TaskTransaction}: the reports the Leader stores on
 * upload ({@code client_reports}, DAP-18 "Uploading Reports") until an aggregation job claims
 * them, and, for both roles, the IDs of reports committed to a batch bucket ({@code
 * aggregated_reports}, DAP-18 "Aggregation Job Execution"), which replay checks consult. Times
 * are in time_precision units, unsigned.
 */
public interface ClientReportRepository {
  /**
   * Stores an uploaded report (DAP-18 "Upload Request", "Leader Behavior") unless the task already
   * holds a report with this ID: {@code reportTime} is the report's time, {@code encodedReport}
   * the encoded Report; the row is not yet claimed by an aggregation job. Insert-if-absent on
   * (task, report ID), so of two concurrent inserts of one ID, from any processes, exactly one
   * stores a row. Returns whether this call inserted; false leaves the stored row as it was.
   */
  boolean insertIfAbsent(ReportId id, long reportTime, ByteString encodedReport);

  /** Returns the encoded Report the task stores under this report ID, if any. */
  Optional<ByteString> get(ReportId id);

  /**
   * Returns the reports claimed by the Leader aggregation job, ordered by report time and then
   * report ID (the order of its AggregationJobInitReq, DAP-18 "Leader Initialization").
   */
  List<LeaderJobReport> claimedBy(AggregationJobId jobId);

  /**
   * Returns whether the task has, in [fromInclusive, toExclusive), an unclaimed client report or
   * an {@code active} Leader aggregation job whose reports' times [min_report_time,
   * max_report_time] meet the interval: reports the Helper may still commit to buckets of the
   * interval, which the Leader waits for before it collects (DAP-18 "Collection Job
   * Initialization").
   */
  boolean outstanding(long fromInclusive, long toExclusive);

  /** Returns whether the report ID was committed to a batch bucket of the task (replay check). */
  boolean aggregated(ReportId reportId);

  /**
   * Returns which of these report IDs were committed to a batch bucket of the task (the replay
   * check of a whole job in a few queries).
   */
  Set<ReportId> aggregatedAmong(Collection<ReportId> ids);

  /** Records that the report was committed by the job, for later replay checks. */
  void insertAggregated(ReportId reportId, AggregationJobId jobId);

  /**
   * Records that the report, whose time is {@code reportTime}, was committed by the job, so that
   * retention can later collect the ID together with the rule that rejects reports older than the
   * cutoff.
   */
  void insertAggregated(ReportId reportId, AggregationJobId jobId, long reportTime);

  /** Records that the reports (ID to time) were committed by the job, in one batch. */
  void insertAggregated(AggregationJobId jobId, Map<ReportId, Long> reportTimes);

  /**
   * Returns the Leader's reports claimed by this job to the pool of unclaimed reports, so that a
   * job created at or after {@code retryAfter} takes them (DAP-19 "Leader Initialization": a
   * report the Helper rejected with report_too_early or unknown_verification_key_id may go into
   * a subsequent job); lowers the job's report count by as many; returns how many were
   * returned.
   */
  int unclaim(AggregationJobId jobId, Collection<ReportId> reportIds, java.time.Instant retryAfter);

  /**
   * Returns how many Leader aggregation jobs, this one included, claimed each report this job
   * claimed (its placements: a report re-placed after report_too_early is given up after a
   * bounded number).
   */
  Map<ReportId, Integer> placements(AggregationJobId jobId);

  /**
   * As {@link #unclaim}, for reports the job could not send (no request the Helper had not seen
   * could carry them): their placement by this job does not count.
   */
  int unclaimUnsent(AggregationJobId jobId, Collection<ReportId> reportIds,
      java.time.Instant retryAfter);

  /**
   * Returns how many of the task's reports are committed to a batch bucket (DAP-18 "Aggregation
   * Job Execution"): the progress of aggregation.
   */
  long aggregatedCount();
}
