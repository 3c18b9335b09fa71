package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.dap.AggregateShareAad;
import org.priodp.aggregator.dap.AggregateShareEncryption;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.CollectionJobResp;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.taskfile.CollectorTaskFile;
import org.priodp.aggregator.testing.FakeHttp.Response;
import org.priodp.aggregator.testing.FakeHttp;
import org.priodp.field.Field128;
import org.priodp.field.FieldVector;

/**
 * {@code collect}: the batch interval converted to time_precision units exactly as task files
 * convert times, the query per batch mode, the table, JSON and CSV outputs with intervals, the
 * progress line while the Leader defers, and one-line errors naming the option or the DAP error.
 */
class CollectCommandTest {
  @TempDir
  Path dir;

  private Path collectorJson(String leaderUrl, String... more) {
    Path out = dir.resolve("t" + System.nanoTime());
    List<String> args = new ArrayList<>(List.of("task", "new", "--vdaf", "Prio3Histogram",
        "--length", "4", "--chunk-length", "2", "--leader-url", leaderUrl, "--helper-url",
        "https://helper.example/", "--out", out.toString()));
    args.addAll(List.of(more));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    return out.resolve("collector.json");
  }

  /** A Leader that defers once (Retry-After 0) and then answers shares summing to 3, 3, 1, 2. */
  private static FakeHttp leader(Path[] collector) throws Exception {
    return leader(collector, false, null);
  }

