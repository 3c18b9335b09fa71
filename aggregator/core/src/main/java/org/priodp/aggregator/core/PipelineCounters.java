package org.priodp.aggregator.core;

import java.util.Map;
import java.util.TreeMap;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.datastore.TaskTransaction;

/**
 * The names of the persisted pipeline counters (issue 24 "See the pipeline") and the one way
 * the services add to them: inside the task transaction that decides the events, one upsert per
 * (name, reason) and transaction. Reasons are report errors' spec names (DAP-18 "Report
 * Errors", e.g. {@code report_too_early}).
 */
public final class PipelineCounters {
  /** Reports the Leader stored at upload (a repeat of a stored report is not counted again). */
  public static final String UPLOAD_ACCEPTED = "upload_accepted";
  /** Reports the Leader refused at upload, by report error. */
  public static final String UPLOAD_REJECTED = "upload_rejected";
  /** Reports the Helper added to its buckets. */
  public static final String HELPER_COUNTED = "helper_counted";
  /** Reports the Helper rejected, by report error. */
  public static final String HELPER_REJECTED = "helper_rejected";
  /** Reports the Leader added to its buckets. */
  public static final String LEADER_COUNTED = "leader_counted";
  /**
   * Reports of the Leader's aggregation jobs that were not counted, by report error: its own
   * rejections and the Helper's answers (a report re-placed into a later job is counted here at
   * each rejection and again when it is counted).
   */
  public static final String LEADER_REJECTED = "leader_rejected";

  private PipelineCounters() {
  }

  /**
   * Adds, in the transaction, {@code counted} to {@code countedName} and each error's number to
   * {@code rejectedName} under the error's spec name.
   */
  public static void add(TaskTransaction tx, String countedName, long counted,
      String rejectedName, Map<ReportError, ? extends Number> rejected) {
    tx.counters().add(countedName, "", counted);
    Map<String, Long> byReason = new TreeMap<>();
    rejected.forEach((e, n) -> byReason.merge(e.specName(), n.longValue(), Long::sum));
    tx.counters().addAll(rejectedName, byReason);
  }
}
