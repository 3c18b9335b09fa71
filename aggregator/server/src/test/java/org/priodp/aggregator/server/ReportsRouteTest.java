package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.core.UploadService;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigList;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.LeaderFixture;

/**
 * The Leader's reports resource at the HTTP level (DAP-18 "Upload Request", "Leader Behavior",
 * "HTTP Usage", "Errors", "HPKE Configuration Request"), through {@link DapRouter}'s routing
 * with {@link ReportsRoute} as the reports resource, on real SQLite, and over HTTP with an
 * {@link Aggregator} of a Leader task.
 */
class ReportsRouteTest {
  private static final String TYPE = "application/ppm-dap;message=upload-req";
  private static final String ERRORS_TYPE = "application/ppm-dap;message=upload-errors";

  @TempDir
  Path dir;

  /**
   * Returns the reports resource over the store's HPKE keys (the keys the Helper side of the same
   * store uses), the system clock and the default clock skew.
   */
  static ReportsRoute reports(Datastore store) {
    return new ReportsRoute(new UploadService(store,
        new HelperHpkeKeys(store, new SecureRandom(), Clock.systemUTC()), Clock.systemUTC(),
        UploadService.DEFAULT_CLOCK_SKEW));
  }

  private static DapRouter handler(List<TaskDefinition> tasks,
      JdbcDatastore store) {
    return DapRouter.builder(tasks, store).aggregateShares(DapRouterTest.shares(store, 5))
        .reports(reports(store)).build();
  }

  private static String reportsPath(TaskDefinition t) {
    return TaskRoutes.basePath(t.configuration().leaderAggregatorEndpoint()) + "tasks/"
        + t.taskId().toBase64Url() + "/reports";
  }

  private static int key(JdbcDatastore store) {
    return new HelperHpkeKeys(store, new SecureRandom(), Clock.systemUTC()).ensureActive()
        .config().id().value();
  }

  private static byte[] upload(Report... reports) {
    return new UploadRequest(List.of(reports)).encode();
  }

  private static long rows(JdbcDatastore store, TaskDefinition t, Report... reports) {
    return Arrays.stream(reports).filter(r -> store.inTaskTransaction(t.taskId(),
        tx -> tx.clientReports().get(r.reportMetadata().reportId())).isPresent()).count();
  }

