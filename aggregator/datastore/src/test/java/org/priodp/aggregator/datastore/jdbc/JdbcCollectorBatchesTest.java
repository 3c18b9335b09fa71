package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectorBatch;
import org.priodp.aggregator.datastore.LeaderAggregationJob;

/**
 * The collector-selected batches of migration V015 (draft-ietf-ppm-dap-attribution-00 section
 * 4) on SQLite and PostgreSQL: a job's batch is created open and empty, uploads count what they
 * insert, a report ID is stored once per task whatever the batch, the close is a one-time
 * conditional update, and a Leader job claims only the reports of one batch.
 */
class JdbcCollectorBatchesTest {
  @TempDir
  Path dir;

  private static final SecureRandom RANDOM = new SecureRandom();

  private static boolean is(JdbcDatastore store, TaskId task,
      java.util.function.Function<org.priodp.aggregator.datastore.TaskTransaction, Boolean> f) {
    return store.inTaskTransaction(task, f::apply);
  }

  private static ReportId report(int n) {
    byte[] b = new byte[16];
    b[15] = (byte) n;
    return new ReportId(b);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void uploadsCountOnceAndTheCloseHappensOnce(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      CollectionJobId a = CollectionJobId.random(RANDOM);
      CollectionJobId b = CollectionJobId.random(RANDOM);
      BatchIdentifier ba = BatchIdentifier.of(new byte[] {2, 0, 1, 1});
      BatchIdentifier bb = BatchIdentifier.of(new byte[] {2, 0, 1, 2});
      Instant t0 = Instant.ofEpochMilli(1000);
      ByteString bytes = ByteString.copyOf(new byte[] {9});
      store.inTaskTransaction(task, tx -> {
        tx.collectorBatches().create(a, ba, t0);
        tx.collectorBatches().create(b, bb, t0);
        assertTrue(tx.collectorBatches().insertIfAbsent(a, ba, report(1), 10, bytes));
        assertTrue(tx.collectorBatches().insertIfAbsent(a, ba, report(2), 10, bytes));
        assertFalse(tx.collectorBatches().insertIfAbsent(b, bb, report(2), 10, bytes),
            "a report ID is the task's, whatever the batch");
        assertTrue(tx.collectorBatches().insertIfAbsent(b, bb, report(3), 11, bytes));
        return null;
      });
      assertEquals(new CollectorBatch(a, ba, 2, Optional.empty()),
          store.inTaskTransaction(task, tx -> tx.collectorBatches().get(a)).orElseThrow());
      assertEquals(Optional.of(ba), store.inTaskTransaction(task,
          tx -> tx.collectorBatches().batchOf(report(2))));
      assertTrue(is(store, task, tx -> tx.collectorBatches().close(a, t0)));
      assertFalse(is(store, task, tx -> tx.collectorBatches().close(a,
          Instant.ofEpochMilli(2000))), "closed once");
      assertEquals(Optional.of(t0), store.inTaskTransaction(task,
          tx -> tx.collectorBatches().get(a)).orElseThrow().closedAt());
      assertTrue(store.inTaskTransaction(task, tx -> tx.collectorBatches().get(b))
          .orElseThrow().closedAt().isEmpty());
      assertTrue(store.inTaskTransaction(randomTask(),
          tx -> tx.collectorBatches().get(a)).isEmpty(), "another task's");

      // a Leader job takes the reports of one batch only, and the batch is outstanding until
      // its reports are in a finished job
      assertTrue(is(store, task, tx -> tx.collectorBatches().outstanding(ba)));
      AggregationJobId j1 = AggregationJobId.random(RANDOM);
      LeaderAggregationJob job = store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .createLeaderOfUploadedBatch(j1, 10, t0)).orElseThrow();
      BatchIdentifier first = job.batch().orElseThrow();
      assertEquals(first.equals(ba) ? 2 : 1, job.reportCount());
      assertTrue(is(store, task, tx -> tx.collectorBatches().outstanding(first)),
          "its job is active");
      store.inTaskTransaction(task, tx -> {
        tx.aggregationJobs().finishLeader(j1, t0);
        return null;
      });
      assertFalse(is(store, task, tx -> tx.collectorBatches().outstanding(first)));
      LeaderAggregationJob second = store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .createLeaderOfUploadedBatch(AggregationJobId.random(RANDOM), 10, t0)).orElseThrow();
      assertFalse(second.batch().orElseThrow().equals(first));
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .createLeaderOfUploadedBatch(AggregationJobId.random(RANDOM), 10, t0)).isEmpty());
    }
  }
}
