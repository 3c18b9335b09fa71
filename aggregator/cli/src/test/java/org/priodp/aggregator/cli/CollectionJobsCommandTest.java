package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.testing.RunningPair;

/**
 * {@code ./prio-dp collection-jobs list|delete} against a running Leader's SQLite store (issue 24
 * "Repair the pipeline"): a collection job that cannot fill blocks an overlapping collect
 * (batchOverlap); the timed-out collect says how to free it; the operator lists it with its
 * reason, deletes it, and the overlapping interval is then collected.
 */
class CollectionJobsCommandTest {
  @TempDir
  Path dir;

  @Test
  void aBlockedIntervalFreedFromTheCliIsThenCollected() throws Exception {
    try (RunningPair pair = new RunningPair(dir, 5)) {
      long h = RunningPair.hour() - 2;
      pair.upload(5, h);
      pair.awaitAggregated(h, 5);
      String collector = pair.task.dir.resolve("collector.json").toString();
      String leaderJson = pair.task.dir.resolve("leader.json").toString();
      String db = "jdbc:sqlite:" + pair.leaderDb();
      // the hour before has no report: its job cannot fill, and collect gives up at once
      CliRun stuck = CliRun.of("collect", "--task", collector, "--interval",
          ((h - 1) * 3600) + "/3600", "--timeout", "0");
      assertEquals(1, stuck.code(), stuck.err());
      assertTrue(stuck.err().contains("--delete="), stuck.err());
      assertTrue(stuck.err().contains("collection-jobs --config LEADER_TASK_FILE delete -- "),
          stuck.err());
      // two hours including the stuck one: refused, with the way out
      String both = ((h - 1) * 3600) + "/7200";
      CliRun overlap = CliRun.of("collect", "--task", collector, "--interval", both,
          "--timeout", "0");
      assertEquals(2, overlap.code(), overlap.err());
      assertTrue(overlap.err().contains("batchOverlap"), overlap.err());
      assertTrue(overlap.err().contains("collection-jobs --config LEADER_TASK_FILE list"),
          overlap.err());

      CliRun list = CliRun.of("collection-jobs", "--config", leaderJson, "--db", db, "list");
      assertEquals(0, list.code(), list.err());
      List<String> lines = list.out().lines().toList();
      assertEquals(1, lines.size(), list.out());
      // the interval as collect --interval takes it: RFC 3339 start, seconds
      assertTrue(lines.get(0).contains(" pending interval "
          + java.time.Instant.ofEpochSecond((h - 1) * 3600) + "/3600 "), lines.get(0));
      assertTrue(lines.get(0).endsWith("waiting: 0 of 5 reports (min_batch_size)"),
          lines.get(0));
      String jobId = lines.get(0).substring(0, lines.get(0).indexOf(' '));
      CliRun status = CliRun.of("status", "--config", leaderJson, "--db", db);
      assertEquals(0, status.code(), status.err());
      assertTrue(status.out().contains("  uploads: 5 accepted, none rejected"), status.out());
      assertTrue(status.out().contains("pending collection job " + jobId), status.out());
      assertTrue(status.out().contains("waiting: 0 of 5 reports (min_batch_size)"),
          status.out());

      // "--": a base64url ID may start with "-"
      CliRun delete = CliRun.of("collection-jobs", "--config", leaderJson, "--db", db,
          "delete", "--", jobId);
      assertEquals(0, delete.code(), delete.err());
      assertTrue(delete.out().startsWith("deleted collection job " + jobId), delete.out());
      assertTrue(CliRun.of("collection-jobs", "--config", leaderJson, "--db", db, "delete",
          "--", jobId).failedWithOneLine("has no collection job"));
      assertEquals("", CliRun.of("collection-jobs", "--config", leaderJson, "--db", db, "list")
          .out(), "a deleted job is listed only with --all");

      CliRun collected = CliRun.of("collect", "--task", collector, "--interval", both,
          "--timeout", "60");
      assertEquals(0, collected.code(), collected.err());
      assertTrue(collected.out().contains(": 5 reports from"), collected.out());
      CliRun help = CliRun.of("collection-jobs", "--help");
      assertTrue(help.out().contains("Example:"), help.out());
    }
  }
}
