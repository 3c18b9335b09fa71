package org.priodp.aggregator.client;

import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.task.LedgerHeader;
import org.priodp.vdaf.dp.UnshardResult;

/**
 * A finished collection (DAP-18 "Collection Job Finalization"): the report count and the
 * interval the Leader reported, and the decoded aggregate with the intervals of its noise.
 *
 * @param reportCount the number of reports in the batch (CollectionJobResp.report_count)
 * @param interval the smallest interval, in time_precision units, holding every report's time
 * @param result the unsharded aggregate: estimates and their confidence intervals
 * @param releasedBefore true if the Leader answered the creating request with the finished job:
 *     the batch was released before this collection began (a repeat, which draws nothing and
 *     costs no privacy)
 * @param ledger the Leader's {@link LedgerHeader#NAME} header, if it sent a valid one
 */
public record CollectionResult(long reportCount, Interval interval, UnshardResult result,
    boolean releasedBefore, Optional<LedgerHeader> ledger) {
  /** Returns a result with no word on repeats nor ledger (a first release, no header). */
  public CollectionResult(long reportCount, Interval interval, UnshardResult result) {
    this(reportCount, interval, result, false, Optional.empty());
  }

  /** Rejects nulls and a negative count. */
  public CollectionResult {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(ledger, "ledger");
    if (reportCount < 0) {
      throw new IllegalArgumentException("report_count out of range");
    }
  }
}
