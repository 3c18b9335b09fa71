package org.priodp.aggregator.core;

import java.util.Objects;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.datastore.BatchIdentifier;

/**
 * The identifiers under which the host writes batch buckets ({@code BatchAggregation}s) to the
 * store (DAP-18 "Batch Buckets"): the encoding of the {@link BatchSelector} that names exactly
 * that bucket. A time-interval bucket is {@code TimeInterval(Interval(start, 1))} with the start in
 * time_precision units (DAP-18 "Time Interval", "Batch Buckets"), so identifiers sort by start
 * time (the encoding is big-endian after a constant 3-byte prefix);
 * a leader-selected bucket is {@code LeaderSelected(batch_id)}. Noised and released shares are
 * keyed the same way by the whole batch's selector.
 */
public final class BatchBuckets {
  private BatchBuckets() {
  }

  /**
   * Returns the identifier of the time-interval bucket holding reports of time {@code time}, in
   * time_precision units: {@code Interval(time, 1)}.
   */
  public static BatchIdentifier timeIntervalBucket(long time) {
    return BatchIdentifier.of(new BatchSelector.TimeInterval(Interval.of(time, 1)).encode());
  }

  /** Returns the identifier of the leader-selected bucket (the whole batch). */
  public static BatchIdentifier leaderSelectedBucket(BatchId batchId) {
    return BatchIdentifier.of(new BatchSelector.LeaderSelected(
        Objects.requireNonNull(batchId, "batchId")).encode());
  }

  /**
   * Returns the identifier of a batch: the encoding of its selector; a collector-selected batch
   * (draft-ietf-ppm-dap-attribution-00 section 4.2, the leader-selected parameters) is stored as
   * the leader-selected bucket of its batch ID, which is how both aggregators' aggregation jobs
   * learn it (the leader_selected_batch_id extension), whatever the task's code point.
   */
  public static BatchIdentifier batchIdentifier(BatchSelector selector) {
    if (selector instanceof BatchSelector.CollectorSelected c) {
      return leaderSelectedBucket(c.batchId());
    }
    return BatchIdentifier.of(selector.encode());
  }

  /** Returns the smallest identifier of a time-interval bucket starting at or after {@code start}. */
  static BatchIdentifier timeIntervalLowerBound(long start) {
    return BatchIdentifier.of(new BatchSelector.TimeInterval(Interval.of(start, 0)).encode());
  }
}
