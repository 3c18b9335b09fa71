package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.testing.EndToEndTask;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.ServeProcess;

/**
 * Issue 17, end to end with replicas: two Leader {@code serve} processes on one PostgreSQL
 * database (PRIODP_PG_URL; skipped without it) with one task file holding two tasks made by
 * {@code task new} (Prio3Histogram(10) without DP, Prio3SumVec(4) with discrete Laplace), and one
 * Helper {@code serve} process on its own SQLite store. Clients upload over HTTP to both Leaders
 * (half of the reports each, B's half first), the second Leader is SIGKILLed while it holds a lease in the middle
 * of aggregation (3 s leases, jobs of 50), the survivor takes its jobs over and finishes; then the
 * Collector collects both tasks through the surviving Leader: the report count is exactly the
 * number uploaded and the histogram is exact (every report counted once on both sides, else the
 * Helper refuses the count or the sum differs), and the DP result lies in its intervals
 * (confidence 1 - 10^-6 per coordinate). {@code -Dpriodp.seed} fixes the measurements.
 */
class EndToEndTwoLeadersPostgresTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void everyUploadedReportIsCollectedOnceAfterALeaderIsKilled() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED EndToEndTwoLeadersPostgresTest: PRIODP_PG_URL is not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL is not set");
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("EndToEndTwoLeadersPostgresTest seed=" + seed);
    int n = Integer.getInteger("priodp.e2e.reports", 3000);
    int nDp = 1000;
    int portA = LeaderPair.freePort();
    int portB = LeaderPair.freePort();
    int portH = LeaderPair.freePort();
    // the task's Leader endpoint is A's; B serves the same path (routes go by path)
    String leaderUrl = "http://127.0.0.1:" + portA + "/leader/";
    String helperUrl = "http://127.0.0.1:" + portH + "/helper/";
    EndToEndTask exact = EndToEndTask.create(dir.resolve("exact"), leaderUrl, helperUrl,
        "--vdaf", "Prio3Histogram", "--length", "10", "--chunk-length", "3",
        "--min-batch-size", "100");
    EndToEndTask noised = EndToEndTask.create(dir.resolve("dp"), leaderUrl, helperUrl,
        "--vdaf", "Prio3SumVec", "--length", "4", "--max-measurement", "7",
        "--chunk-length", "2", "--epsilon", "1", "--min-batch-size", "100");
    Path leaderJson = merge(dir.resolve("leader.json"), exact.dir.resolve("leader.json"),
        noised.dir.resolve("leader.json"));
    Path helperJson = merge(dir.resolve("helper.json"), exact.dir.resolve("helper.json"),
        noised.dir.resolve("helper.json"));

    String[] opts = {"--aggregation-job-size", "50", "--aggregation-workers", "2",
        "--lease-duration", "3"};
    Process h = null;
    Process a = null;
    Process b = null;
    try {
      h = ServeProcess.start(helperJson, "jdbc:sqlite:" + dir.resolve("helper.db"),
          dir.resolve("h.log"), portH, List.of());
      // each Leader's name in job leases, unique to this run
      String replicaB = "e2e-b-" + seed;
      a = ServeProcess.start(leaderJson, url, dir.resolve("a.log"), portA, List.of(),
          withReplica(opts, "e2e-a-" + seed));
      b = ServeProcess.start(leaderJson, url, dir.resolve("b.log"), portB, List.of(),
          withReplica(opts, replicaB));
      ServeProcess.awaitPort(h);
      ServeProcess.awaitPort(a);
      ServeProcess.awaitPort(b);

      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      Random random = new Random(seed);
      long t = System.currentTimeMillis() / 1000 / 3600 - 1;
      Clock clock = Clock.fixed(Instant.ofEpochSecond(t * 3600 + 60), ZoneOffset.UTC);
      List<List<BigInteger>> ms = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ms.add(exact.measurement(random));
      }
      List<List<BigInteger>> msDp = new ArrayList<>();
      for (int i = 0; i < nDp; i++) {
        msDp.add(noised.measurement(random));
      }
      SecureRandom ids = SecureRandom.getInstance("SHA1PRNG");
      ids.setSeed(seed);
      DapClient client = new DapClient(exact.client, http, ids, clock);
      DapClient clientDp = new DapClient(noised.client, http, ids, clock);
      // half of the reports to B first (B is killed later), then the other half to A with
      // DapClient.upload while both Leaders aggregate
      uploadTo(http, portB, client, ms.subList(n / 2, n));
      uploadTo(http, portB, clientDp, msDp.subList(nDp / 2, nDp));
      CompletableFuture<Void> uploads = CompletableFuture.runAsync(() -> {
        try {
          for (int from = 0; from < n / 2; from += 250) {
            assertTrue(client.upload(ms.subList(from, Math.min(n / 2, from + 250))).status()
                .isEmpty(), "upload to A");
          }
          assertTrue(clientDp.upload(msDp.subList(0, nDp / 2)).status().isEmpty());
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });

      // SIGKILL B while it holds a lease, once a fifth of the histogram reports are aggregated
      boolean heldLease = false;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (System.nanoTime() < deadline) {
        long done = count(url, "SELECT COALESCE(SUM(report_count), 0) FROM"
            + " leader_aggregation_jobs WHERE task_id = ? AND state = 'finished'", exact.leader
            .taskId());
        heldLease = count(url, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE task_id = ?"
            + " AND state = 'active' AND lease_owner = '" + replicaB + "'",
            exact.leader.taskId()) > 0;
        if (done >= n / 5 && heldLease) {
          System.out.println("SIGKILL leader B (pid " + b.pid() + ") at " + done + " of " + n
              + " reports, holding a lease");
          break;
        }
        Thread.sleep(2);
      }
      b.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      assertTrue(heldLease, "Leader B held a lease when killed");
      uploads.get(120, TimeUnit.SECONDS);

      long started = System.nanoTime();
      Duration timeout = Duration.ofSeconds(120);
      CollectionResult r = collector(exact, http, timeout)
          .collect(new Query.TimeInterval(Interval.of(t, 1)), (poll, wait, waited) -> { });
      CollectionResult rDp = collector(noised, http, timeout)
          .collect(new Query.TimeInterval(Interval.of(t, 1)), (poll, wait, waited) -> { });
      long retaken = count(url, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE"
          + " task_id = ? AND lease_attempts > 1", exact.leader.taskId());
      long abandoned = count(url, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE"
          + " task_id = ? AND state = 'abandoned'", exact.leader.taskId());
      System.out.println("collected " + r.reportCount() + " of " + n + " and " + rDp.reportCount()
          + " of " + nDp + " reports through Leader A, " + retaken + " job(s) taken over, "
          + abandoned + " abandoned, " + (System.nanoTime() - started) / 1_000_000
          + " ms after the kill and the last upload");
      assertEquals(n, r.reportCount(), "every uploaded report counted once");
      assertEquals(EndToEndTask.truth(exact.variant, ms), r.result().estimates(),
          "the histogram is exact");
      assertEquals(nDp, rDp.reportCount(), "every uploaded DP report counted once");
      List<BigInteger> truth = EndToEndTask.truth(noised.variant, msDp);
      for (int i = 0; i < truth.size(); i++) {
        assertTrue(truth.get(i).compareTo(rDp.result().lower(i)) >= 0
            && truth.get(i).compareTo(rDp.result().upper(i)) <= 0, "coordinate " + i + ": "
            + truth.get(i) + " outside [" + rDp.result().lower(i) + ", " + rDp.result().upper(i)
            + "] (seed=" + seed + ")");
      }
    } finally {
      if (b != null) {
        b.destroyForcibly();
      }
      if (a != null) {
        ServeProcess.stop(a);
      }
      if (h != null) {
        ServeProcess.stop(h);
      }
    }
  }

  /** Builds the reports with the Client and POSTs them to Leader B, which must accept all. */
  private static void uploadTo(HttpClient http, int port, DapClient client,
      List<List<BigInteger>> ms) throws Exception {
    DapClient.AggregatorConfigs configs = client.hpkeConfigs();
    List<Report> reports = new ArrayList<>();
    for (List<BigInteger> m : ms) {
      reports.add(client.report(m, configs));
    }
    URI uri = URI.create("http://127.0.0.1:" + port + "/leader/tasks/"
        + client.task().taskId().toBase64Url() + "/reports");
    for (int from = 0; from < reports.size(); from += 100) {
      HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri)
          .header("Content-Type", DapMediaType.UPLOAD_REQ.contentType())
          .POST(HttpRequest.BodyPublishers.ofByteArray(new UploadRequest(
              reports.subList(from, Math.min(reports.size(), from + 100))).encode())).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(200, r.statusCode(), "upload to B");
      assertEquals(0, r.body().length, "upload to B: every report accepted");
    }
  }

  private static DapCollector collector(EndToEndTask task, HttpClient http, Duration timeout) {
    return new DapCollector(task.collector.parameters(), task.collector.collectorAuthToken(),
        task.collector.hpkeConfig(), task.collector.hpkeKey(), http,
        d -> Thread.sleep(d.toMillis()), timeout, 1 - 1e-6);
  }

  /** Writes one task file holding the tasks of the given files. */
  private static Path merge(Path out, Path... files) throws Exception {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode all = root.putArray("tasks");
    for (Path f : files) {
      JSON.readTree(f.toFile()).get("tasks").forEach(all::add);
    }
    Files.writeString(out, JSON.writeValueAsString(root));
    return out;
  }

  private static long count(String url, String sql, TaskId task) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement p = c.prepareStatement(sql)) {
      p.setBytes(1, task.bytes());
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static String[] withReplica(String[] opts, String replica) {
    String[] all = java.util.Arrays.copyOf(opts, opts.length + 2);
    all[opts.length] = "--replica-id";
    all[opts.length + 1] = replica;
    return all;
  }
}
