package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.ServeProcess;

/**
 * Issue 16: two {@code serve} processes on one PostgreSQL database (PRIODP_PG_URL; skipped
 * without it). Concurrent aggregation jobs that share reports are sent to both: each job body to
 * both processes, and a second set of jobs overlapping the first by half. Every report must be
 * aggregated (VerifyResp continue) in exactly one job, each job's answers must be byte-identical
 * across the processes, and the bucket must count every report once (count and checksum). The
 * task and reports are fresh each run (a persistent database never sees the same task twice);
 * {@code -Dpriodp.seed} fixes the job layout and sending order.
 */
class AggregationJobTwoReplicasPostgresTest {
  @TempDir
  Path dir;

  @Test
  void sameReportsToTwoReplicasAreCountedOnce() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED AggregationJobTwoReplicasPostgresTest: PRIODP_PG_URL is not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL is not set");
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AggregationJobTwoReplicasPostgresTest seed=" + seed);
    Random rnd = new Random(seed);
    int jobCount = Integer.getInteger("priodp.replicas.jobs", 40);
    int perJob = Integer.getInteger("priodp.replicas.reports", 10);
    AggregationJobsRouteTest l = AggregationJobFuzzTest.leader(dir,
        new java.security.SecureRandom().nextLong());
    AggregationJobsRouteTest.Task t = AggregationJobSigkillTest.histogramTask(l);
    Path config = dir.resolve("tasks.json");
    Files.writeString(config, AggregationJobSigkillTest.taskJson(t));
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    long start = System.nanoTime();
    Process a = ServeProcess.start(config, url, dir.resolve("a.log"), List.of());
    Process b = null;
    try {
      int portA = ServeProcess.awaitPort(a);
      b = ServeProcess.start(config, url, dir.resolve("b.log"), List.of());
      int portB = ServeProcess.awaitPort(b);
      AggregationJobsRouteTest.Advertised helper = AggregationJobsRouteTest.hpkeConfig(portA,
          "/dap/hpke_config");
      assertEquals(helper, AggregationJobsRouteTest.hpkeConfig(portB, "/dap/hpke_config"),
          "both replicas advertise the key in the shared database");
      long now = AggregationJobsRouteTest.now();
      List<AggregationJobsRouteTest.Report> reports = new ArrayList<>();
      for (int i = 0; i < jobCount * perJob; i++) {
        reports.add(l.report(t, helper, now, List.of(BigInteger.valueOf(rnd.nextInt(4)))));
      }
      // Jobs of consecutive reports, and jobs shifted by half a job (wrapping around).
      List<List<AggregationJobsRouteTest.Report>> jobs = new ArrayList<>();
      for (int j = 0; j < jobCount; j++) {
        jobs.add(reports.subList(j * perJob, (j + 1) * perJob));
      }
      for (int j = 0; j < jobCount; j++) {
        List<AggregationJobsRouteTest.Report> shifted = new ArrayList<>();
        for (int i = 0; i < perJob; i++) {
          shifted.add(reports.get((j * perJob + perJob / 2 + i) % reports.size()));
        }
        jobs.add(shifted);
      }
      List<byte[]> bodies = new ArrayList<>();
      for (List<AggregationJobsRouteTest.Report> j : jobs) {
        bodies.add(AggregationJobsRouteTest.initReq(0, j));
      }
      // Every job to both replicas, in a random order, all at once.
      List<int[]> sends = new ArrayList<>();
      for (int j = 0; j < jobs.size(); j++) {
        sends.add(new int[] {j, portA});
        sends.add(new int[] {j, portB});
      }
      Collections.shuffle(sends, rnd);
      List<CompletableFuture<HttpResponse<byte[]>>> futures = new ArrayList<>();
      for (int[] s : sends) {
        futures.add(client.sendAsync(AggregationJobSigkillTest.post(t, s[1], bodies.get(s[0])),
            HttpResponse.BodyHandlers.ofByteArray()));
      }
      Map<Integer, byte[]> answers = new HashMap<>();
      int[] statuses = new int[600];
      for (int i = 0; i < sends.size(); i++) {
        int j = sends.get(i)[0];
        HttpResponse<byte[]> r = futures.get(i).get(60, TimeUnit.SECONDS);
        statuses[r.statusCode()]++;
        assertEquals(200, r.statusCode(), "seed " + seed + " job " + j + " to port "
            + sends.get(i)[1] + ": " + new String(r.body(), StandardCharsets.UTF_8));
        byte[] seen = answers.putIfAbsent(j, r.body());
        if (seen != null) {
          assertArrayEquals(seen, r.body(), "seed " + seed + " job " + j
              + " answered differently by the two replicas");
        }
      }
      Map<String, Integer> aggregatedIn = new HashMap<>();
      for (int j = 0; j < jobs.size(); j++) {
        List<AggregationJobsRouteTest.Resp> resps = AggregationJobsRouteTest.decodeResp(
            answers.get(j));
        assertEquals(perJob, resps.size());
        for (int i = 0; i < perJob; i++) {
          AggregationJobsRouteTest.Resp r = resps.get(i);
          assertArrayEquals(jobs.get(j).get(i).id, r.reportId());
          if (r.type() == 0) {
            aggregatedIn.merge(AggregationJobsRouteTest.b64(r.reportId()), 1, Integer::sum);
          } else {
            assertEquals(2, r.type());
            assertEquals(2, r.error(), "seed " + seed + " job " + j + " report " + i
                + ": only report_replayed (2) is expected");
          }
        }
      }
      for (AggregationJobsRouteTest.Report r : reports) {
        assertEquals(1, aggregatedIn.getOrDefault(AggregationJobsRouteTest.b64(r.id), 0),
            "seed " + seed + ": report " + AggregationJobsRouteTest.b64(r.id)
                + " aggregated in exactly one job");
      }
      try (JdbcDatastore store = JdbcDatastore.open(url)) {
        BatchAggregation agg = store.inTaskTransaction(new TaskId(t.taskId),
            tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(now))).orElseThrow();
        assertEquals(reports.size(), agg.reportCount(), "seed " + seed);
        assertArrayEquals(AggregationJobsRouteTest.checksum(reports),
            agg.checksum().toByteArray(), "seed " + seed);
      }
      System.out.printf("AggregationJobTwoReplicasPostgresTest seed=%d: %d jobs x %d reports"
          + " sent to both replicas (%d requests), %d reports each counted once, %.1f s%n", seed,
          jobs.size(), perJob, sends.size(), reports.size(), (System.nanoTime() - start) / 1e9);
    } finally {
      ServeProcess.stop(a);
      if (b != null) {
        ServeProcess.stop(b);
      }
    }
  }
}
