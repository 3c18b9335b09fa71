package org.priodp.aggregator.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportShare;
import org.priodp.aggregator.dap.VerifyInit;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.VerifyResp;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.VdafVerifyKey;
import org.priodp.aggregator.datastore.LeaderJobReport;
import org.priodp.field.FieldVector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Leader's side of one report in an aggregation job (DAP-18 "Leader Initialization", "Leader
 * Continuation"): its initialization before the Helper is asked, its finish with the Helper's
 * answer, and the tally of report errors a job logs once. Stateless.
 */
final class LeaderReports {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderAggregationDriver.class);

  private LeaderReports() {}

  /** A report after the Leader's initialization, before the Helper's answer. */
  record Initialized(ReportId reportId, long time, PingPong.Continued state,
      Optional<org.priodp.aggregator.task.MicroEpsilon> budget) {}

  /** Returns whether a released time-interval batch covers {@code time} (time_precision units). */
  static boolean collected(List<CollectedInterval> ranges, long time) {
    for (CollectedInterval ci : ranges) {
      if (Long.compareUnsigned(ci.start(), time) <= 0 && Long.compareUnsigned(time, ci.end()) < 0) {
        return true;
      }
    }
    return false;
  }

  /** Returns what the most common rejection of a job suggests to an operator, if anything. */
  static String hint(Map<ReportError, Integer> rejected) {
    return rejected.entrySet().stream().max(Map.Entry.comparingByValue())
        .map(e -> switch (e.getKey()) {
          case REPORT_TOO_EARLY -> "; mostly report_too_early: a clock may be behind (the"
              + " Helper's, or the Clients' ahead)";
          case HPKE_UNKNOWN_CONFIG_ID, OUTDATED_CONFIG -> "; mostly an unknown HPKE config: were"
              + " HPKE keys deleted or Clients given an old list?";
          case HPKE_DECRYPT_ERROR -> "; mostly hpke_decrypt_error: do the Clients and the"
              + " aggregators agree on the task configuration and DAP version?";
          case VDAF_VERIFY_ERROR -> "; mostly vdaf_verify_error: do both aggregators hold the"
              + " same VDAF verification key?";
          default -> "";
        }).orElse("");
  }

  /** Counts a report the Leader rejects with {@code error} and logs it. */
  static void reject(Map<ReportError, Integer> rejected, ReportId reportId,
      ReportError error) {
    LOG.debug("report {} rejected by the Leader: {}", reportId.toBase64Url(), error.specName());
    rejected.merge(error, 1, Integer::sum);
  }

  /**
   * One claimed report after the Leader's initialization: its VerifyInit and state, or the
   * report error that rejects it; applied to the job's lists in report order by {@link #apply}.
   */
  record Prepared(ReportId reportId, Initialized initialized, VerifyInit init,
      ReportError error) {
    /** Adds the VerifyInit to {@code inits} and returns the report, or counts its error. */
    Optional<Initialized> apply(List<VerifyInit> inits, Map<ReportError, Integer> rejected) {
      if (error != null) {
        reject(rejected, reportId, error);
        return Optional.empty();
      }
      inits.add(init);
      return Optional.of(initialized);
    }
  }

  /**
   * Decodes one claimed report and runs the Leader's initialization (DAP-18 "Leader
   * Initialization"): the shared {@link ReportIntake}, then {@link PingPong#leaderInitialized};
   * returns its VerifyInit and state, or its report error (a stored report that does not decode,
   * or whose Leader share names another report, is {@code invalid_message}). No shared state:
   * reports may run in parallel.
   */
  static Prepared prepare(ReportIntake.Job reports, PingPong pingPong, LeaderJobReport stored) {
    Report report;
    try {
      report = Report.decode(stored.report().toByteArray());
    } catch (IllegalArgumentException e) { // DapDecodeException
      return new Prepared(stored.reportId(), null, null, ReportError.INVALID_MESSAGE);
    }
    ReportShare mine = report.leaderReportShare();
    if (!mine.reportId().equals(stored.reportId())) {
      return new Prepared(stored.reportId(), null, null, ReportError.INVALID_MESSAGE);
    }
    ReportIntake.Outcome in = reports.prepare(mine);
    if (in instanceof ReportIntake.Rejected r) {
      return new Prepared(r.reportId(), null, null, r.error());
    }
    ReportIntake.Prepared prepared = (ReportIntake.Prepared) in;
    PingPong.Continued state = pingPong.leaderInitialized(prepared.init());
    return new Prepared(in.reportId(), new Initialized(in.reportId(), in.time(), state,
        prepared.budget()), new VerifyInit(report.helperReportShare(), state.outbound().encode()),
        null);
  }

  /**
   * Finishes the Leader's verification with the Helper's answer (DAP-18 "Leader
   * Initialization"): a {@code continue} whose payload {@link PingPong#leaderContinued} finishes
   * gives the output share; otherwise the report is counted in {@code rejected} with the
   * Helper's report error, or {@code vdaf_verify_error} when the answer does not verify (a
   * {@code finish} without the verifier message included), and empty is returned.
   */
  static Optional<FieldVector> finish(PingPong pingPong, Initialized in, VerifyResp resp,
      Map<ReportError, Integer> rejected) {
    if (resp.result() instanceof VerifyResp.Reject r) {
      reject(rejected, in.reportId(), r.reportError());
      return Optional.empty();
    }
    if (resp.result() instanceof VerifyResp.Continue c && pingPong.leaderContinued(in.state(),
        c.payload().toByteArray()) instanceof PingPong.Finished f) {
      return Optional.of(f.outShare());
    }
    reject(rejected, in.reportId(), ReportError.VDAF_VERIFY_ERROR);
    return Optional.empty();
  }

  /**
   * Logs what one finished job did, in at most one line per kind of trouble (never one per
   * report): reports given up after {@link LeaderAggregationDriver#MAX_PLACEMENTS}, reports
   * waiting in the pool for company, the counts of each report error with the most common one's
   * hint (WARN if any, else DEBUG), and a verification key the Helper does not know.
   */
  static void logJob(LeaderAggregationJob job, int counted, Map<ReportError, Integer> rejected,
      Map<Duration, List<ReportId>> retry, List<ReportId> unsent,
      Map<ReportError, Integer> gaveUp, boolean helperKnewKey, VdafVerifyKey key) {
    TaskId taskId = job.taskId();
    int backToPool = retry.values().stream().mapToInt(List::size).sum();
    int rejectedCount = rejected.values().stream().mapToInt(Integer::intValue).sum();
    if (!gaveUp.isEmpty()) {
      int n = gaveUp.values().stream().mapToInt(Integer::intValue).sum();
      LOG.warn("aggregation job {} of task {}: {} reports given up for good ({}): gave up after"
          + " {} placements", job.jobId().toBase64Url(), taskId.toBase64Url(), n,
          gaveUp.entrySet().stream().map(e -> e.getValue() + " " + e.getKey().specName())
              .collect(java.util.stream.Collectors.joining(", ")), LeaderAggregationDriver.MAX_PLACEMENTS);
    }
    if (!unsent.isEmpty()) {
      LOG.warn("aggregation job {} of task {}: every order of its {} reports was sent to the"
          + " Helper before (an identical request gets the stored answer): they wait in the pool"
          + " for other reports to join them, {} at most", job.jobId().toBase64Url(),
          taskId.toBase64Url(), unsent.size(), HelperTrouble.span(LeaderAggregationDriver.MAX_REQUEUE_DELAY));
    }
    if (rejectedCount > 0 || LOG.isDebugEnabled()) {
      StringBuilder why = new StringBuilder();
      rejected.forEach((e, n) -> why.append(", ").append(n).append(' ').append(e.specName()));
      String line = "aggregation job {} of task {}: {} reports counted, {} rejected{}, {} back"
          + " to the pool{}";
      Object[] args = {job.jobId().toBase64Url(), taskId.toBase64Url(), counted,
          rejectedCount, why, backToPool, hint(rejected)};
      if (rejectedCount > 0) {
        LOG.warn(line, args); // one line per job, never one per report
      } else {
        LOG.debug(line, args);
      }
    }
    if (!helperKnewKey) {
      LOG.warn("task {}: the Helper does not know VDAF verification key {}; its {} reports go"
          + " back to the pool and the Leader uses another key for {}", taskId.toBase64Url(),
          key.id(), backToPool, VdafVerifyKeys.HELPER_REFUSAL_BACKOFF);
    }
  }

  /**
   * Initializes the reports a job claimed ({@link #initialize}), in claim order, and returns those
   * to send; rejects here those of a batch the Leader already released (batch_collected) and
   * those below the retention cutoff (report_dropped).
   */
  static List<Initialized> initializeClaimed(Datastore store, LeaderAggregationJob job,
      ReportIntake.Job reports, PingPong pingPong, List<VerifyInit> inits,
      Map<ReportError, Integer> rejected) {
    List<Initialized> out = new ArrayList<>();
    // Reports of a batch the Leader already released are never sent: the Helper would commit
    // them to a bucket the Leader's released share does not count. Read after this job was
    // claimed, so a release that committed before the claim is seen here, and one that comes
    // later waits for this job (the collection's release checks for active jobs in its own
    // task transaction).
    List<CollectedInterval> released = store.inTaskTransaction(job.taskId(),
        tx -> tx.releases().collectedIntervals());
    // nor reports below the retention cutoff: the Leader drops them at commit (report_dropped),
    // and a Helper without that cutoff would count them
    Optional<Long> dropBelow = store.inTaskTransaction(job.taskId(), tx -> tx.retention().cutoff());
    boolean batchReleased = job.batch().isPresent()
        && store.inTaskTransaction(job.taskId(),
            tx -> tx.releases().noisedShare(job.batch().get())).isPresent();
    List<LeaderJobReport> claimed = store.inTaskTransaction(job.taskId(),
        tx -> tx.clientReports().claimedBy(job.jobId()));
    // the CPU work (HPKE open, verify_init) of every report in parallel, applied in order
    List<Prepared> prepared = ParallelReports.shared().map(claimed, r -> {
      if (batchReleased || (job.batch().isEmpty() && collected(released, r.time()))) {
        return new Prepared(r.reportId(), null, null, ReportError.BATCH_COLLECTED);
      }
      if (dropBelow.isPresent() && Long.compareUnsigned(r.time(), dropBelow.get()) < 0) {
        return new Prepared(r.reportId(), null, null, ReportError.REPORT_DROPPED);
      }
      return prepare(reports, pingPong, r);
    });
    for (Prepared p : prepared) {
      p.apply(inits, rejected).ifPresent(out::add);
    }
    return out;
  }
}
