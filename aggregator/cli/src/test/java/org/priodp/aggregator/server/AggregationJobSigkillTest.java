package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.AggregationJobService;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.ServeProcess;

/**
 * Issue 16: a test Leader posts aggregation jobs to a {@code serve} child process on an SQLite
 * file while the test SIGKILLs it at random points (3 rounds, restarting on the same file and
 * re-posting every job, plus 20 new jobs a round). After each kill the buckets hold exactly the
 * reports of the stored jobs (no job half applied) and every answered job is stored; at the end
 * every report is counted exactly once in its bucket (count and checksum), every job's answers
 * are byte-identical, and every report was aggregated (VerifyResp continue). Options:
 * {@code -Dpriodp.seed}, {@code -Dpriodp.sigkill.jobs} (40), {@code -Dpriodp.sigkill.freshJobs}
 * (20), {@code -Dpriodp.sigkill.rounds} (3), {@code -Dpriodp.sigkill.reports} (20 per job). The
 * HPKE encapsulation is fresh each run, so a seed reproduces the reports' measurements, IDs and
 * kill times, not the ciphertexts.
 */
class AggregationJobSigkillTest {
  private static final String TYPE = "application/ppm-dap;message=aggregation-job-init-req";
  private static final String AUTH = "Bearer leader-token_0123456789";

  @TempDir
  Path dir;

  /** The task file of the spec Leader's task (AggregationJobsRouteTest.Task) for serve. */
  static String taskJson(AggregationJobsRouteTest.Task t) {
    Base64.Encoder b = Base64.getUrlEncoder().withoutPadding();
    return "{\"tasks\": [{\"task_id\": \"" + b.encodeToString(t.taskId) + "\","
        + " \"task_info\": \"agg-test\","
        + " \"leader_aggregator_endpoint\": \"https://leader.example/\","
        + " \"helper_aggregator_endpoint\": \"https://helper.example/dap/\","
        + " \"time_precision\": 3600, \"min_batch_size\": 1, \"batch_mode\": \"time_interval\","
        + " \"vdaf\": {\"type\": \"Prio3Histogram\", \"length\": 4, \"chunk_length\": 2},"
        + " \"dp_strategy\": {\"dp_strategy\": \"NoDifferentialPrivacy\"},"
        + " \"collector_hpke_config\": {\"id\": 7, \"kem_id\": 32, \"kdf_id\": 1, \"aead_id\": 1,"
        + " \"public_key\": \"" + b.encodeToString(t.collector.publicKey()) + "\"},"
        + " \"auth_token\": \"leader-token_0123456789\","
        + " \"vdaf_verify_key\": \"" + b.encodeToString(t.verifyKey) + "\"}]}";
  }

  static AggregationJobsRouteTest.Task histogramTask(AggregationJobsRouteTest l) {
    return l.new Task((AggregationJobsRouteTest.Vdaf) AggregationJobsRouteTest.vdafs().toList()
        .get(3).get()[0], null);
  }

  static HttpRequest post(AggregationJobsRouteTest.Task t, int port, byte[] body) {
    return HttpRequest.newBuilder(URI.create(t.jobsUrl(port))).timeout(Duration.ofSeconds(30))
        .header("Content-Type", TYPE).header("Authorization", AUTH)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
  }

  /** One job: its reports (all in one bucket) and its body. */
  record Job(long time, List<AggregationJobsRouteTest.Report> reports, byte[] body) {}

  static List<Job> jobs(AggregationJobsRouteTest l, AggregationJobsRouteTest.Task t,
      AggregationJobsRouteTest.Advertised helper, Random rnd, int jobs, int perJob)
      throws Exception {
    long now = AggregationJobsRouteTest.now();
    List<Job> out = new ArrayList<>();
    for (int j = 0; j < jobs; j++) {
      long time = now - (j % 2);
      List<AggregationJobsRouteTest.Report> rs = new ArrayList<>();
      for (int i = 0; i < perJob; i++) {
        rs.add(l.report(t, helper, time, List.of(BigInteger.valueOf(rnd.nextInt(4)))));
      }
      out.add(new Job(time, rs, AggregationJobsRouteTest.initReq(0, rs)));
    }
    return out;
  }

