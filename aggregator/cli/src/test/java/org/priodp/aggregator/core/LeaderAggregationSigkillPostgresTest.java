package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.server.Aggregator;
import org.priodp.aggregator.server.AggregatorConfig;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.ServeProcess;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/**
 * Issue 17: two Leader {@code serve} processes on one PostgreSQL database (PRIODP_PG_URL; skipped
 * without it) share the aggregation jobs of one task through leases, against one Helper (in this
 * JVM, its own SQLite store). The test puts Prio3Histogram reports into the Leader's
 * client_reports, starts both Leaders, SIGKILLs the first while it holds a lease in the middle of
 * aggregation, and waits until every job is finished: then both sides' buckets count every report
 * exactly once (count and checksum of the inserted reports) and unshard to the true histogram.
 * The task is fresh each run; {@code -Dpriodp.seed} fixes the measurements.
 */
class LeaderAggregationSigkillPostgresTest {
  @TempDir
  Path dir;

  @Test
  void everyReportIsAggregatedOnceAfterALeaderIsKilled() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED LeaderAggregationSigkillPostgresTest: PRIODP_PG_URL is not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL is not set");
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("LeaderAggregationSigkillPostgresTest seed=" + seed);
    int n = Integer.getInteger("priodp.leaderkill.reports", 4000);
    int port = LeaderPair.freePort();
    LeaderPair pair = new LeaderPair(new Prio3Variant.Histogram(10, 3), new Random(seed), port);
    try (Datastore helperStore = JdbcDatastore.openSqlite(
        dir.resolve("helper.db")); Datastore leaderStore =
        JdbcDatastore.open(url)) {
      Aggregator helper = Aggregator.start(AggregatorConfig.builder(List.of(pair.helper),
          helperStore).port(port).build());
      Process a = null;
      Process b = null;
      try {
        HpkeConfig helperKey = helper.hpkeKeys().ensureActive().config();
        HpkeConfig leaderKey = new HelperHpkeKeys(leaderStore, new SecureRandom(),
            Clock.systemUTC()).ensureActive().config();
        long now = LeaderPair.now();
        List<List<BigInteger>> ms = new ArrayList<>();
        List<ReportId> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          List<BigInteger> m = pair.measurement();
          Report r = pair.report(leaderKey, helperKey, now, m);
          leaderStore.inTaskTransaction(pair.taskId, tx -> tx.clientReports().insertIfAbsent(
              r.reportMetadata().reportId(), now, ByteString.copyOf(r.encode())));
          ms.add(m);
          ids.add(r.reportMetadata().reportId());
        }
        Path config = dir.resolve("leader.json");
        Files.writeString(config, pair.leaderTaskJson());
        String[] opts = {"--aggregation-job-size", "50", "--aggregation-workers", "2",
            "--lease-duration", "3"};
        long started = System.nanoTime();
        a = ServeProcess.start(config, url, dir.resolve("a.log"), List.of(), opts);
        b = ServeProcess.start(config, url, dir.resolve("b.log"), List.of(), opts);
        ServeProcess.awaitPort(a);
        ServeProcess.awaitPort(b);
        // SIGKILL the first Leader while it holds a lease, once some jobs are finished
        boolean heldLease = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
          long done = count(url, "SELECT COALESCE(SUM(report_count), 0) FROM"
              + " leader_aggregation_jobs WHERE task_id = ? AND state = 'finished'", pair);
          heldLease = count(url, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE task_id = ?"
              + " AND state = 'active' AND lease_owner LIKE '%/" + a.pid() + "'", pair) > 0;
          if (done >= n / 5 && heldLease) {
            System.out.println("SIGKILL leader A (pid " + a.pid() + ") at " + done + " of " + n
                + " reports, holding a lease");
            break;
          }
          Thread.sleep(5);
        }
        a.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertTrue(heldLease, "the first Leader held a lease when killed");
        // wait until every report is claimed and every job finished
        while (System.nanoTime() < deadline) {
          long unclaimed = count(url, "SELECT COUNT(*) FROM client_reports WHERE task_id = ?"
              + " AND aggregation_job_id IS NULL", pair);
          long open = count(url, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE task_id = ?"
              + " AND state <> 'finished'", pair);
          if (unclaimed == 0 && open == 0) {
            break;
          }
          Thread.sleep(100);
        }
        long ms2 = (System.nanoTime() - started) / 1_000_000;
        long abandoned = count(url, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE"
            + " task_id = ? AND state = 'abandoned'", pair);
        long jobs = count(url, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE task_id = ?",
            pair);
        long retaken = count(url, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE"
            + " task_id = ? AND lease_attempts > 1", pair);
        System.out.println(n + " reports in " + jobs + " jobs, " + retaken + " leased more than"
            + " once, " + abandoned + " abandoned, " + ms2 + " ms");
        assertEquals(0, abandoned);
        Prio3 prio3 = new Prio3(pair.variant);
        BatchAggregation l = leaderStore.inTaskTransaction(pair.taskId,
            tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(now))).orElseThrow();
        BatchAggregation h = helperStore.inTaskTransaction(pair.taskId,
            tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(now))).orElseThrow();
        assertEquals(n, l.reportCount(), "Leader: every report once");
        assertEquals(n, h.reportCount(), "Helper: every report once");
        assertArrayEquals(LeaderPair.checksum(ids), l.checksum().toByteArray());
        assertArrayEquals(LeaderPair.checksum(ids), h.checksum().toByteArray());
        assertEquals(pair.truth(ms), prio3.unshard(List.of(
            FieldVector.decode(prio3.field(), l.aggregateShare().toByteArray(),
                prio3.outputLength()),
            FieldVector.decode(prio3.field(), h.aggregateShare().toByteArray(),
                prio3.outputLength())), n));
      } finally {
        if (a != null) {
          a.destroyForcibly();
        }
        if (b != null) {
          ServeProcess.stop(b);
        }
        helper.close();
      }
    }
  }

  private static long count(String url, String sql, LeaderPair pair) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement p = c.prepareStatement(sql)) {
      p.setBytes(1, pair.taskId.bytes());
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
