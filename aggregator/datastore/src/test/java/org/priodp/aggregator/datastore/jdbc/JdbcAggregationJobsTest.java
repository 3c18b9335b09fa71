package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.bytes;
import static org.priodp.aggregator.datastore.jdbc.Stores.holds;
import static org.priodp.aggregator.datastore.jdbc.Stores.id;
import static org.priodp.aggregator.datastore.jdbc.Stores.jobId;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;
import static org.priodp.aggregator.datastore.jdbc.Stores.reportId;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.AggregationJobRepository;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.LeaderAggregationJob;

class JdbcAggregationJobsTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void helperJobsAndAggregatedReportsPersistPerTask(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      TaskId other = randomTask();
      ReportId report = new ReportId(bytes(16, 5));
      AggregationJobId jobId = new AggregationJobId(bytes(16, 6));
      AggregationJobRecord job = new AggregationJobRecord(task, jobId, bs(32, 1), 0, bs(32, 1),
          AggregationJobRecord.State.PENDING, Optional.empty(), Optional.empty(),
          Optional.empty(), Instant.ofEpochMilli(5));
      store.inTaskTransaction(task, tx -> {
        assertFalse(tx.clientReports().aggregated(report));
        tx.clientReports().insertAggregated(report, jobId);
        assertTrue(tx.clientReports().aggregated(report));
        tx.aggregationJobs().put(job);
        tx.aggregationJobs().put(job.ready(bs(7, 2)));
        tx.batchBuckets().put(new BatchAggregation(task, id(3, 1), bs(0, 0), bs(16, 1), 1,
            bs(32, 4)));
        return null;
      });
      assertEquals(job.ready(bs(7, 2)), store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().get(jobId)).orElseThrow());
      assertTrue(store.inTaskTransaction(other, tx -> tx.aggregationJobs().get(jobId)).isEmpty());
      assertEquals(1, store.inTaskTransaction(task, tx -> tx.batchBuckets().get(id(3, 1)))
          .orElseThrow().reportCount());
      boolean seenInOther = store.inTaskTransaction(other,
          tx -> tx.clientReports().aggregated(report));
      assertFalse(seenInOther,
          "replay protection is per task");
      assertThrows(DatastoreException.class, () -> store.inTaskTransaction(task, tx -> {
        tx.clientReports().insertAggregated(report, jobId);
        return null;
      }), "a report is committed once per task");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void leaderJobsClaimOldestReportsAndFillLeaderSelectedBatches(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      for (long t : new long[] {3, 1, 2, 5, 4}) {
        ReportId id = reportId();
        assertTrue(holds(store, task,
            tx -> tx.clientReports().insertIfAbsent(id, t, bs(10, (int) t))));
      }
      Instant t0 = Instant.ofEpochMilli(1_000_000);
      assertThrows(IllegalArgumentException.class, () -> store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().createLeader(jobId(9), 2, 3, Optional.empty(), t0)));
      LeaderAggregationJob j1 = store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .createLeader(jobId(1), 3, 1, Optional.of(id(7, 1)), t0)).orElseThrow();
      assertEquals(new LeaderAggregationJob(task, jobId(1), LeaderAggregationJob.State.ACTIVE, 0,
          1, 3, 3, Optional.empty(), Optional.empty(), Instant.EPOCH, 0, Optional.empty(), t0,
          Optional.of(id(7, 1))), j1);
      assertEquals(j1, store.inTaskTransaction(task, tx -> tx.aggregationJobs().leader(jobId(1)))
          .orElseThrow());
      assertTrue(holds(store, task, tx -> tx.aggregationJobs().leaderActive(id(7, 1))));
      assertFalse(holds(store, task, tx -> tx.aggregationJobs().leaderActive(id(8, 1))));
      assertEquals(Optional.of(new AggregationJobRepository.LeaderBatchFill(id(7, 1), 3)),
          store.inTaskTransaction(task, tx -> tx.aggregationJobs().openLeaderBatch(4)));
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs().leaderReportSpan(
          id(7, 1))).isEmpty(), "no finished job yet");
      store.inTaskTransaction(task, tx -> {
        tx.aggregationJobs().finishLeader(jobId(1), t0.plusMillis(5));
        return null;
      });
      LeaderAggregationJob done = store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leader(jobId(1))).orElseThrow();
      assertEquals(LeaderAggregationJob.State.FINISHED, done.state());
      assertFalse(holds(store, task, tx -> tx.aggregationJobs().leaderActive(id(7, 1))));
      long[] span = store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leaderReportSpan(id(7, 1))).orElseThrow();
      assertEquals(List.of(1L, 3L), List.of(span[0], span[1]));
      assertTrue(store.inTaskTransaction(randomTask(),
          tx -> tx.aggregationJobs().leader(jobId(1))).isEmpty(), "per task");
    }
  }

  /**
   * Issue 24: a Leader job's request (order salt, digest) is fixed once and found by digest
   * within its task only; fixable Helper failures are counted; leaderJobs lists by state; an
   * abandoned job's reports go back to the pool except one already aggregated, and only an
   * abandoned job can be requeued.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void leaderRequestsFailuresAndRequeue(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      TaskId other = randomTask();
      ReportId a = reportId();
      ReportId b = reportId();
      assertTrue(holds(store, task, tx -> tx.clientReports().insertIfAbsent(a, 10, bs(4, 1))));
      assertTrue(holds(store, task, tx -> tx.clientReports().insertIfAbsent(b, 11, bs(4, 2))));
      Instant t0 = Instant.ofEpochMilli(1_000_000);
      store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(jobId(1), 2, 1,
          Optional.empty(), t0)).orElseThrow();
      AggregationJobRepository.LeaderRequest r =
          new AggregationJobRepository.LeaderRequest(3, bs(32, 9));
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs().leaderRequest(jobId(1)))
          .isEmpty());
      assertFalse(holds(store, task, tx -> tx.aggregationJobs().leaderRequestSent(bs(32, 9))));
      store.inTaskTransaction(task, tx -> {
        tx.aggregationJobs().setLeaderRequest(jobId(1), r);
        return null;
      });
      assertEquals(Optional.of(r), store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leaderRequest(jobId(1))));
      assertTrue(holds(store, task, tx -> tx.aggregationJobs().leaderRequestSent(bs(32, 9))));
      assertFalse(holds(store, other, tx -> tx.aggregationJobs().leaderRequestSent(bs(32, 9))));

      assertEquals(0, (int) store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leaderHelperFailures(jobId(1))));
      LeaderAggregationJob leased = store.jobLeases().leaseAggregationJob(List.of(task), "o",
          bs(16, 1), t0, Duration.ofMinutes(1)).orElseThrow();
      assertTrue(store.jobLeases().failAggregationJob(task, leased.jobId(), bs(16, 1),
          t0.plusSeconds(30), "HTTP 401"));
      assertFalse(store.jobLeases().failAggregationJob(task, leased.jobId(), bs(16, 1),
          t0.plusSeconds(30), "not leased any more"));
      assertEquals(1, (int) store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leaderHelperFailures(jobId(1))));
      assertTrue(store.jobLeases().leaseAggregationJob(List.of(task), "o", bs(16, 2),
          t0.plusSeconds(29), Duration.ofMinutes(1)).isEmpty(), "not before the retry time");
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs().requeueAbandonedLeader(
          jobId(1), "note", t0)).isEmpty(), "an active job is not requeued");

      store.jobLeases().leaseAggregationJob(List.of(task), "o", bs(16, 3), t0.plusSeconds(30),
          Duration.ofMinutes(1)).orElseThrow();
      assertTrue(store.jobLeases().abandonAggregationJob(task, jobId(1), bs(16, 3), "gone", t0));
      assertEquals(List.of(jobId(1)), store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .leaderJobs(List.of(LeaderAggregationJob.State.ABANDONED))).stream()
          .map(LeaderAggregationJob::jobId).toList());
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .leaderJobs(List.of(LeaderAggregationJob.State.ACTIVE))).isEmpty());
      store.inTaskTransaction(task, tx -> {
        tx.clientReports().insertAggregated(b, jobId(1), 11);
        return null;
      });
      assertEquals(Optional.of(1), store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().requeueAbandonedLeader(jobId(1), "requeued", t0)));
      LeaderAggregationJob after = store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leader(jobId(1))).orElseThrow();
      assertEquals(LeaderAggregationJob.State.ABANDONED, after.state());
      assertEquals(0, after.reportCount());
      assertEquals(Optional.of("gone; requeued"), after.errorDetail());
      assertEquals(1, store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(
          jobId(2), 2, 1, Optional.empty(), t0)).orElseThrow().reportCount(), "a, not b");
    }
  }
}
