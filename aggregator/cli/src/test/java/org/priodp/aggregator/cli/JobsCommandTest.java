package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.provision.ProvisionedTask;
import org.priodp.aggregator.taskfile.TaskFile;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * {@code ./prio-dp jobs list|requeue} on a real SQLite store and a Leader task file: an abandoned
 * job is listed with its error, requeued in one transaction (its reports claimable by a new job,
 * except one already aggregated, which must not be counted twice), and stays abandoned with a
 * note. Seeds are printed.
 */
class JobsCommandTest {
  @TempDir
  Path dir;

  @Test
  void listsAnAbandonedJobAndRequeuesItsReportsButNotOneAlreadyAggregated() throws Exception {
    long seed = System.nanoTime();
    System.out.println("JobsCommandTest seed " + seed);
    Random random = new Random(seed);
    Prio3Variant v = new Prio3Variant.Count();
    ProvisionedTask task = ProvisionedTask.generate(DapVersion.DAP_19,
        TaskDefinition.configurationFor(v, new byte[0], "https://l.example/", "https://h.example/",
            60, 1, BatchMode.TIME_INTERVAL, List.of()), v, new DpStrategy.NoDifferentialPrivacy(),
        SensitivityRule.PRIODP, new SecureRandom());
    Path leader = dir.resolve("leader.json");
    Files.writeString(leader, task.render().get("leader.json"), StandardCharsets.UTF_8);
    TaskId taskId = TaskFile.read(leader).get(0).taskId();
    Path file = dir.resolve("leader.db");
    Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    AggregationJobId abandoned = jobId(random);
    AggregationJobId active = jobId(random);
    ReportId counted;
    try (JdbcDatastore store = JdbcDatastore.openSqlite(file)) {
      ReportId[] ids = new ReportId[3];
      for (int i = 0; i < ids.length; i++) {
        byte[] b = new byte[ReportId.LENGTH];
        random.nextBytes(b);
        ids[i] = new ReportId(b);
        ReportId id = ids[i];
        boolean in = store.inTaskTransaction(taskId, tx -> tx.clientReports().insertIfAbsent(id,
            1000, ByteString.copyOf(new byte[] {1, 2, 3})));
        assertTrue(in);
      }
      counted = ids[1];
      store.inTaskTransaction(taskId, tx -> {
        tx.aggregationJobs().createLeader(abandoned, 10, 1, Optional.empty(), now).orElseThrow();
        // the Helper's answer committed one of them once, by some earlier run
        tx.clientReports().insertAggregated(counted, abandoned, 1000);
        return null;
      });
      LeaderAggregationJob leased = store.jobLeases().leaseAggregationJob(List.of(taskId), "t",
          ByteString.copyOf(new byte[16]), now, Duration.ofMinutes(1)).orElseThrow();
      assertEquals(abandoned, leased.jobId());
      assertTrue(store.jobLeases().abandonAggregationJob(taskId, abandoned,
          ByteString.copyOf(new byte[16]), "the Helper's AggregationJobResp lists other report"
          + " IDs", now));
      boolean more = store.inTaskTransaction(taskId, tx -> tx.clientReports().insertIfAbsent(
          new ReportId(new byte[ReportId.LENGTH]), 1000, ByteString.copyOf(new byte[] {4})));
      assertTrue(more);
      store.inTaskTransaction(taskId,
          tx -> tx.aggregationJobs().createLeader(active, 10, 1, Optional.empty(), now));
    }
    String db = "jdbc:sqlite:" + file;
    String[] base = {"jobs", "--config", leader.toString(), "--db", db};

    CliRun list = CliRun.of(concat(base, "list"));
    assertEquals(0, list.code(), list.err());
    List<String> lines = list.out().lines().toList();
    assertEquals(2, lines.size(), list.out());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith(abandoned.toBase64Url()
        + " abandoned reports=3 attempts=1 error=\"the Helper's AggregationJobResp lists other")),
        list.out());
    assertTrue(lines.stream().anyMatch(l -> l.equals(active.toBase64Url()
        + " active reports=1 attempts=0 next_attempt=now")), list.out());

    // "--": a base64url job ID may start with a dash
    CliRun requeue = CliRun.of(concat(base, "requeue", "--", abandoned.toBase64Url()));
    assertEquals(0, requeue.code(), requeue.err());
    assertEquals("requeued " + abandoned.toBase64Url() + ": 2 reports back in the pool",
        requeue.out().strip());
    try (JdbcDatastore store = JdbcDatastore.openSqlite(file)) {
      AggregationJobId again = jobId(random);
      Optional<LeaderAggregationJob> job = store.inTaskTransaction(taskId,
          tx -> tx.aggregationJobs().createLeader(again, 10, 1, Optional.empty(), now));
      assertEquals(2, job.orElseThrow().reportCount(), "the two, not the aggregated one");
      List<ReportId> claimed = store.inTaskTransaction(taskId, tx -> tx.clientReports()
          .claimedBy(again)).stream().map(r -> r.reportId()).toList();
      assertTrue(!claimed.contains(counted), "an aggregated report is not counted twice");
      LeaderAggregationJob before = store.inTaskTransaction(taskId,
          tx -> tx.aggregationJobs().leader(abandoned)).orElseThrow();
      assertEquals(LeaderAggregationJob.State.ABANDONED, before.state());
      assertEquals(0, before.reportCount());
      assertTrue(before.errorDetail().orElseThrow().contains("; requeued by the operator at "),
          before.errorDetail().toString());
    }
    CliRun all = CliRun.of(concat(base, "requeue", "--all-abandoned"));
    assertEquals(0, all.code(), all.err());
    assertEquals("requeued 0 jobs, 0 reports", all.out().strip(), "nothing left to requeue");

    assertTrue(CliRun.of(concat(base, "requeue", "--", active.toBase64Url()))
        .failedWithOneLine("has no abandoned job " + active.toBase64Url()));
    assertTrue(CliRun.of(concat(base, "requeue")).failedWithOneLine(
        "name one JOB_ID or --all-abandoned"));
    assertTrue(CliRun.of(concat(base, "requeue", "x")).failedWithOneLine("JOB_ID:"));
    CliRun help = CliRun.of("jobs", "--help");
    assertEquals(0, help.code());
    assertTrue(help.out().contains("Example:"), help.out());
  }

  private static AggregationJobId jobId(Random random) {
    byte[] b = new byte[AggregationJobId.LENGTH];
    random.nextBytes(b);
    return new AggregationJobId(b);
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
