package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.holds;
import static org.priodp.aggregator.datastore.jdbc.Stores.jobId;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;
import static org.priodp.aggregator.datastore.jdbc.Stores.reportId;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;

class JdbcClientReportsTest {
  @TempDir
  Path dir;

  /**
   * Sixteen threads on two datastores (two connections or pools, as two processes would have)
   * upload one report ID at once: exactly one insert stores a row, and it is never replaced.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void concurrentUploadsOfOneIdInsertOnce(String backend) throws Exception {
    try (JdbcDatastore store = Stores.open(backend, dir);
        JdbcDatastore second = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      ReportId id = reportId();
      List<Boolean> inserted = Stores.atOnce(16, 16, i -> () -> (i % 2 == 0 ? store : second)
          .inTaskTransaction(task, tx -> tx.clientReports().insertIfAbsent(id, 7, bs(10, i))));
      assertEquals(1, inserted.stream().filter(b -> b).count());
      assertEquals(10, store.inTaskTransaction(task, tx -> tx.clientReports().get(id))
          .orElseThrow().length());
      assertTrue(second.inTaskTransaction(randomTask(), tx -> tx.clientReports().get(id))
          .isEmpty(), "per task");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void outstandingReportsAreUnclaimedOrHeldByAnActiveJobInTheInterval(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      Instant t0 = Instant.ofEpochMilli(5_000_000);
      store.inTaskTransaction(task, tx -> {
        tx.clientReports().insertIfAbsent(reportId(), 10, bs(4, 1));
        tx.clientReports().insertIfAbsent(reportId(), 12, bs(4, 2));
        return null;
      });
      assertTrue(holds(store, task, tx -> tx.clientReports().outstanding(10, 11)));
      assertFalse(holds(store, task, tx -> tx.clientReports().outstanding(11, 12)));
      assertFalse(holds(store, task, tx -> tx.clientReports().outstanding(13, 20)));
      store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(jobId(1), 2, 1,
          Optional.empty(), t0)).orElseThrow();
      assertTrue(holds(store, task, tx -> tx.clientReports().outstanding(11, 12)),
          "the active job's reports span [10, 12]");
      assertFalse(holds(store, task, tx -> tx.clientReports().outstanding(13, 20)));
      store.inTaskTransaction(task, tx -> {
        tx.aggregationJobs().finishLeader(jobId(1), t0);
        return null;
      });
      assertFalse(holds(store, task, tx -> tx.clientReports().outstanding(10, 13)));
      assertFalse(holds(store, randomTask(),
          tx -> tx.clientReports().outstanding(0, -1L)), "per task");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void anUnclaimedReportWaitsForItsRetryTimeThenAnotherJobTakesIt(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      Instant t0 = Instant.ofEpochMilli(5_000_000);
      org.priodp.aggregator.dap.ReportId a = reportId();
      org.priodp.aggregator.dap.ReportId b = reportId();
      store.inTaskTransaction(task, tx -> {
        tx.clientReports().insertIfAbsent(a, 10, bs(4, 1));
        tx.clientReports().insertIfAbsent(b, 11, bs(4, 2));
        return null;
      });
      store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(jobId(1), 2, 1,
          Optional.empty(), t0)).orElseThrow();
      Instant retryAt = t0.plusSeconds(60);
      int back = store.inTaskTransaction(task, tx -> tx.clientReports().unclaim(jobId(1),
          List.of(a), retryAt));
      assertEquals(1, back, "only a goes back");
      assertEquals(1, store.inTaskTransaction(task, tx -> tx.aggregationJobs().leader(jobId(1)))
          .orElseThrow().reportCount(), "the job holds one report less");
      int other = store.inTaskTransaction(task, tx -> tx.clientReports().unclaim(jobId(2),
          List.of(b), retryAt));
      assertEquals(0, other, "another job's report is not touched");
      assertTrue(holds(store, task, tx -> tx.clientReports().outstanding(10, 11)),
          "unaggregated, so the collection waits for it");
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(jobId(3),
          2, 1, Optional.empty(), retryAt.minusMillis(1))).isEmpty(), "not before its time");
      assertEquals(1, store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(
          jobId(3), 2, 1, Optional.empty(), retryAt)).orElseThrow().reportCount());
      assertEquals(List.of(a), store.inTaskTransaction(task,
          tx -> tx.clientReports().claimedBy(jobId(3))).stream()
          .map(org.priodp.aggregator.datastore.LeaderJobReport::reportId).toList());
    }
  }

  /**
   * Issue 24: each job that claims a report counts one placement; unclaim keeps it (the report
   * was sent), unclaimUnsent takes it back (the job could not send it).
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void eachClaimCountsAPlacementButAnUnsentReportDoesNot(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      ReportId a = reportId();
      ReportId b = reportId();
      assertTrue(holds(store, task, tx -> tx.clientReports().insertIfAbsent(a, 10, bs(4, 1))));
      assertTrue(holds(store, task, tx -> tx.clientReports().insertIfAbsent(b, 10, bs(4, 2))));
      Instant t0 = Instant.ofEpochMilli(1_000_000);
      store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(jobId(1), 2, 1,
          Optional.empty(), t0)).orElseThrow();
      assertEquals(java.util.Map.of(a, 1, b, 1), store.inTaskTransaction(task,
          tx -> tx.clientReports().placements(jobId(1))));
      assertEquals(1, (int) store.inTaskTransaction(task,
          tx -> tx.clientReports().unclaim(jobId(1), List.of(a), t0)));
      assertEquals(1, (int) store.inTaskTransaction(task,
          tx -> tx.clientReports().unclaimUnsent(jobId(1), List.of(b), t0)));
      assertEquals(0, store.inTaskTransaction(task, tx -> tx.aggregationJobs().leader(jobId(1)))
          .orElseThrow().reportCount());
      store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(jobId(2), 2, 1,
          Optional.empty(), t0)).orElseThrow();
      assertEquals(java.util.Map.of(a, 2, b, 1), store.inTaskTransaction(task,
          tx -> tx.clientReports().placements(jobId(2))), "b's first placement was undone");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aggregatedReportsAreFoundAmongManyAndCounted(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      List<ReportId> ids = new ArrayList<>();
      Map<ReportId, Long> committed = new HashMap<>();
      for (int i = 0; i < 1200; i++) {
        ReportId id = reportId();
        ids.add(id);
        if (i % 3 == 0) {
          committed.put(id, (long) i);
        }
      }
      store.inTaskTransaction(task, tx -> {
        tx.clientReports().insertAggregated(jobId(1), committed);
        tx.clientReports().insertAggregated(jobId(1), Map.of());
        return null;
      });
      assertEquals(committed.keySet(), store.inTaskTransaction(task,
          tx -> tx.clientReports().aggregatedAmong(ids)), "over several queries of 500");
      assertEquals(400L, (long) store.inTaskTransaction(task, tx -> tx.clientReports().aggregatedCount()));
      assertEquals(0L, (long) store.inTaskTransaction(randomTask(),
          tx -> tx.clientReports().aggregatedCount()));
    }
  }
}
