package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.client.DapProblemException;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.CollectionJobResp;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.testing.EndToEndTask;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.ServeProcess;

/**
 * The collector_selected batch mode (draft-ietf-ppm-dap-attribution-00 section 4) end to end over
 * HTTP, with a task made by {@code task new --batch-mode collector_selected}: on SQLite with a
 * Leader and a Helper {@link Aggregator} in this JVM (the plain upload refused, an upload to a
 * job that does not exist 404 with Retry-After, two bundles collected exactly with a report of
 * the first in the second counted once, an upload after the first GET refused with
 * batch_collected, a closed batch below min_batch_size failing with invalidBatchSize); and on
 * PostgreSQL (PRIODP_PG_URL; skipped without it) with TWO Leader {@code serve} processes on one
 * database and a Helper process: uploads to one job spread over both Leaders race the first GET,
 * and the collected count is exactly the number of reports the Leaders accepted.
 */
class CollectorSelectedEndToEndTest {
  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();

  private static DapClient client(EndToEndTask task, HttpClient http, long seed) throws Exception {
    SecureRandom ids = SecureRandom.getInstance("SHA1PRNG");
    ids.setSeed(seed);
    return new DapClient(task.client, http, ids, Clock.systemUTC());
  }

  private DapCollector collector(EndToEndTask task) {
    return new DapCollector(task.collector.parameters(), task.collector.collectorAuthToken(),
        task.collector.hpkeConfig(), task.collector.hpkeKey(), http,
        d -> Thread.sleep(Math.min(d.toMillis(), 200)), Duration.ofSeconds(120), 0.95);
  }

  private static CollectionJobReq request(EndToEndTask task) {
    return DapCollector.request(new Query.CollectorSelected(
        task.client.attributionCodePoints().collectorSelected()));
  }

