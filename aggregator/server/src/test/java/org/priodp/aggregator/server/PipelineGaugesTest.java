package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.LeaderFixture;
import org.priodp.aggregator.testing.MutableClock;

/**
 * The store gauges of a Leader task (DAP-18 "Collecting Results"): pending collection jobs, the
 * oldest one's age by the injected clock, and whether reports wait for aggregation, each as the
 * store holds them at the read, and back to 0 when the store empties.
 */
class PipelineGaugesTest {
  @TempDir
  Path dir;

  private static double gauge(ServiceMetrics m, String name, TaskDefinition t) {
    return m.registry().get(name).tag("task", t.taskId().toBase64Url()).gauge().value();
  }

  @Test
  void readsPendingCollectionJobsTheirAgeAndOutstandingReports() throws Exception {
    TaskDefinition task = LeaderFixture.task(71);
    Instant start = Instant.parse("2026-03-01T12:00:00Z");
    MutableClock clock = new MutableClock(start);
    ServiceMetrics metrics = new ServiceMetrics();
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("g.db"))) {
      PipelineGauges gauges = new PipelineGauges(store, () -> List.of(task), metrics, clock);
      gauges.refresh();
      assertEquals(0, gauge(metrics, "priodp.collection.jobs.pending", task));
      assertEquals(0, gauge(metrics, "priodp.collection.job.oldest.pending", task));
      assertEquals(0, gauge(metrics, "priodp.reports.outstanding", task));

      CollectionJobId first = new CollectionJobId(new byte[CollectionJobId.LENGTH]);
      byte[] b = new byte[CollectionJobId.LENGTH];
      b[0] = 1;
      CollectionJobId second = new CollectionJobId(b);
      store.inTaskTransaction(task.taskId(), tx -> {
        tx.collectionJobs().insert(CollectionJobRecord.pending(task.taskId(), first,
            ByteString.copyOf(new byte[] {1}), BatchIdentifier.of(new byte[] {1}), start));
        tx.collectionJobs().insert(CollectionJobRecord.pending(task.taskId(), second,
            ByteString.copyOf(new byte[] {2}), BatchIdentifier.of(new byte[] {2}),
            start.plus(Duration.ofMinutes(30))));
        tx.clientReports().insertIfAbsent(LeaderFixture.id(1), LeaderFixture.now(),
            ByteString.copyOf(new byte[] {3}));
        return null;
      });
      clock.advance(Duration.ofHours(2));
      gauges.refresh();
      assertEquals(2, gauge(metrics, "priodp.collection.jobs.pending", task));
      assertEquals(7200, gauge(metrics, "priodp.collection.job.oldest.pending", task));
      assertEquals(1, gauge(metrics, "priodp.reports.outstanding", task));

      store.inTaskTransaction(task.taskId(), tx -> {
        tx.collectionJobs().delete(first, clock.instant());
        return null;
      });
      gauges.refresh();
      assertEquals(1, gauge(metrics, "priodp.collection.jobs.pending", task));
      assertEquals(5400, gauge(metrics, "priodp.collection.job.oldest.pending", task));
    }
  }

  /**
   * Issue 25: the privacy budget gauges of a capped DP task (both roles; here a Helper's store):
   * spent in the worst window, what the cap leaves and the cap, by task and unit, as the ledger
   * holds them at each read.
   */
  @Test
  void readsEachDpTasksLedgerIntoTheBudgetGauges() {
    org.priodp.aggregator.testing.Fixture f = new org.priodp.aggregator.testing.Fixture(72,
        org.priodp.vdaf.dp.DpStrategy.PureDpDiscreteLaplace.parse("1/2"));
    TaskDefinition task = f.task.withPrivacy(new org.priodp.aggregator.core.PrivacySettings(
        new org.priodp.noise.ledger.PrivacyUnit.Report(), java.util.Optional.of(
            org.priodp.noise.ledger.BudgetCap.life(org.priodp.noise.Budget.PureDp.parse("2")))));
    MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    ServiceMetrics metrics = new ServiceMetrics();
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("b.db"))) {
      f.writeBuckets(store, 3);
      PipelineGauges gauges = new PipelineGauges(store, List::of, () -> List.of(task), metrics,
          clock);
      gauges.refresh();
      assertEquals(0, budget(metrics, "priodp.privacy.budget.spent", task));
      assertEquals(2, budget(metrics, "priodp.privacy.budget.remaining", task));
      assertEquals(2, budget(metrics, "priodp.privacy.budget.cap", task));
      org.priodp.aggregator.core.NoisedShareService s =
          new org.priodp.aggregator.core.NoisedShareService(store,
              org.priodp.noise.RandomSource.seeded(new byte[] {72}), clock);
      s.release(task, f.request(0, 1));
      s.release(task, f.request(1, 2));
      s.release(task, f.request(0, 1)); // a repeat costs nothing
      gauges.refresh();
      assertEquals(1, budget(metrics, "priodp.privacy.budget.spent", task));
      assertEquals(1, budget(metrics, "priodp.privacy.budget.remaining", task));
      assertEquals(2, budget(metrics, "priodp.privacy.budget.cap", task));
      String scrape = metrics.scrape();
      org.junit.jupiter.api.Assertions.assertTrue(scrape.contains(
          "priodp_privacy_budget_remaining{task=\"" + task.taskId().toBase64Url()
              + "\",unit=\"epsilon\"} 1.0"), scrape);
    }
  }

  private static double budget(ServiceMetrics m, String name, TaskDefinition t) {
    return m.registry().get(name).tag("task", t.taskId().toBase64Url()).tag("unit", "epsilon")
        .gauge().value();
  }
}
