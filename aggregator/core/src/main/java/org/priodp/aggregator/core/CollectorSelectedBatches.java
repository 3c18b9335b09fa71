package org.priodp.aggregator.core;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.CollectorBatch;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.TaskTransaction;

/**
 * The Leader's collection jobs of the collector_selected batch mode
 * (draft-ietf-ppm-dap-attribution-00 section 4), for {@link CollectionJobService}: each job owns
 * one batch, exactly the reports uploaded to {@code {leader}/tasks/{task-id}/reports/{job-id}}
 * ({@link UploadService#uploadToJob}).
 *
 * <p>{@link #create} gives every request a new job with a random (unguessable, section 4 "CAP-URL"
 * note) collection job ID and a random batch ID chosen by the Leader (section 4.2: the
 * leader-selected parameters), stored with the job in one task transaction. The draft does not
 * say when such a batch is complete; prio-dp closes it at the Collector's first GET of the job
 * ({@link #closeOnPoll}, a conditional update in the GET's task transaction, so an upload in
 * another process either committed before it, and is in the batch, or sees it closed and gets
 * {@code batch_collected}). {@link #step} releases the batch once it is closed and none of its
 * reports is unclaimed or in an active aggregation job; a closed batch with fewer than
 * min_batch_size aggregated reports can never grow, so its job fails with invalidBatchSize.
 * Thread-safe.
 */
final class CollectorSelectedBatches {
  private final Datastore store;
  private final Clock clock;
  private final SecureRandom random;

  CollectorSelectedBatches(Datastore store, Clock clock, SecureRandom random) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
  }

  /**
   * Checks a CollectionJobReq's extensions (DAP-19 "Collection Job Extensions"): min_dp_budget
   * under the task's code point (draft section 5) must be a non-zero uint32 (else
   * invalidExtension); any other extension is unsupportedExtension.
   */
  static void checkExtensions(TaskDefinition task, CollectionJobReq req) {
    ReleaseBudget.minDpBudget(task, req.extensions());
  }

  /** Creates a new job and its open batch for the request (already validated). */
  CollectionJobRecord create(TaskDefinition task, CollectionJobReq req) {
    CollectionJobId id = CollectionJobId.random(random);
    byte[] b = new byte[BatchId.LENGTH];
    random.nextBytes(b);
    BatchIdentifier batch = BatchBuckets.leaderSelectedBucket(new BatchId(b));
    Instant now = clock.instant();
    CollectionJobRecord job = CollectionJobRecord.pending(task.taskId(), id,
        ByteString.copyOf(req.encode()), batch, now);
    store.inTaskTransaction(task.taskId(), tx -> {
      tx.collectionJobs().insert(job);
      tx.collectorBatches().create(id, batch, now);
      return null;
    });
    return job;
  }

  /**
   * Closes the batch of a collector-selected job at the Collector's GET, inside the GET's task
   * transaction; does nothing for another job or a closed batch.
   */
  static void closeOnPoll(TaskTransaction tx, CollectionJobRecord job, Instant now) {
    tx.collectorBatches().close(job.jobId(), now);
  }

  /** What a step of a collector-selected job may do. */
  record Step(Optional<AggregateShareReq> request, boolean drawnBefore, Interval span,
      Optional<String> failure) {
    static Step waiting() {
      return new Step(Optional.empty(), false, Interval.of(0, 0), Optional.empty());
    }

    static Step failed(String why) {
      return new Step(Optional.empty(), false, Interval.of(0, 0), Optional.of(why));
    }
  }

  /**
   * Decides a step of the job: wait while the batch is open or being aggregated, fail a closed
   * batch below min_batch_size, else the AggregateShareReq (the persisted one's count and checksum
   * if the Leader's share was drawn before).
   */
  Step step(TaskDefinition task, CollectionJobRecord job, CollectionJobReq cjr) {
    BatchIdentifier batch = job.batch();
    BatchId batchId = ((BatchSelector.LeaderSelected) BatchSelector.decode(batch.bytes()))
        .batchId();
    BatchSelector selector = new BatchSelector.CollectorSelected(batchId,
        task.attribution().codePoints().collectorSelected());
    return store.inTaskTransaction(task.taskId(), tx -> {
      Interval span = tx.aggregationJobs().leaderReportSpan(batch)
          .map(t -> Interval.of(t[0], t[1] - t[0] + 1)).orElse(Interval.of(0, 0));
      Optional<NoisedAggregateShare> drawn = tx.releases().noisedShare(batch);
      if (drawn.isPresent()) {
        return new Step(Optional.of(new AggregateShareReq(cjr, selector,
            drawn.get().reportCount(), drawn.get().checksum())), true, span, Optional.empty());
      }
      Optional<CollectorBatch> cb = tx.collectorBatches().get(job.jobId());
      if (cb.isEmpty() || !cb.get().closed() || tx.collectorBatches().outstanding(batch)) {
        return Step.waiting();
      }
      Optional<BatchAggregation> bucket = tx.batchBuckets().get(batch);
      long count = bucket.map(BatchAggregation::reportCount).orElse(0L);
      long min = task.configuration().minBatchSize();
      if (bucket.isEmpty() || Long.compareUnsigned(count, min) < 0) {
        return Step.failed("the batch closed at the Collector's first GET with " + count
            + " aggregated reports (" + cb.get().uploaded() + " uploaded), fewer than"
            + " min_batch_size " + Long.toUnsignedString(min) + "; it can no longer grow");
      }
      return new Step(Optional.of(new AggregateShareReq(cjr, selector, count,
          bucket.get().checksum())), false, span, Optional.empty());
    });
  }
}