  /** Asserts each bucket of the jobs holds exactly their reports once (count and checksum). */
  static void assertEachReportCountedOnce(JdbcDatastore store, TaskId taskId,
      List<Job> all, List<Job> jobs, String context) throws Exception {
    Map<Long, List<AggregationJobsRouteTest.Report>> byBucket = new HashMap<>();
    for (Job j : all) {
      byBucket.put(j.time(), new ArrayList<>());
    }
    for (Job j : jobs) {
      byBucket.computeIfAbsent(j.time(), k -> new ArrayList<>()).addAll(j.reports());
    }
    for (Map.Entry<Long, List<AggregationJobsRouteTest.Report>> e : byBucket.entrySet()) {
      java.util.Optional<BatchAggregation> o = store.inTaskTransaction(taskId,
          tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(e.getKey())));
      if (e.getValue().isEmpty() && o.isEmpty()) {
        continue;
      }
      BatchAggregation a = o.orElseThrow(
          () -> new AssertionError(context + ": no bucket " + e.getKey()));
      assertEquals(e.getValue().size(), a.reportCount(), context + ": bucket " + e.getKey());
      assertArrayEquals(AggregationJobsRouteTest.checksum(e.getValue()),
          a.checksum().toByteArray(), context + ": checksum of bucket " + e.getKey());
    }
  }

  @Test
  void sigkillWhileAggregatingCountsEveryReportOnceAndAnswersStayIdentical() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AggregationJobSigkillTest seed=" + seed);
    Random rnd = new Random(seed);
    int jobCount = Integer.getInteger("priodp.sigkill.jobs", 40);
    int fresh = Integer.getInteger("priodp.sigkill.freshJobs", 20);
    int rounds = Integer.getInteger("priodp.sigkill.rounds", 3);
    int perJob = Integer.getInteger("priodp.sigkill.reports", 20);
    AggregationJobsRouteTest l = AggregationJobFuzzTest.leader(dir, seed);
    AggregationJobsRouteTest.Task t = histogramTask(l);
    Path config = dir.resolve("tasks.json");
    Files.writeString(config, taskJson(t));
    Path db = dir.resolve("helper.db");
    Path log = dir.resolve("server.log");
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    long start = System.nanoTime();
    List<Job> jobs = null;
    AggregationJobsRouteTest.Advertised helper = null;
    Map<Integer, byte[]> answered = new HashMap<>();
    int cutOff = 0;
    for (int round = 0; round < rounds; round++) {
      Process p = ServeProcess.start(config, "jdbc:sqlite:" + db, log, List.of());
      try {
        int port = ServeProcess.awaitPort(p);
        AggregationJobsRouteTest.Advertised h = AggregationJobsRouteTest.hpkeConfig(port,
            "/dap/hpke_config");
        if (helper == null) {
          helper = h;
          jobs = jobs(l, t, helper, rnd, jobCount, perJob);
        } else {
          assertEquals(helper, h, "the HPKE key survives a restart");
          // New work for this round too, so that the kill is likely to land mid-aggregation.
          jobs.addAll(jobs(l, t, helper, rnd, fresh, perJob));
        }
        // The jobs not answered yet first, so that the kill lands while they are aggregated.
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < jobs.size(); k++) {
          if (!answered.containsKey(k)) {
            order.add(k);
          }
        }
        for (int k = 0; k < jobs.size(); k++) {
          if (answered.containsKey(k)) {
            order.add(k);
          }
        }
        List<CompletableFuture<HttpResponse<byte[]>>> inFlight = new ArrayList<>(
            java.util.Collections.nCopies(jobs.size(), null));
        for (int k : order) {
          inFlight.set(k, client.sendAsync(post(t, port, jobs.get(k).body()),
              HttpResponse.BodyHandlers.ofByteArray()));
        }
        int before = answered.size();
        Thread.sleep(50 + rnd.nextInt(600));
        p.destroyForcibly(); // SIGKILL on Linux
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        int newlyAnswered = 0;
        for (int k = 0; k < jobs.size(); k++) {
          HttpResponse<byte[]> r;
          try {
            r = inFlight.get(k).get(40, TimeUnit.SECONDS);
          } catch (ExecutionException e) {
            cutOff++;
            continue;
          }
          if (r.statusCode() == 200 && !answered.containsKey(k)) {
            newlyAnswered++;
          }
          assertEquals(200, r.statusCode(), "seed " + seed + " job " + k + ": "
              + new String(r.body(), StandardCharsets.UTF_8));
          byte[] seen = answered.putIfAbsent(k, r.body());
          if (seen != null) {
            assertArrayEquals(seen, r.body(), "seed " + seed + " job " + k
                + " answered differently after a kill");
          }
        }
        System.out.println("AggregationJobSigkillTest round " + round + ": " + newlyAnswered
            + " jobs newly answered, " + (jobs.size() - before - newlyAnswered)
            + " not yet answered");
      } finally {
        p.destroyForcibly();
        p.waitFor(20, TimeUnit.SECONDS);
      }
      try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
        // After the kill: the answered jobs are stored, and the buckets hold exactly the reports
        // of the stored jobs (a job is applied whole or not at all).
        TaskId taskId = new TaskId(t.taskId);
        List<Job> stored = new ArrayList<>();
        for (int k = 0; k < jobs.size(); k++) {
          AggregationJobId id = AggregationJobService.jobId(taskId,
              AggregationJobService.digest(jobs.get(k).body()));
          boolean present = store.inTaskTransaction(taskId,
              tx -> tx.aggregationJobs().get(id)).isPresent();
          assertTrue(present || !answered.containsKey(k), "seed " + seed + ": answered job " + k
              + " is stored");
          if (present) {
            stored.add(jobs.get(k));
          }
        }
        assertEachReportCountedOnce(store, taskId, jobs, stored, "seed " + seed + " after kill "
            + round);
        System.out.println("AggregationJobSigkillTest round " + round + ": " + stored.size()
            + " jobs stored");
      }
    }
    int answeredBeforeKills = answered.size();
    Process p = ServeProcess.start(config, "jdbc:sqlite:" + db, log, List.of());
    try {
      int port = ServeProcess.awaitPort(p);
      for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < jobs.size(); k++) {
          HttpResponse<byte[]> r = client.send(post(t, port, jobs.get(k).body()),
              HttpResponse.BodyHandlers.ofByteArray());
          assertEquals(200, r.statusCode(), "seed " + seed + " job " + k);
          byte[] before = answered.putIfAbsent(k, r.body());
          if (before != null) {
            assertArrayEquals(before, r.body(), "seed " + seed + " job " + k
                + " answered differently on re-POST");
          }
          List<AggregationJobsRouteTest.Resp> resps = AggregationJobsRouteTest.decodeResp(
              r.body());
          assertEquals(perJob, resps.size());
          for (int i = 0; i < perJob; i++) {
            assertArrayEquals(jobs.get(k).reports().get(i).id, resps.get(i).reportId());
            assertEquals(0, resps.get(i).type(), "seed " + seed + " job " + k + " report " + i
                + " was not aggregated: error " + resps.get(i).error());
          }
        }
      }
    } finally {
      p.destroy();
      assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    }
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      assertEachReportCountedOnce(store, new TaskId(t.taskId), jobs, jobs, "seed " + seed);
    }
    System.out.printf("AggregationJobSigkillTest seed=%d: %d rounds, %d jobs x %d reports, %d"
        + " answered before kills, %d requests cut off by SIGKILL, %.1f s%n", seed, rounds,
        jobs.size(), perJob,
        answeredBeforeKills, cutOff, (System.nanoTime() - start) / 1e9);
  }
}
