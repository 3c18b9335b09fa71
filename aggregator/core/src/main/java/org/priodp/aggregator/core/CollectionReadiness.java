package org.priodp.aggregator.core;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.StatusRepository;

/**
 * Decides whether the Leader may release a batch, and says why not (DAP-18 "Collection Job
 * Initialization": the interval has ended, no report of it is still being aggregated, and it
 * holds at least min_batch_size reports); {@link CollectionJobService} steps jobs by it and the
 * operator's views explain a waiting job by the same rules. Reads only. Thread-safe.
 */
final class CollectionReadiness {
  private final Datastore store;
  private final Clock clock;

  CollectionReadiness(Datastore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /**
   * Returns why the batch interval {@code i} cannot be released yet, in the order {@link #step}
   * checks: the interval has not ended, reports of it are unclaimed or in an active aggregation
   * job, or its buckets hold fewer than min_batch_size reports; empty if none holds it back.
   */
  Optional<CollectionWait> intervalWait(TaskDefinition task, Interval i, Merged m) {
    if (!ended(task, i)) {
      return Optional.of(new CollectionWait.IntervalNotOver(endOf(task, i)));
    }
    // the step's readiness check, then the counts only when something is outstanding
    Optional<StatusRepository.Outstanding> outstanding = store.inTaskTransaction(task.taskId(),
        tx -> tx.clientReports().outstanding(i.start().value(), i.end().value())
            ? Optional.of(tx.status().outstanding(i.start().value(), i.end().value()))
            : Optional.<StatusRepository.Outstanding>empty());
    if (outstanding.isPresent()) {
      StatusRepository.Outstanding o = outstanding.get();
      return Optional.of(new CollectionWait.NotYetAggregated(o.unclaimed(), o.activeJobs(),
          o.reportsInActiveJobs()));
    }
    long min = task.configuration().minBatchSize();
    if (Long.compareUnsigned(m.count(), min) < 0) {
      return Optional.of(new CollectionWait.TooFewReports(m.count(), min));
    }
    return Optional.empty();
  }

  /** Returns the end of the interval as an instant, {@link Instant#MAX} beyond its range. */
  private static Instant endOf(TaskDefinition task, Interval i) {
    try {
      return Instant.ofEpochSecond(Math.multiplyExact(i.end().value(),
          task.configuration().timePrecision()));
    } catch (ArithmeticException | java.time.DateTimeException e) {
      return Instant.MAX;
    }
  }

  /**
   * Returns why the Leader's collection job is not ready (issue 24 "See the pipeline"), by the
   * rules of {@link #step} (DAP-18 "Collection Job Initialization"): empty for a job that is not
   * pending; {@link CollectionWait.Due} if nothing holds it back. Reads only.
   */
  Optional<CollectionWait> whyWaiting(TaskDefinition task, CollectionJobRecord job) {
    if (job.state() != CollectionJobRecord.State.PENDING) {
      return Optional.empty();
    }
    TaskId taskId = task.taskId();
    long min = task.configuration().minBatchSize();
    if (job.batch().equals(CollectionJobService.UNCHOSEN)) {
      return Optional.of(new CollectionWait.NoBatchYet(min));
    }
    BatchIdentifier batch = job.batch();
    if (store.inTaskTransaction(taskId, tx -> tx.releases().noisedShare(batch)).isPresent()) {
      return Optional.of(new CollectionWait.WaitingForHelper());
    }
    BatchSelector selector = BatchSelector.decode(batch.bytes());
    if (selector instanceof BatchSelector.TimeInterval t) {
      Interval i = t.batchInterval();
      return Optional.of(intervalWait(task, i, merge(task, i))
          .orElse(new CollectionWait.Due()));
    }
    Optional<org.priodp.aggregator.datastore.CollectorBatch> cb = store.inTaskTransaction(taskId,
        tx -> tx.collectorBatches().get(job.jobId()));
    if (cb.isPresent() && !cb.get().closed()) {
      return Optional.of(new CollectionWait.BatchOpen(cb.get().uploaded()));
    }
    if (store.inTaskTransaction(taskId, tx -> cb.isPresent()
        ? tx.collectorBatches().outstanding(batch) : tx.aggregationJobs().leaderActive(batch))) {
      return Optional.of(new CollectionWait.NotYetAggregated(0, 1, 0));
    }
    long count = store.inTaskTransaction(taskId, tx -> tx.batchBuckets().get(batch))
        .map(BatchAggregation::reportCount).orElse(0L);
    return Optional.of(Long.compareUnsigned(count, min) < 0
        ? new CollectionWait.TooFewReports(count, min) : new CollectionWait.Due());
  }

  /**
   * Returns whether, inside the release's task transaction, reports of the batch may still reach
   * the Helper's buckets: an unclaimed report or an active aggregation job in the interval, or an
   * active job of the leader-selected batch.
   */
  static boolean stillAggregating(org.priodp.aggregator.datastore.TaskTransaction tx,
      BatchSelector selector) {
    if (selector instanceof BatchSelector.CollectorSelected) { // unclaimed uploads count too
      return tx.collectorBatches().outstanding(BatchBuckets.batchIdentifier(selector));
    }
    if (selector instanceof BatchSelector.TimeInterval t) {
      Interval i = t.batchInterval();
      return tx.clientReports().outstanding(i.start().value(), i.end().value());
    }
    return tx.aggregationJobs().leaderActive(BatchBuckets.batchIdentifier(selector));
  }

  /** Returns whether the interval's end, in seconds, is at or before the clock's now. */
  private boolean ended(TaskDefinition task, Interval i) {
    long end = i.end().value();
    long precision = task.configuration().timePrecision();
    long now = clock.instant().getEpochSecond();
    if (end < 0 || precision < 0) {
      return false; // beyond 2^63 units or seconds: not in this world's lifetime
    }
    long endSeconds;
    try {
      endSeconds = Math.multiplyExact(end, precision);
    } catch (ArithmeticException e) {
      return false;
    }
    return endSeconds <= now;
  }

  /** The Leader's merged buckets of a batch interval: count, checksum and the buckets' span. */
  record Merged(long count, byte[] checksum, long minStart, long maxStart, int buckets) {
    Interval interval(Interval query) {
      return buckets == 0 ? Interval.of(query.start().value(), 0)
          : Interval.of(minStart, maxStart - minStart + 1);
    }
  }

  Merged merge(TaskDefinition task, Interval i) {
    List<BatchAggregation> rows = store.inTaskTransaction(task.taskId(),
        tx -> tx.batchBuckets().range(BatchBuckets.timeIntervalLowerBound(i.start().value()),
            BatchBuckets.timeIntervalLowerBound(i.end().value())));
    long count = 0;
    byte[] checksum = new byte[AggregateShareReq.CHECKSUM_LENGTH];
    long min = 0;
    long max = 0;
    int n = 0;
    for (BatchAggregation b : rows) {
      if (!(BatchSelector.decode(b.batch().bytes()) instanceof BatchSelector.TimeInterval bt)
          || !bt.batchInterval().isWithin(i)) {
        continue;
      }
      count += b.reportCount();
      for (int k = 0; k < checksum.length; k++) {
        checksum[k] ^= b.checksum().byteAt(k);
      }
      if (b.reportCount() != 0) {
        long start = bt.batchInterval().start().value();
        min = n == 0 || Long.compareUnsigned(start, min) < 0 ? start : min;
        max = n == 0 || Long.compareUnsigned(start, max) > 0 ? start : max;
        n++;
      }
    }
    return new Merged(count, checksum, min, max, n);
  }
}
