package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.dp.SensitivityRule;
import org.slf4j.LoggerFactory;

/**
 * The routing of every request to its resource (DAP-18 "HTTP Resources Reference", "Errors"):
 * refusals are problem documents, tasks of both roles are served under their endpoint paths, 405
 * lists the allowed methods, and store failures are 500s whose root cause is logged and counted.
 */
class DapRouterTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String TYPE = DapMediaType.AGGREGATE_SHARE_REQ.contentType();
  private static final String AUTH = "Bearer " + Fixture.TOKEN;

  @TempDir
  Path dir;

  /** Returns the once-only release over the store with noise seeded by {@code seed}. */
  static NoisedShareService shares(Datastore store, int seed) {
    return new NoisedShareService(store, RandomSource.seeded(new byte[] {(byte) seed}),
        Clock.systemUTC());
  }

  /** Returns the router of the fixture's Helper task that serves the aggregate shares only. */
  static DapRouter handler(Fixture f, Datastore store) {
    return DapRouter.builder(List.of(f.task), store).aggregateShares(shares(store, 2)).build();
  }

  static String path(Fixture f) {
    return "/tasks/" + f.taskId.toBase64Url() + "/aggregate_shares";
  }

  /** Asserts a problem+json client error and returns its document. */
  static JsonNode assertProblem(HttpReply r, int status, String type) throws Exception {
    assertEquals(status, r.status());
    assertEquals("application/problem+json", r.contentType());
    JsonNode n = MAPPER.readTree(r.body());
    assertEquals(type, n.get("type").asText());
    assertEquals(status, n.get("status").asInt());
    assertTrue(n.hasNonNull("title") && n.hasNonNull("detail"), n.toString());
    return n;
  }

  /** Mounted routes answer every path under their prefix, before the DAP and operator routes. */
  @Test
  void mountedRoutesTakeTheirPrefixFirstAndNothingElse() throws Exception {
    Fixture f = Fixture.laplace(12);
    MountedRoutes echo = new MountedRoutes() {
      @Override
      public String prefix() {
        return "/internal/test/";
      }

      @Override
      public String routeOf(String path) {
        return "/internal/test/{x}";
      }

      @Override
      public HttpReply handle(String method, String path, String contentType, byte[] body) {
        return new HttpReply(299, java.util.Map.of(), (method + " " + path).getBytes(
            java.nio.charset.StandardCharsets.UTF_8));
      }
    };
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("m.db"))) {
      DapRouter plain = handler(f, store);
      assertProblem(plain.handle("POST", "/internal/test/ready", null, null, null), 404,
          "about:blank");
      DapRouter h = DapRouter.builder(List.of(f.task), store).aggregateShares(shares(store, 2))
          .mount(echo).build();
      HttpReply r = h.handle("POST", "/internal/test/ready", null, null, null);
      assertEquals(299, r.status());
      assertEquals("POST /internal/test/ready", new String(r.body(),
          java.nio.charset.StandardCharsets.UTF_8));
      assertEquals("/internal/test/{x}", h.routeOf("/internal/test/add_task"));
      assertEquals(200, h.handle("GET", "/healthz", null, null, null).status());
      assertProblem(h.handle("POST", path(f), null, TYPE, new byte[3]), 401, "about:blank");
      assertProblem(h.handle("POST", "/internal/tes", null, null, null), 404, "about:blank");
    }
  }

  /** A task added to the registry is routed from the next request on. */
  @Test
  void aTaskAddedToTheRegistryIsRoutedFromThenOn() throws Exception {
    Fixture f = Fixture.laplace(13);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("a.db"))) {
      f.writeBuckets(store, 3);
      TaskRegistry tasks = new TaskRegistry(List.of());
      DapRouter h = DapRouter.builder(tasks, store).aggregateShares(shares(store, 2)).build();
      byte[] body = f.request(0, 2).encode();
      assertProblem(h.handle("POST", path(f), AUTH, TYPE, body), 404, "about:blank");
      tasks.add(f.task);
      assertEquals(200, h.handle("POST", path(f), AUTH, TYPE, body).status());
      assertEquals(List.of(f.task), h.routes().tasks());
    }
  }

  @Test
  void refusalsAreProblemDocuments() throws Exception {
    Fixture f = Fixture.laplace(11);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("r.db"))) {
      f.writeBuckets(store, 3);
      DapRouter h = handler(f, store);
      byte[] body = f.request(0, 2).encode();
      String tid = f.taskId.toBase64Url();
      JsonNode n = assertProblem(h.handle("POST", path(f), null, TYPE, body), 401, "about:blank");
      assertEquals(tid, n.get("taskid").asText());
      assertProblem(h.handle("POST", path(f), "Bearer wrong", TYPE, body), 401, "about:blank");
      assertProblem(h.handle("POST", path(f), Fixture.TOKEN, TYPE, body), 401, "about:blank");
      assertProblem(h.handle("POST", path(f), "Bearer " + Fixture.TOKEN + "x", TYPE, body), 401,
          "about:blank");
      assertProblem(h.handle("POST", "/tasks/" + "A".repeat(43) + "/aggregate_shares", AUTH, TYPE,
          body), 404, "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      assertProblem(h.handle("POST", "/tasks/short/aggregate_shares", AUTH, TYPE, body), 404,
          "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      assertProblem(h.handle("POST", path(f), AUTH, "application/octet-stream", body), 415,
          "about:blank");
      HttpReply put = h.handle("PUT", path(f), AUTH, TYPE, body);
      assertProblem(put, 405, "about:blank");
      assertEquals("POST", put.headers().get("Allow"));
      assertProblem(h.handle("GET", "/nope", AUTH, null, null), 404, "about:blank");
      assertProblem(h.handle("POST", path(f), AUTH, TYPE, new byte[70_000]), 413, "about:blank");
      n = assertProblem(h.handle("POST", path(f), AUTH, TYPE, new byte[3]), 400,
          "urn:ietf:params:ppm:dap:error:invalidMessage");
      assertEquals(tid, n.get("taskid").asText());
      assertProblem(h.handle("POST", path(f), AUTH, TYPE, f.request(0, 2, 7, new byte[32]).encode()),
          400, "urn:ietf:params:ppm:dap:error:batchMismatch");
      assertEquals(200, h.handle("GET", "/healthz", null, null, null).status());
      assertEquals(0, h.aggregateShares().service().noiseDraws());
    }
  }

  /** Returns the fixture's task served at another helper endpoint (and with another role). */
  static TaskDefinition at(Fixture f, String helperEndpoint, Role role) {
    TaskConfiguration c = TaskDefinition.configurationFor(f.variant, "fixture".getBytes(
        StandardCharsets.US_ASCII), "https://leader.example/", helperEndpoint, Fixture.PRECISION,
        10, BatchMode.TIME_INTERVAL, List.of());
    return new TaskDefinition(f.taskId, role, c, f.variant, f.task.dpStrategy(),
        SensitivityRule.PRIODP, f.collectorConfig, AuthToken.of(Fixture.TOKEN));
  }

  private static String sharesPath(String base, Fixture f) {
    return base + "tasks/" + f.taskId.toBase64Url() + "/aggregate_shares";
  }

  @Test
  void basePathsOfHelperEndpointsAreServedSideBySide() throws Exception {
    Fixture a = Fixture.laplace(60);
    Fixture b = Fixture.laplace(61);
    Fixture c = Fixture.laplace(62);
    TaskDefinition ta = at(a, "https://helper.example/dap/", Role.HELPER);
    TaskDefinition tb = at(b, "https://helper.example/api/v1/dap", Role.HELPER);
    TaskDefinition tc = at(c, "https://helper.example", Role.HELPER);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("b.db"))) {
      for (Fixture f : List.of(a, b, c)) {
        f.writeBuckets(store, 2);
      }
      DapRouter h = DapRouter.builder(List.of(ta, tb, tc), store)
          .aggregateShares(shares(store, 3)).build();
      Object[][] cases = {{a, ta, "/dap/"}, {b, tb, "/api/v1/dap/"}, {c, tc, "/"}};
      for (Object[] k : cases) {
        Fixture f = (Fixture) k[0];
        TaskDefinition t = (TaskDefinition) k[1];
        String base = (String) k[2];
        AggregateShareReq req = f.request(0, 2);
        HttpReply r = h.handle("POST", sharesPath(base, f), AUTH, TYPE, req.encode());
        assertEquals(200, r.status(), new String(r.body(), StandardCharsets.UTF_8));
        String location = r.headers().get("Location");
        assertTrue(location.startsWith(sharesPath(base, f) + "/"), location);
        f.open(r.body(), req, t.configuration());
        assertEquals(200, h.handle("GET", location, AUTH, null, null).status());
        assertEquals(base + "tasks/{task-id}/aggregate_shares/{aggregate-share-id}",
            h.routeOf(location));
      }
      byte[] body = a.request(0, 2).encode();
      // a known task under a prefix that no task uses: no such resource
      assertProblem(h.handle("POST", sharesPath("/elsewhere/", a), AUTH, TYPE, body), 404,
          "about:blank");
      assertProblem(h.handle("POST", sharesPath("/dap/x/", a), AUTH, TYPE, body), 404,
          "about:blank");
      assertEquals(DapRouter.UNMATCHED_ROUTE, h.routeOf(sharesPath("/elsewhere/", a)));
      // a known task under another task's prefix: unknown there
      JsonNode n = assertProblem(h.handle("POST", sharesPath("/", a), AUTH, TYPE, body), 404,
          "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      assertEquals(a.taskId.toBase64Url(), n.get("taskid").asText());
      assertProblem(h.handle("POST", sharesPath("/api/v1/dap/", a), AUTH, TYPE, body), 404,
          "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      assertProblem(h.handle("POST", sharesPath("/dap/", b), AUTH, TYPE, body), 404,
          "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      assertEquals(200, h.handle("GET", "/healthz", null, null, null).status());
    }
  }

  @Test
  void leaderTasksAreServedUnderTheLeaderEndpointWithoutTheHelpersResources() throws Exception {
    Fixture helper = Fixture.laplace(64);
    Fixture leader = Fixture.laplace(65);
    Fixture lonelyLeader = Fixture.laplace(66);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("l.db"))) {
      leader.writeBuckets(store, 2);
      lonelyLeader.writeBuckets(store, 2);
      DapRouter h = DapRouter.builder(List.of(
          at(helper, "https://helper.example/dap/", Role.HELPER),
          at(leader, "https://helper.example/dap/", Role.LEADER),
          at(lonelyLeader, "https://helper.example/only-leader/", Role.LEADER)), store)
          .aggregateShares(shares(store, 4)).build();
      // at the Helper's base path the Leader task is unknown
      JsonNode n = assertProblem(h.handle("POST", sharesPath("/dap/", leader), AUTH, TYPE,
          leader.request(0, 2).encode()), 404, "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      assertEquals(leader.taskId.toBase64Url(), n.get("taskid").asText());
      // at the Leader's base path ("https://leader.example/") the task is known, but a Leader has
      // no aggregate_shares, and without Leader resources configured no reports either
      for (String collection : List.of("aggregate_shares", "reports", "collection_jobs")) {
        for (Fixture f : List.of(leader, lonelyLeader)) {
          HttpReply r = h.handle("POST", "/tasks/" + f.taskId.toBase64Url() + "/" + collection,
              AUTH, TYPE, f.request(0, 2).encode());
          assertEquals(404, r.status(), collection);
        }
      }
      // the Helper task has no Leader resources
      assertEquals(404, h.handle("POST", "/dap/tasks/" + helper.taskId.toBase64Url()
          + "/reports", null, TYPE, new byte[0]).status());
      assertEquals(0, h.aggregateShares().service().noiseDraws());
      assertEquals(2, h.routes().leaderTasks().size());
      assertEquals(1, h.routes().helperTasks().size());
    }
  }

  @Test
  void methodNotAllowedListsTheAllowedMethods() throws Exception {
    Fixture f = Fixture.laplace(67);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("m.db"))) {
      f.writeBuckets(store, 2);
      DapRouter h = handler(f, store);
      HttpReply r = h.handle("POST", path(f), AUTH, TYPE, f.request(0, 2).encode());
      String location = r.headers().get("Location");
      String[][] cases = {
          {"GET", path(f), "POST"}, {"DELETE", path(f), "POST"},
          {"POST", location, "GET, DELETE"}, {"PUT", location, "GET, DELETE"},
          {"POST", "/healthz", "GET, HEAD"}, {"DELETE", "/readyz", "GET, HEAD"},
          {"PUT", "/metrics", "GET, HEAD"}};
      for (String[] c : cases) {
        HttpReply reply = h.handle(c[0], c[1], AUTH, TYPE, new byte[0]);
        assertProblem(reply, 405, "about:blank");
        assertEquals(c[2], reply.headers().get("Allow"), c[0] + " " + c[1]);
      }
    }
  }

  /** A store whose every call fails with a DatastoreException while {@code failing} is set. */
  static Datastore failing(Datastore real, AtomicBoolean failing) {
    return (Datastore) Proxy.newProxyInstance(
        Datastore.class.getClassLoader(), new Class<?>[] {Datastore.class},
        (proxy, method, args) -> {
          if (failing.get() && !method.getName().equals("close")) {
            throw new DatastoreException(method.getName() + " failed on SQLITE",
                new SQLException("cannot reach the database",
                    new java.net.ConnectException("Connection refused")));
          }
          try {
            return method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @Test
  void storeFailuresAre500sThatLogTheRootCauseAndCount() throws Exception {
    Fixture f = Fixture.laplace(69);
    Logger log = (Logger) LoggerFactory.getLogger(DapRouter.class);
    ListAppender<ILoggingEvent> captured = new ListAppender<>();
    captured.start();
    log.addAppender(captured);
    try (JdbcDatastore real = JdbcDatastore.openSqlite(dir.resolve("s.db"))) {
      f.writeBuckets(real, 4);
      AtomicBoolean down = new AtomicBoolean();
      Datastore store = failing(real, down);
      ServiceMetrics metrics = new ServiceMetrics();
      DapRouter h = DapRouter.builder(List.of(f.task), store).metrics(metrics)
          .aggregateShares(shares(store, 5)).build();
      assertEquals(200, h.handle("POST", path(f), AUTH, TYPE, f.request(0, 2).encode()).status());
      assertEquals(200, h.handle("POST", path(f), AUTH, TYPE, f.request(0, 2).encode()).status());
      assertProblem(h.handle("POST", path(f), AUTH, TYPE, f.request(1, 3).encode()), 400,
          "urn:ietf:params:ppm:dap:error:batchOverlap");
      assertEquals(200, h.handle("GET", "/readyz", null, null, null).status());
      down.set(true);
      HttpReply r = h.handle("POST", path(f), AUTH, TYPE, f.request(2, 4).encode());
      JsonNode n = assertProblem(r, 500, "about:blank");
      assertFalse(n.toString().contains("Connection refused"), "no internals in the reply");
      JsonNode ready = assertProblem(h.handle("GET", "/readyz", null, null, null), 503,
          "about:blank");
      assertTrue(ready.get("detail").asText().contains("Connection refused"), ready.toString());
      assertEquals(1.0, metrics.registry().get("priodp.batch.overlap.refusals").counter().count());
      assertEquals(1.0, metrics.registry().get("priodp.store.errors").counter().count());
      String scrape = new String(h.handle("GET", "/metrics", null, null, null).body(),
          StandardCharsets.UTF_8);
      assertTrue(scrape.contains("priodp_store_errors_total 1.0"), scrape);
      down.set(false);
      assertEquals(200, h.handle("GET", "/readyz", null, null, null).status());
    } finally {
      log.detachAppender(captured);
    }
    List<String> errors = captured.list.stream().filter(e -> e.getLevel() == Level.ERROR)
        .map(ILoggingEvent::getFormattedMessage).toList();
    assertEquals(1, errors.size(), errors.toString());
    assertTrue(errors.get(0).contains("org.priodp.aggregator.datastore.DatastoreException")
        && errors.get(0).contains("java.net.ConnectException: Connection refused"), errors.get(0));
    for (ILoggingEvent e : captured.list) {
      assertFalse(e.getFormattedMessage().contains(Fixture.TOKEN), e.getFormattedMessage());
    }
  }

}
