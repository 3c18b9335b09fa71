package org.priodp.aggregator.client;

import java.util.Objects;
import org.priodp.aggregator.dap.Interval;
import org.priodp.vdaf.dp.UnshardResult;

/**
 * A finished collection (DAP-18 "Collection Job Finalization"): the report count and the
 * interval the Leader reported, and the decoded aggregate with the intervals of its noise.
 *
 * @param reportCount the number of reports in the batch (CollectionJobResp.report_count)
 * @param interval the smallest interval, in time_precision units, holding every report's time
 * @param result the unsharded aggregate: estimates and their confidence intervals
 */
public record CollectionResult(long reportCount, Interval interval, UnshardResult result) {
  /** Rejects nulls and a negative count. */
  public CollectionResult {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(result, "result");
    if (reportCount < 0) {
      throw new IllegalArgumentException("report_count out of range");
    }
  }
}