  /**
   * A Leader that answers shares summing to 3, 3, 1, 2: at once to the POST if {@code
   * releasedBefore} (a repeat), else after deferring once; with {@code ledger} as its
   * Priodp-Privacy-Ledger header if not null.
   */
  private static FakeHttp leader(Path[] collector, boolean releasedBefore, String ledger)
      throws Exception {
    AtomicInteger gets = new AtomicInteger();
    byte[][] request = new byte[1][];
    return new FakeHttp(req -> {
      try {
        CollectorTask f = CollectorTaskFile.read(collector[0]);
        if (req.method().equals("POST")) {
          assertEquals(f.collectorAuthToken().authorizationHeader(), req.header("Authorization"));
          request[0] = req.body();
          if (!releasedBefore) {
            return new Response(200, Map.of("Location", req.path() + "/job", "Retry-After", "0"),
                new byte[0]);
          }
        } else if (gets.incrementAndGet() == 1) {
          return new Response(200, Map.of("Retry-After", "0"), new byte[0]);
        }
        TaskParameters p = f.parameters();
        CollectionJobReq cjr = CollectionJobReq.decode(request[0]);
        AggregateShareAad aad = new AggregateShareAad(p.taskId(), p.configuration(), cjr);
        byte[] l = FieldVector.fromSigned(Field128.FIELD, 5, 3, 0, 1).encode();
        byte[] h = FieldVector.fromSigned(Field128.FIELD, -2, 0, 1, 1).encode();
        Interval i = ((Query.TimeInterval) cjr.query()).batchInterval();
        CollectionJobResp resp = new CollectionJobResp(9, Interval.of(i.start().value(), 1),
            AggregateShareEncryption.seal(p.dapVersion(), f.hpkeConfig(), Role.LEADER, aad, l),
            AggregateShareEncryption.seal(p.dapVersion(), f.hpkeConfig(), Role.HELPER, aad, h));
        return ledger == null ? Response.of(200, resp.encode())
            : new Response(200, Map.of("Location", "/job",
                org.priodp.aggregator.task.LedgerHeader.NAME, ledger), resp.encode());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /**
   * collect with another file of task new names the file and the one it needs (issue 24: "unknown
   * field" of the Helper's file).
   */
  @Test
  void aTaskFileOfAnotherKindIsNamed() {
    CliRun made = CliRun.taskNew(dir);
    assertEquals(0, made.code(), made.err());
    for (String[] c : new String[][] {{"helper.json", "a Helper's"}, {"leader.json", "a Leader's"},
        {"client.json", "a Client's"}}) {
      CliRun r = CliRun.of("collect", "--task", dir.resolve(c[0]).toString(), "--interval",
          "0/3600");
      assertTrue(r.failedWithOneLine(c[0] + " is " + c[1] + " task file; collect needs the"
          + " Collector's (collector.json, written by task new)"), r.err());
      assertEquals(2, r.code());
    }
  }

  @Test
  void printsTheTableWithIntervalsAfterPollingWithAProgressLine() throws Exception {
    Path[] collector = new Path[1];
    try (FakeHttp leader = leader(collector)) {
      collector[0] = collectorJson(leader.url() + "/", "--epsilon", "1");
      CliRun r = CliRun.of("collect", "--task", collector[0].toString(), "--interval",
          "2026-01-01T00:00:00Z/86400");
      assertEquals(0, r.code(), r.err());
      assertTrue(r.err().contains("waiting for the collection job"), r.err());
      String[] lines = r.out().split("\n");
      assertTrue(lines[0].matches("task \\S+: 9 reports from 2026-01-01T00:00:00Z to"
          + " 2026-01-01T01:00:00Z, Prio3Histogram\\(length=4, chunk_length=2\\)"), lines[0]);
      assertTrue(r.out().contains("index      estimate  95% interval"), r.out());
      assertTrue(lines[3].matches("\\s+0\\s+3\\s+\\[-\\d+, \\d+\\]\\s*"), lines[3]);
      assertTrue(lines[6].matches("\\s+3\\s+2\\s+\\[-\\d+, \\d+\\]\\s*"), lines[6]);
      assertTrue(r.out().contains("independent noise draws"), r.out());
      // issue 25: the default sampler is the fixed-work one: (epsilon, (1 + e^epsilon) n delta)
      assertTrue(r.out().endsWith("  guarantee of this release: (1, 2^-60.1)-DP per report:"
          + " epsilon = 1 with the fixed-work discrete Laplace sampler, the 4 draws of each"
          + " aggregator within total variation 2^-62 of the exact noise\n"
          + "  privacy ledger: the Leader did not report its ledger (prio-dp budget on the Leader"
          + " prints it)\n"), r.out());
      // the query carried the interval in time_precision units: 2026-01-01 is hour 490896
      assertEquals(3, leader.requests.size());
    }
  }

  /**
   * Issue 25: a collector.json that says the aggregators use the exact sampler states pure DP; a
   * repeat says it cost nothing more; the Leader's ledger header is printed.
   */
  @Test
  void theGuaranteeNamesTheSamplerARepeatCostsNothingAndTheLedgerIsPrinted() throws Exception {
    Path[] collector = new Path[1];
    String ledger = "measure=epsilon, cost=\"1\", spent=\"3\", remaining=\"27\","
        + " released=1767225600, cap=\"epsilon 30 per client over any 2592000 s window\"";
    try (FakeHttp leader = leader(collector, true, ledger)) {
      collector[0] = collectorJson(leader.url() + "/", "--epsilon", "1");
      CliRun r = CliRun.of("collect", "--task", collector[0].toString(), "--interval",
          "2026-01-01T00:00:00Z/86400");
      assertEquals(0, r.code(), r.err());
      assertTrue(r.out().contains("  a repeat: the Leader had released this batch before this"
          + " collect began; it drew no noise again and this collection cost nothing more\n"
          + "  privacy ledger (the Leader's, when it answered): this release cost epsilon 1 per"
          + " privacy unit; spent 3, remaining 27 of the cap: epsilon 30 per client over any"
          + " 2592000 s window (the cost is the batch's first release)\n"), r.out());
      JsonNode j = new ObjectMapper().readTree(CliRun.of("collect", "--task",
          collector[0].toString(), "--interval", "2026-01-01T00:00:00Z/86400", "--format", "json")
          .out()).get("privacy");
      assertTrue(j.get("released_before").asBoolean(), j.toString());
      assertEquals("27", j.get("ledger").get("remaining").asText());
      assertEquals("(1, 2^-60.1)-DP", j.get("guarantee").asText());

      ObjectNode exact = (ObjectNode) new ObjectMapper().readTree(collector[0].toFile());
      assertEquals("hardened", exact.get("noise_sampler").asText(), "task new writes it");
      exact.put("noise_sampler", "exact");
      java.nio.file.Files.writeString(collector[0], exact.toString());
      CliRun e = CliRun.of("collect", "--task", collector[0].toString(), "--interval",
          "2026-01-01T00:00:00Z/86400");
      assertTrue(e.out().contains("  guarantee of this release: 1-DP per report: epsilon = 1"
          + " with the exact discrete Laplace sampler\n"), e.out());
    }
  }

  /**
   * Issue 25: a Leader that refuses the job because the task's privacy budget cannot pay for it:
   * collect prints the problem (type and detail) and where to see the ledger.
   */
  @Test
  void aBudgetRefusalNamesTheProblemAndTheLedger() throws Exception {
    String problem = "{\"type\": \"urn:priodp:problem:privacyBudgetExhausted\", \"title\":"
        + " \"The task's privacy budget cannot pay for this release\", \"status\": 403,"
        + " \"detail\": \"privacy budget exhausted: epsilon 3 per report over the task's life;"
        + " spent epsilon 3, left 0; this release would cost 1\"}";
    try (FakeHttp leader = new FakeHttp(req -> new Response(403,
        Map.of("Content-Type", "application/problem+json"),
        problem.getBytes(StandardCharsets.UTF_8)))) {
      Path collector = collectorJson(leader.url() + "/", "--epsilon", "1");
      CliRun r = CliRun.of("collect", "--task", collector.toString(), "--interval",
          "2026-01-01T00:00:00Z/86400");
      assertEquals(2, r.code(), r.err());
      assertTrue(r.err().contains("the Leader refused the collection job:"
          + " urn:priodp:problem:privacyBudgetExhausted (HTTP 403): privacy budget exhausted:"
          + " epsilon 3 per report over the task's life; spent epsilon 3, left 0; this release"
          + " would cost 1; the task's privacy budget cannot pay for this batch (nothing was"
          + " drawn). On the Leader, prio-dp budget --config LEADER_TASK_FILE lists the"
          + " releases"), r.err());
    }
  }

  @Test
  void printsJsonAndCsv() throws Exception {
    Path[] collector = new Path[1];
    try (FakeHttp leader = leader(collector)) {
      collector[0] = collectorJson(leader.url());
      CliRun csv = CliRun.of("collect", "--task", collector[0].toString(), "--interval",
          "1767225600/7200", "--format", "csv");
      assertEquals(0, csv.code(), csv.err());
      assertEquals("index,estimate,lower,upper\n0,3,3,3\n1,3,3,3\n2,1,1,1\n3,2,2,2\n",
          csv.out());
      CliRun json = CliRun.of("collect", "--task", collector[0].toString(), "--interval",
          "1767225600/7200", "--format", "JSON");
      assertEquals(0, json.code(), json.err());
      JsonNode n = new ObjectMapper().readTree(json.out());
      assertEquals(9, n.get("report_count").asInt());
      assertEquals("2026-01-01T00:00:00Z", n.get("interval").get("start").asText());
      assertEquals("[3,3,1,2]", n.get("aggregate").toString());
      assertEquals("[[3,3],[3,3],[1,1],[2,2]]", n.get("intervals").toString());
      assertEquals("NoDifferentialPrivacy", n.get("strategy").asText());
    }
  }

  @Test
  void aCollectorFileReadableByOthersIsWarnedAbout() throws Exception {
    Path c = collectorJson("http://127.0.0.1:9/");
    CliRun quiet = CliRun.of("collect", "--task", c.toString(), "--interval", "0/3600",
        "--timeout", "0");
    assertEquals(1, quiet.err().lines().count(), quiet.err());
    java.nio.file.Files.setPosixFilePermissions(c,
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    CliRun r = CliRun.of("collect", "--task", c.toString(), "--interval", "0/3600",
        "--timeout", "0");
    assertTrue(r.err().startsWith("collect: warning: " + c + " is readable by other users (mode"
        + " rw-r--r--) but holds the Collector's private key and token: chmod 600 " + c + "\n"),
        r.err());
  }

  @Test
  void theIntervalIsConvertedExactlyToTimePrecisionUnits() {
    assertEquals(Interval.of(490_896, 24),
        CollectCommand.interval("--interval", "2026-01-01T00:00:00Z/86400", 3600));
    assertEquals(Interval.of(490_896, 2),
        CollectCommand.interval("--interval", "1767225600/7200", 3600));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CollectCommand.interval("--interval", "1767225600/5400", 3600));
    assertEquals("--interval.duration: 5400 s is not a multiple of the time_precision 3600 s",
        e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> CollectCommand.interval("--interval", "2026-01-01T00:00:00Z", 3600));
    assertThrows(IllegalArgumentException.class,
        () -> CollectCommand.interval("--interval", "yesterday/3600", 3600));
  }

  @Test
  void errorsAreOneLineNamingTheOptionOrTheDapError() throws Exception {
    Path timeInterval = collectorJson("http://127.0.0.1:9/");
    assertTrue(CliRun.of("collect", "--task", timeInterval.toString())
        .failedWithOneLine("--interval: a time_interval task needs the batch interval"));
    assertTrue(CliRun.of("collect", "--task", timeInterval.toString(), "--interval",
        "0/3600", "--format", "xml").failedWithOneLine("--format"));
    // a Leader that is down is retried until --timeout (here none): then one line
    CliRun down = CliRun.of("collect", "--task", timeInterval.toString(), "--interval",
        "0/3600", "--timeout", "0");
    assertEquals(1, down.code());
    assertTrue(down.failedWithOneLine("cannot connect to http://127.0.0.1:9/"), down.err());
    // the URL and the question, not the JDK's ClosedChannelException (issue 24)
    assertTrue(down.err().contains(": connection refused; is the Leader running?"), down.err());
    assertFalse(down.err().contains("Exception"), down.err());
    Path leaderSelected = collectorJson("http://127.0.0.1:9/", "--batch-mode", "leader_selected");
    assertTrue(CliRun.of("collect", "--task", leaderSelected.toString(), "--interval", "0/3600")
        .failedWithOneLine("--interval: a leader_selected task"));
    assertTrue(CliRun.of("collect", "--task", dir.resolve("none.json").toString())
        .failedWithOneLine("no such file"));
    try (FakeHttp refusing = new FakeHttp(req -> new Response(400,
        Map.of("Content-Type", "application/problem+json"),
        "{\"type\":\"urn:ietf:params:ppm:dap:error:batchInvalid\",\"detail\":\"too long\"}"
            .getBytes(StandardCharsets.UTF_8)))) {
      Path c = collectorJson(refusing.url());
      CliRun r = CliRun.of("collect", "--task", c.toString(), "--interval", "0/3600");
      assertEquals(2, r.code());
      assertTrue(r.failedWithOneLine("collect: the Leader refused the collection job:"
          + " batchInvalid (HTTP 400): too long"), r.err());
    }
  }

  /**
   * A task whose noise follows the reports' budgets needs --min-dp-budget (the release's epsilon),
   * said in one line before any request; a bad value names the option.
   */
  @Test
  void aReportBudgetTaskNeedsMinDpBudgetInOneLine() throws Exception {
    Path c = collectorJson("http://127.0.0.1:9/", "--dp-strategy", "ReportBudgetDiscreteLaplace");
    assertTrue(CliRun.of("collect", "--task", c.toString(), "--interval", "0/3600")
        .failedWithOneLine("collect: --min-dp-budget: required for this task: its dp_strategy"
            + " ReportBudgetDiscreteLaplace noises each release at the epsilon"));
    assertTrue(CliRun.of("collect", "--task", c.toString(), "--interval", "0/3600",
        "--min-dp-budget", "0").failedWithOneLine("collect: --min-dp-budget: min_dp_budget must be"
            + " at least one micro-epsilon"));
    assertTrue(CliRun.of("collect", "--task", c.toString(), "--interval", "0/3600",
        "--min-dp-budget", "x").failedWithOneLine("collect: --min-dp-budget: expected an epsilon"));
  }

  /**
   * collect outlives a Leader restart (issue 24): while it polls a job that waits for reports,
   * the Leader's server stops (connection refused) and starts again on the same port and store;
   * collect prints why it waits, one line for the outage and one when the Leader is back, and
   * then the batch with every report.
   */
  @Test
  void collectSurvivesALeaderRestartDuringPolling() throws Exception {
    try (org.priodp.aggregator.testing.RunningPair pair =
        new org.priodp.aggregator.testing.RunningPair(dir, 5)) {
      long h = org.priodp.aggregator.testing.RunningPair.hour() - 2;
      pair.upload(3, h);
      pair.awaitAggregated(h, 3);
      java.util.concurrent.CountDownLatch waiting = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.CountDownLatch down = new java.util.concurrent.CountDownLatch(1);
      StringBuffer err = new StringBuffer();
      java.io.Writer watching = new java.io.Writer() {
        @Override
        public void write(char[] buf, int off, int len) {
          err.append(buf, off, len);
          if (err.indexOf("waiting: the Leader has not finished the batch") >= 0) {
            waiting.countDown();
          }
          if (err.indexOf("the Leader is unavailable") >= 0) {
            down.countDown();
          }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
      };
      picocli.CommandLine cl = PrioDp.commandLine();
      java.io.StringWriter out = new java.io.StringWriter();
      cl.setOut(new java.io.PrintWriter(out));
      cl.setErr(new java.io.PrintWriter(watching, true));
      java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newSingleThreadExecutor();
      try {
        java.util.concurrent.Future<Integer> run = pool.submit(() -> cl.execute("collect",
            "--task", pair.task.dir.resolve("collector.json").toString(), "--interval",
            (h * 3600) + "/3600", "--timeout", "300"));
        assertTrue(waiting.await(60, java.util.concurrent.TimeUnit.SECONDS), err.toString());
        pair.stopLeader();
        assertTrue(down.await(60, java.util.concurrent.TimeUnit.SECONDS), err.toString());
        pair.startLeader();
        pair.upload(2, h);
        assertEquals(0, run.get(300, java.util.concurrent.TimeUnit.SECONDS), err.toString());
      } finally {
        pool.shutdownNow();
      }
      assertTrue(out.toString().contains(": 5 reports from"), out + "\n" + err);
      String e = err.toString();
      assertEquals(1, e.split("the Leader is unavailable", -1).length - 1, e);
      assertTrue(e.contains("cannot connect to http://127.0.0.1:" + pair.leaderPort + "/")
          && e.contains("connection refused; is the Leader running?"), e);
      assertTrue(e.contains("collect: the Leader answers again after"), e);
    }
  }
}
