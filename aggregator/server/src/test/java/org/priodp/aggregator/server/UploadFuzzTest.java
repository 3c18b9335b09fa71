package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.LeaderFixture;

/**
 * Seeded mutations of valid UploadRequest bodies through the Leader's reports resource, in-process
 * (through {@link DapRouter}'s routing) and over HTTP. Every answer is a 4xx
 * problem+json, or a 200 that is empty or an UploadErrors that decodes and lists, in request
 * order, only reports of the (still decodable) request; never a 5xx, never an exception. Seed:
 * {@code -Dpriodp.seed}; cases: {@code -Dpriodp.fuzz.uploadCases} (in-process, default 100,000)
 * and {@code -Dpriodp.fuzz.uploadHttpCases} (HTTP, default 3,000). The status counts are
 * printed.
 */
class UploadFuzzTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String TYPE = "application/ppm-dap;message=upload-req";
  private static final String ERRORS_TYPE = "application/ppm-dap;message=upload-errors";

  @TempDir
  Path dir;

  /** The base bodies: three good reports; a mix of refusals (config, extension, early, repeat). */
  static List<byte[]> bases(int key) {
    long now = LeaderFixture.now();
    List<Report> clean = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      clean.add(LeaderFixture.report(LeaderFixture.id(i), now, key));
    }
    List<Report> mixed = List.of(
        LeaderFixture.report(LeaderFixture.id(10), now, key),
        LeaderFixture.report(LeaderFixture.id(11), now, (key + 1) % 256),
        LeaderFixture.report(LeaderFixture.id(12), now, key,
            List.of(new ReportExtension(4, new byte[] {1, 2})), 1),
        LeaderFixture.report(LeaderFixture.id(13), now + 3, key),
        LeaderFixture.report(LeaderFixture.id(10), now, key, List.of(), 2));
    return List.of(new UploadRequest(clean).encode(), new UploadRequest(mixed).encode());
  }

  /** Returns null if the answer is acceptable, else what is wrong with it. */
  static String check(int status, String contentType, byte[] body, byte[] request) {
    if (status == 200) {
      List<ReportId> ids;
      try {
        ids = UploadRequest.decode(request).reports().stream()
            .map(r -> r.reportMetadata().reportId()).toList();
      } catch (DapDecodeException e) {
        return "200 for a request that does not decode: " + e.getMessage();
      }
      if (body.length == 0) {
        return contentType == null ? null : "empty 200 with Content-Type " + contentType;
      }
      if (!ERRORS_TYPE.equals(contentType)) {
        return "200 with Content-Type " + contentType;
      }
      List<ReportUploadStatus> status200;
      try {
        status200 = UploadErrors.decode(body, DapVersion.DAP_19).status();
      } catch (DapDecodeException e) {
        return "200 whose UploadErrors does not decode: " + e.getMessage();
      }
      int at = 0;
      for (ReportUploadStatus s : status200) {
        while (at < ids.size() && !ids.get(at).equals(s.id())) {
          at++;
        }
        if (at == ids.size()) {
          return "UploadErrors names " + s.id() + " out of request order or not in it";
        }
        at++;
      }
      return null;
    }
    if (status < 400 || status >= 500) {
      return "status " + status;
    }
    if (!"application/problem+json".equals(contentType)) {
      return status + " with Content-Type " + contentType;
    }
    try {
      JsonNode n = MAPPER.readTree(body);
      if (n.get("status").asInt() != status || !n.hasNonNull("type")) {
        return status + " with problem " + n;
      }
    } catch (Exception e) {
      return status + " with a problem document that does not parse: " + e;
    }
    return null;
  }

  private static String path(TaskDefinition t) {
    return "/tasks/" + t.taskId().toBase64Url() + "/reports";
  }

  @Test
  void mutatedUploadsInProcessAreClientErrorsOrUploadErrors() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("UploadFuzzTest.inProcess seed=" + seed);
    Random rnd = new Random(seed);
    TaskDefinition t = LeaderFixture.task(80);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("f.db"))) {
      DapRouter h = DapRouter.builder(List.of(t), store)
          .aggregateShares(DapRouterTest.shares(store, 8))
          .reports(ReportsRouteTest.reports(store)).build();
      int key = new HelperHpkeKeys(store, new SecureRandom(), Clock.systemUTC()).ensureActive()
          .config().id().value();
      List<byte[]> bases = bases(key);
      for (byte[] b : bases) {
        assertEquals(200, h.handle("POST", path(t), null, TYPE, b).status());
      }
      int cases = Integer.getInteger("priodp.fuzz.uploadCases", 100_000);
      int[] statuses = new int[600];
      int withErrors = 0;
      long start = System.nanoTime();
      for (int i = 0; i < cases; i++) {
        byte[] body = AggregationJobFuzzTest.mutate(bases.get(rnd.nextInt(bases.size())), rnd);
        HttpReply r;
        try {
          r = h.handle("POST", path(t), null, TYPE, body);
        } catch (Throwable e) {
          throw new AssertionError("seed " + seed + " case " + i + ": " + e + " for body "
              + HexFormat.of().formatHex(body), e);
        }
        String wrong = check(r.status(), r.contentType(), r.body(), body);
        if (wrong != null) {
          throw new AssertionError("seed " + seed + " case " + i + ": " + wrong + " for body "
              + HexFormat.of().formatHex(body));
        }
        statuses[r.status()]++;
        withErrors += r.status() == 200 && r.body().length > 0 ? 1 : 0;
      }
      System.out.printf("UploadFuzzTest.inProcess seed=%d cases=%d 200=%d (empty %d,"
          + " upload-errors %d) 400=%d 413=%d other4xx=%d 5xx=0 in %.1f s%n", seed, cases,
          statuses[200], statuses[200] - withErrors, withErrors, statuses[400], statuses[413],
          cases - statuses[200] - statuses[400] - statuses[413],
          (System.nanoTime() - start) / 1e9);
      assertTrue(statuses[400] > 0 && withErrors > 0 && statuses[200] > withErrors,
          "every outcome was exercised");
    }
  }

  @Test
  void mutatedUploadsOverHttpAreClientErrorsOrUploadErrors() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("UploadFuzzTest.overHttp seed=" + seed);
    Random rnd = new Random(seed);
    TaskDefinition t = LeaderFixture.task(81);
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("h.db"))) {
      Aggregator server = Aggregator.start(AggregatorConfig.builder(List.of(t), store).build());
      int port = server.port();
      try {
        int key = new HelperHpkeKeys(store, new SecureRandom(), Clock.systemUTC()).ensureActive()
            .config().id().value();
        List<byte[]> bases = bases(key);
        URI uri = URI.create("http://127.0.0.1:" + port + path(t));
        int cases = Integer.getInteger("priodp.fuzz.uploadHttpCases", 3_000);
        Semaphore inFlight = new Semaphore(16);
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        int[] statuses = new int[600];
        List<CompletableFuture<?>> all = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < cases; i++) {
          byte[] body = AggregationJobFuzzTest.mutate(bases.get(rnd.nextInt(bases.size())), rnd);
          inFlight.acquire();
          int n = i;
          HttpRequest req = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
              .header("Content-Type", TYPE)
              .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
          all.add(client.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray())
              .whenComplete((r, e) -> {
                inFlight.release();
                String wrong = e != null ? e.toString() : check(r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(null), r.body(), body);
                if (wrong != null) {
                  failures.add("case " + n + ": " + wrong + " for body "
                      + HexFormat.of().formatHex(body));
                } else {
                  synchronized (statuses) {
                    statuses[r.statusCode()]++;
                  }
                }
              }));
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0]))
            .exceptionally(e -> null).get();
        System.out.printf("UploadFuzzTest.overHttp seed=%d cases=%d 200=%d 400=%d other=%d"
            + " in %.1f s%n", seed, cases, statuses[200], statuses[400],
            cases - statuses[200] - statuses[400], (System.nanoTime() - start) / 1e9);
        assertTrue(failures.isEmpty(), "seed " + seed + ": " + failures.size() + " failures, "
            + failures.subList(0, Math.min(3, failures.size())));
      } finally {
        server.close();
      }
    }
  }
}