  /**
   * The collection job's upload URL (draft-ietf-ppm-dap-attribution-00 section 4.1) on a task of
   * another batch mode: 404 with Retry-After and the prio-dp problem type naming why, 405 for
   * another method, a path that is no collection job ID 404; its metrics route is a template.
   */
  @Test
  void aJobUploadUrlOfATimeIntervalTaskIs404WithRetryAfter() throws Exception {
    TaskDefinition t = LeaderFixture.task(71);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("job.db"))) {
      DapRouter h = handler(List.of(t), store);
      Report a = LeaderFixture.report(LeaderFixture.id(1), LeaderFixture.now(), key(store));
      String job = org.priodp.aggregator.dap.CollectionJobId.random(new SecureRandom())
          .toBase64Url();
      HttpReply r = h.handle("POST", reportsPath(t) + "/" + job, null, TYPE, upload(a));
      assertEquals(404, r.status());
      assertEquals(String.valueOf(ReportsRoute.RETRY_AFTER_SECONDS),
          r.headers().get("Retry-After"));
      String body = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(body.contains("urn:priodp:problem:unknownCollectionJob")
          && body.contains("time_interval"), body);
      assertEquals(405, h.handle("GET", reportsPath(t) + "/" + job, null, TYPE, null).status());
      assertEquals(404, h.handle("POST", reportsPath(t) + "/x", null, TYPE, upload(a))
          .status());
      assertEquals(0, rows(store, t, a));
      assertEquals("/tasks/{task-id}/reports/{collection-job-id}",
          h.routeOf(reportsPath(t) + "/" + job));
    }
  }

  @Test
  void anAllAcceptedUploadIs200WithAnEmptyBodyAndARepeatStoresNothingNew() throws Exception {
    TaskDefinition t = LeaderFixture.task(70);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("a.db"))) {
      DapRouter h = handler(List.of(t), store);
      int key = key(store);
      long now = LeaderFixture.now();
      Report a = LeaderFixture.report(LeaderFixture.id(1), now, key);
      Report b = LeaderFixture.report(LeaderFixture.id(2), now - 1, key);
      for (int i = 0; i < 2; i++) {
        // no Authorization: DAP-18 leaves Client authentication to the deployment
        HttpReply r = h.handle("POST", reportsPath(t), null, TYPE, upload(a, b));
        assertEquals(200, r.status(), new String(r.body()));
        assertEquals(0, r.body().length);
        assertNull(r.contentType());
      }
      assertEquals(2, rows(store, t, a, b));
      // any Authorization header is ignored on the reports resource
      assertEquals(200, h.handle("POST", reportsPath(t), "Bearer nonsense", TYPE, upload(a))
          .status());
      assertEquals("/tasks/{task-id}/reports", h.routeOf(reportsPath(t)));
    }
  }

  @Test
  void refusedReportsAreListedAsUploadErrorsInRequestOrder() throws Exception {
    TaskDefinition t = LeaderFixture.task(71);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("e.db"))) {
      DapRouter h = handler(List.of(t), store);
      int key = key(store);
      long now = LeaderFixture.now();
      Report first = LeaderFixture.report(LeaderFixture.id(1), now, key);
      assertEquals(200, h.handle("POST", reportsPath(t), null, TYPE, upload(first)).status());
      Report[] reports = {
          LeaderFixture.report(LeaderFixture.id(2), now, (key + 1) % 256),
          LeaderFixture.report(LeaderFixture.id(3), now, key),
          LeaderFixture.report(LeaderFixture.id(4), now + 2, key),
          LeaderFixture.report(LeaderFixture.id(1), now, key, List.of(), 9),
          LeaderFixture.report(LeaderFixture.id(5), now, key,
              List.of(new ReportExtension(3, new byte[0])), 1)};
      HttpReply r = h.handle("POST", reportsPath(t), null, TYPE, upload(reports));
      assertEquals(200, r.status());
      assertEquals(ERRORS_TYPE, r.contentType());
      assertEquals(List.of(
          new ReportUploadStatus(LeaderFixture.id(2), ReportError.HPKE_UNKNOWN_CONFIG_ID),
          new ReportUploadStatus(LeaderFixture.id(4), ReportError.REPORT_TOO_EARLY),
          new ReportUploadStatus(LeaderFixture.id(1), ReportError.REPORT_REPLAYED),
          new ReportUploadStatus(LeaderFixture.id(5), ReportError.UNSUPPORTED_EXTENSION)),
          UploadErrors.decode(r.body(), DapVersion.DAP_19).status());
      assertEquals(4 * ReportUploadStatus.LENGTH, r.body().length);
      assertArrayEquals(first.encode(), store.inTaskTransaction(t.taskId(),
          tx -> tx.clientReports().get(
          LeaderFixture.id(1))).orElseThrow().toByteArray(), "a replay never replaces the row");
      assertEquals(2, rows(store, t, reports), "report 3 was stored, id 1 was before");
    }
  }

  @Test
  void onlyPostIsAllowedAndTheMediaTypeIsParsed() throws Exception {
    TaskDefinition t = LeaderFixture.task(72);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("m.db"))) {
      DapRouter h = handler(List.of(t), store);
      byte[] body = upload(LeaderFixture.report(LeaderFixture.id(1), LeaderFixture.now(),
          key(store)));
      for (String m : List.of("GET", "PUT", "DELETE", "HEAD", "PATCH")) {
        HttpReply r = h.handle(m, reportsPath(t), null, TYPE, body);
        JsonNode n = DapRouterTest.assertProblem(r, 405, "about:blank");
        assertEquals("POST", r.headers().get("Allow"), m);
        assertEquals(t.taskId().toBase64Url(), n.get("taskid").asText());
      }
      for (String type : new String[] {"application/ppm-dap;message=upload-errors",
          "application/ppm-dap", "application/octet-stream", "application/ppm-dap;message=",
          "application/ppm-dap;message=\"upload-req", "upload-req", null}) {
        DapRouterTest.assertProblem(h.handle("POST", reportsPath(t), null, type, body),
            415, "about:blank");
      }
      for (String type : new String[] {"Application/PPM-DAP ; Message=\"upload-req\"",
          "application/ppm-dap;version=18;message=upload-req"}) {
        assertEquals(200, h.handle("POST", reportsPath(t), null, type, body).status(), type);
      }
    }
  }

  @Test
  void aMalformedBodyIsInvalidMessageAndATooLargeOneIs413() throws Exception {
    TaskDefinition t = LeaderFixture.task(73);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("b.db"))) {
      DapRouter h = handler(List.of(t), store);
      byte[] good = upload(LeaderFixture.report(LeaderFixture.id(1), LeaderFixture.now(),
          key(store)));
      byte[] trailing = Arrays.copyOf(good, good.length + 3);
      byte[] zeroEnc = good.clone();
      // leader_encrypted_input_share.enc<1..2^16-1> of length 0: id 16, time 8, ext 2, public
      // share 4 + 24, config id 1, then the enc length
      int encLength = 16 + 8 + 2 + 4 + 24 + 1;
      zeroEnc[encLength] = 0;
      zeroEnc[encLength + 1] = 0;
      for (byte[] bad : List.of(Arrays.copyOf(good, good.length - 1), trailing, zeroEnc,
          new byte[] {1})) {
        JsonNode n = DapRouterTest.assertProblem(h.handle("POST", reportsPath(t),
            null, TYPE, bad), 400, "urn:ietf:params:ppm:dap:error:invalidMessage");
        assertEquals(t.taskId().toBase64Url(), n.get("taskid").asText());
      }
      assertEquals(0, rows(store, t, Report.decode(Arrays.copyOf(good, good.length))));
      // an empty upload is a sequence of zero reports: nothing to refuse
      HttpReply empty = h.handle("POST", reportsPath(t), null, TYPE, new byte[0]);
      assertEquals(200, empty.status());
      assertEquals(0, empty.body().length);
      DapRouterTest.assertProblem(h.handle("POST", reportsPath(t), null, TYPE,
          new byte[ReportsRoute.MAX_BODY + 1]), 413, "about:blank");
      assertEquals(ReportsRoute.MAX_BODY, h.maxBodyFor(reportsPath(t)));
    }
  }

  @Test
  void unknownTasksAndOtherShapesAreNotFound() throws Exception {
    TaskDefinition t = LeaderFixture.task(74);
    TaskDefinition helper = Fixture.laplace(75).task;
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("n.db"))) {
      DapRouter h = handler(List.of(t, helper), store);
      byte[] body = upload(LeaderFixture.report(LeaderFixture.id(1), LeaderFixture.now(),
          key(store)));
      TaskDefinition unknown = LeaderFixture.task(99);
      JsonNode n = DapRouterTest.assertProblem(h.handle("POST", reportsPath(unknown),
          null, TYPE, body), 404, "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      assertEquals(unknown.taskId().toBase64Url(), n.get("taskid").asText());
      DapRouterTest.assertProblem(h.handle("POST", "/tasks/not-a-task-id/reports",
          null, TYPE, body), 404, "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      // a report has no resource URL; a Helper task has no reports resource
      assertEquals(404, h.handle("POST", reportsPath(t) + "/x", null, TYPE, body).status());
      assertEquals(404, h.handle("POST", "/tasks/" + helper.taskId().toBase64Url() + "/reports",
          null, TYPE, body).status());
      // under a path no task uses
      DapRouterTest.assertProblem(h.handle("POST", "/elsewhere" + reportsPath(t),
          null, TYPE, body), 404, "about:blank");
    }
  }

  @Test
  void aLeaderOnlyServerAdvertisesTheStoresKeysAtHpkeConfig() throws Exception {
    TaskDefinition t = LeaderFixture.task(new byte[32], "https://leader.example/dap-leader",
        null);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("k.db"))) {
      DapRouter h = handler(List.of(t), store);
      assertTrue(h.aggregationJobs().isEmpty());
      HttpReply root = h.handle("GET", "/hpke_config", null, null, null);
      assertEquals(200, root.status());
      assertEquals("application/ppm-dap;message=hpke-config-list", root.contentType());
      assertEquals("max-age=86400", root.headers().get("Cache-Control"));
      List<HpkeConfig> configs = HpkeConfigList.decode(root.body()).configs();
      assertEquals(new HelperHpkeKeys(store, new SecureRandom(), Clock.systemUTC()).advertised(),
          configs, "generated on first use, in the store");
      HttpReply based = h.handle("GET", "/dap-leader/hpke_config", null, null, null);
      assertArrayEquals(root.body(), based.body());
      HttpReply post = h.handle("POST", "/dap-leader/hpke_config", null, null, null);
      assertEquals(405, post.status());
      assertEquals("GET", post.headers().get("Allow"));
      // and the advertised key is the one uploads must name
      long now = LeaderFixture.now();
      int id = configs.get(0).id().value();
      assertEquals(200, h.handle("POST", "/dap-leader/tasks/" + t.taskId().toBase64Url()
          + "/reports", null, TYPE, upload(LeaderFixture.report(LeaderFixture.id(1), now, id)))
          .status());
      // a server of Helper tasks without aggregation jobs still has no hpke_config
      DapRouter helperOnly = DapRouter.builder(List.of(Fixture.laplace(77).task), store)
          .aggregateShares(DapRouterTest.shares(store, 6)).build();
      assertEquals(404, helperOnly.handle("GET", "/hpke_config", null, null, null).status());
    }
  }

  @Test
  void overHttpLargeUploadsAreAcceptedAndRefusalsAreProblems() throws Exception {
    TaskDefinition t = LeaderFixture.task(new byte[] {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
        17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32},
        "https://leader.example/up/", null);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("h.db"))) {
      Aggregator server = Aggregator.start(AggregatorConfig.builder(List.of(t), store).build());
      int port = server.port();
      try {
        HttpClient client = HttpClient.newHttpClient();
        int key = key(store);
        long now = LeaderFixture.now();
        List<Report> many = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          many.add(LeaderFixture.report(LeaderFixture.id(i), now, key));
        }
        byte[] body = new UploadRequest(many).encode();
        assertTrue(body.length > DapRouter.DEFAULT_MAX_BODY, "beyond 64 KiB");
        URI uri = URI.create("http://127.0.0.1:" + port + reportsPath(t));
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri)
            .header("Content-Type", TYPE).POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), new String(r.body()));
        assertEquals(0, r.body().length);
        assertEquals(1000, rows(store, t, many.toArray(new Report[0])));
        HttpResponse<byte[]> bad = client.send(HttpRequest.newBuilder(uri)
            .header("Content-Type", TYPE)
            .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {0, 1, 2})).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(400, bad.statusCode());
        assertEquals("application/problem+json",
            bad.headers().firstValue("Content-Type").orElseThrow());
        HttpResponse<byte[]> keys = client.send(HttpRequest.newBuilder(URI.create(
            "http://127.0.0.1:" + port + "/up/hpke_config")).GET().build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, keys.statusCode());
        assertEquals(Optional.of(key), HpkeConfigList.decode(keys.body()).configs().stream()
            .map(c -> c.id().value()).findFirst());
        assertFalse(server.router().aggregationJobs().isEmpty(), "serve's Helper side stays");
        assertTrue(server.router().metrics().scrape().contains("/up/tasks/{task-id}/reports"));
      } finally {
        server.close();
      }
    }
  }
}