  private HttpResponse<byte[]> post(URI uri, String contentType, byte[] body, String auth)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (auth != null) {
      b.header("Authorization", auth);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<byte[]> get(URI uri, String auth) throws Exception {
    return http.send(HttpRequest.newBuilder(uri).header("Authorization", auth).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static URI uploadUri(String leader, EndToEndTask task, String jobId) {
    return URI.create(leader + "tasks/" + task.client.taskId().toBase64Url() + "/reports/"
        + jobId);
  }

  /** Creates a job with a raw POST; returns its URL (Location). */
  private URI createJob(String leader, EndToEndTask task) throws Exception {
    URI create = URI.create(leader + "tasks/" + task.client.taskId().toBase64Url()
        + "/collection_jobs");
    HttpResponse<byte[]> r = post(create, DapMediaType.COLLECTION_JOB_REQ.contentType(),
        request(task).encode(), task.collector.collectorAuthToken().authorizationHeader());
    assertTrue(r.statusCode() / 100 == 2, "create: " + r.statusCode());
    return create.resolve(r.headers().firstValue("Location").orElseThrow());
  }

  private static String jobId(URI job) {
    return job.getPath().substring(job.getPath().lastIndexOf('/') + 1);
  }

  private List<ReportUploadStatus> upload(URI uri, EndToEndTask task, List<Report> reports)
      throws Exception {
    HttpResponse<byte[]> r = post(uri, DapMediaType.UPLOAD_REQ.contentType(),
        new UploadRequest(reports).encode(), null);
    assertEquals(200, r.statusCode(), new String(r.body()));
    return r.body().length == 0 ? List.of()
        : UploadErrors.decode(r.body(), task.client.dapVersion()).status();
  }

  private static List<List<BigInteger>> measurements(EndToEndTask task, Random random, int n) {
    List<List<BigInteger>> ms = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ms.add(task.measurement(random));
    }
    return ms;
  }

  @Test
  void bundlesAreCollectedExactlyOnSqlite() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("CollectorSelectedEndToEndTest seed=" + seed);
    Random random = new Random(seed);
    int helperPort = LeaderPair.freePort();
    int leaderPort = LeaderPair.freePort();
    String leader = "http://127.0.0.1:" + leaderPort + "/leader/";
    EndToEndTask task = EndToEndTask.create(dir.resolve("task"), leader,
        "http://127.0.0.1:" + helperPort + "/helper/", "--vdaf", "Prio3Histogram", "--length",
        "4", "--chunk-length", "2", "--min-batch-size", "5", "--batch-mode",
        "collector_selected");
    try (JdbcDatastore hs = JdbcDatastore.openSqlite(dir.resolve("helper.db"));
        JdbcDatastore ls = JdbcDatastore.openSqlite(dir.resolve("leader.db"));
        Aggregator h = Aggregator.start(AggregatorConfig.builder(List.of(task.helper), hs)
            .port(helperPort).hpkeKeyAtStart(true).build());
        Aggregator l = Aggregator.start(AggregatorConfig.builder(List.of(task.leader), ls)
            .port(leaderPort).hpkeKeyAtStart(true)
            .helperPeer(HttpHelperPeer.create(HttpHelperPeer.Options.defaults())).build())) {
      DapClient client = client(task, http, seed);
      List<List<BigInteger>> msA = measurements(task, random, 30);
      List<List<BigInteger>> msB = measurements(task, random, 20);
      List<Report> a = client.reports(msA);
      List<Report> b = client.reports(msB);

      // the plain upload resource refuses the task's reports as a whole
      DapProblemException plain = assertThrows(DapProblemException.class,
          () -> client.upload(msA.subList(0, 1)));
      assertEquals(400, plain.status());
      assertEquals("urn:ietf:params:ppm:dap:error:invalidMessage", plain.type());
      // a job that does not exist: 404, Retry-After, the problem type naming why
      String nobody = CollectionJobId.random(new SecureRandom()).toBase64Url();
      HttpResponse<byte[]> early = post(uploadUri(leader, task, nobody),
          DapMediaType.UPLOAD_REQ.contentType(), new UploadRequest(a.subList(0, 1)).encode(),
          null);
      assertEquals(404, early.statusCode());
      assertTrue(early.headers().firstValue("Retry-After").isPresent());
      String problem = new String(early.body(), java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(problem.contains("urn:priodp:problem:unknownCollectionJob")
          && problem.contains(nobody), problem);

      DapCollector.BundleCollection first = collector(task).collectBundle(request(task), a,
          (poll, wait, waited) -> { });
      assertEquals(List.of(), first.refused());
      assertEquals(30, first.result().reportCount());
      assertEquals(EndToEndTask.truth(task.variant, msA), first.result().result().estimates());

      // the second bundle repeats a report of the first: refused, counted once (in the first)
      List<Report> second = new ArrayList<>(b);
      second.add(a.get(7));
      DapCollector.BundleCollection other = collector(task).collectBundle(request(task), second,
          (poll, wait, waited) -> { });
      assertEquals(List.of(new ReportUploadStatus(a.get(7).reportMetadata().reportId(),
          ReportError.REPORT_REPLAYED)), other.refused());
      assertEquals(20, other.result().reportCount());
      assertEquals(EndToEndTask.truth(task.variant, msB), other.result().result().estimates());

      // the command line: upload --output writes the bundle, collect --reports collects it
      Path bundle = dir.resolve("bundle.txt");
      org.priodp.aggregator.cli.CliRun up = org.priodp.aggregator.cli.CliRun.of("upload",
          "--task", task.dir.resolve("client.json").toString(), "--output", bundle.toString(),
          "0", "1", "1", "3", "2", "1");
      assertEquals(0, up.code(), up.err());
      org.priodp.aggregator.cli.CliRun col = org.priodp.aggregator.cli.CliRun.of("collect",
          "--task", task.dir.resolve("collector.json").toString(), "--reports",
          bundle.toString(), "--timeout", "120");
      assertEquals(0, col.code(), col.err());
      assertTrue(col.err().contains("uploaded 6 reports: 6 accepted, 0 rejected"), col.err());
      assertTrue(col.out().contains(": 6 reports from"), col.out());

      // an upload after the first GET is batch_collected; the closed batch (2 reports, below
      // min_batch_size 5) can never grow: the job fails with invalidBatchSize
      URI job = createJob(leader, task);
      List<Report> late = client.reports(measurements(task, random, 3));
      assertEquals(List.of(), upload(uploadUri(leader, task, jobId(job)), task, late.subList(0, 2)));
      String auth = task.collector.collectorAuthToken().authorizationHeader();
      get(job, auth);
      assertEquals(List.of(new ReportUploadStatus(late.get(2).reportMetadata().reportId(),
          ReportError.BATCH_COLLECTED)), upload(uploadUri(leader, task, jobId(job)), task,
          late.subList(2, 3)));
      HttpResponse<byte[]> r = get(job, auth);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (r.statusCode() == 200 && r.body().length == 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
        r = get(job, auth);
      }
      String failed = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(r.statusCode() >= 400 && failed.contains("invalidBatchSize"),
          r.statusCode() + " " + failed);
    }
  }

  /**
   * Two Leader processes on one PostgreSQL database: a job created at A, its bundle uploaded in
   * chunks alternately to A and B from two threads, a report of another job's batch among them,
   * while the Collector's first GET goes to B in the middle. The collected count is exactly the
   * reports the Leaders accepted (the others were refused with batch_collected or
   * report_replayed), and the histogram is theirs.
   */
  @Test
  void twoLeaderProcessesOnPostgresCountExactlyTheAcceptedReports() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED CollectorSelectedEndToEndTest on PostgreSQL: PRIODP_PG_URL is"
          + " not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL is not set");
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("CollectorSelectedEndToEndTest (PostgreSQL) seed=" + seed);
    Random random = new Random(seed);
    int portA = LeaderPair.freePort();
    int portB = LeaderPair.freePort();
    int portH = LeaderPair.freePort();
    String leaderA = "http://127.0.0.1:" + portA + "/leader/";
    String leaderB = "http://127.0.0.1:" + portB + "/leader/";
    EndToEndTask task = EndToEndTask.create(dir.resolve("task"), leaderA,
        "http://127.0.0.1:" + portH + "/helper/", "--vdaf", "Prio3Histogram", "--length", "4",
        "--chunk-length", "2", "--min-batch-size", "10", "--batch-mode", "collector_selected");
    String[] opts = {"--aggregation-job-size", "40", "--lease-duration", "5"};
    Process h = null;
    Process a = null;
    Process b = null;
    try {
      h = ServeProcess.start(task.dir.resolve("helper.json"), "jdbc:sqlite:"
          + dir.resolve("helper.db"), dir.resolve("h.log"), portH, List.of());
      a = ServeProcess.start(task.dir.resolve("leader.json"), url, dir.resolve("a.log"), portA,
          List.of(), withReplica(opts, "cs-a-" + seed));
      b = ServeProcess.start(task.dir.resolve("leader.json"), url, dir.resolve("b.log"), portB,
          List.of(), withReplica(opts, "cs-b-" + seed));
      ServeProcess.awaitPort(h);
      ServeProcess.awaitPort(a);
      ServeProcess.awaitPort(b);
      DapClient client = client(task, http, seed);
      String auth = task.collector.collectorAuthToken().authorizationHeader();

      // another job's batch holds report "dup" first
      URI first = createJob(leaderA, task);
      List<List<BigInteger>> msDup = measurements(task, random, 1);
      Report dup = client.reports(msDup).get(0);
      assertEquals(List.of(), upload(uploadUri(leaderB, task, jobId(first)), task, List.of(dup)));

      URI job = createJob(leaderA, task);
      int n = 600;
      List<List<BigInteger>> ms = measurements(task, random, n);
      List<Report> reports = client.reports(ms);
      List<Report> withDup = new ArrayList<>(reports);
      withDup.add(n / 4, dup);
      List<List<Report>> chunks = new ArrayList<>();
      for (int from = 0; from < withDup.size(); from += 10) {
        chunks.add(withDup.subList(from, Math.min(withDup.size(), from + 10)));
      }
      List<ReportUploadStatus> refused = Collections.synchronizedList(new ArrayList<>());
      AtomicBoolean closeNow = new AtomicBoolean();
      List<CompletableFuture<Void>> uploaders = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        int me = t;
        uploaders.add(CompletableFuture.runAsync(() -> {
          try {
            for (int c = me; c < chunks.size(); c += 2) {
              String leader = (c / 2) % 2 == 0 ? leaderA : leaderB;
              refused.addAll(upload(uploadUri(leader, task, jobId(job)), task, chunks.get(c)));
              if (c >= chunks.size() / 2) {
                closeNow.set(true);
              }
            }
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }));
      }
      while (!closeNow.get()) {
        Thread.onSpinWait();
      }
      // the Collector's first GET, at Leader B, while uploads continue at both
      URI jobAtB = URI.create(leaderB).resolve(job.getPath());
      HttpResponse<byte[]> r = get(jobAtB, auth);
      for (CompletableFuture<Void> u : uploaders) {
        u.get(120, TimeUnit.SECONDS);
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (r.statusCode() == 200 && r.body().length == 0 && System.nanoTime() < deadline) {
        Thread.sleep(100);
        r = get(job, auth);
      }
      assertEquals(200, r.statusCode(), new String(r.body()));
      java.util.Set<ReportId> refusedIds = new java.util.HashSet<>();
      for (ReportUploadStatus s : refused) {
        refusedIds.add(s.id());
        assertTrue(s.error() == ReportError.BATCH_COLLECTED
            || (s.error() == ReportError.REPORT_REPLAYED
                && s.id().equals(dup.reportMetadata().reportId())), s.toString());
      }
      assertTrue(refusedIds.contains(dup.reportMetadata().reportId()), "dup refused");
      List<List<BigInteger>> accepted = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (!refusedIds.contains(reports.get(i).reportMetadata().reportId())) {
          accepted.add(ms.get(i));
        }
      }
      CollectionResult result = collector(task).finish(request(task),
          CollectionJobResp.decode(r.body()));
      System.out.println("collected " + result.reportCount() + " of " + n + " uploaded ("
          + (refused.size() - 1) + " refused after the close, 1 replayed)");
      assertTrue(accepted.size() < n && accepted.size() > 0,
          "the close fell in the middle of the uploads: " + accepted.size());
      assertEquals(accepted.size(), result.reportCount(), "exactly the accepted reports");
      assertEquals(EndToEndTask.truth(task.variant, accepted), result.result().estimates());
    } finally {
      for (Process p : new Process[] {b, a, h}) {
        if (p != null) {
          ServeProcess.stop(p);
        }
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
