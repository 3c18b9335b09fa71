package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;

/** The operator's routes at the root: liveness, readiness, metrics and the admin status. */
class OperatorRoutesTest {
  @TempDir
  Path dir;

  @Test
  void healthReadinessAndMetricsAnswerGetAndHead() throws Exception {
    try (JdbcDatastore real = JdbcDatastore.openSqlite(dir.resolve("o.db"))) {
      AtomicBoolean down = new AtomicBoolean();
      ServiceMetrics metrics = new ServiceMetrics();
      OperatorRoutes routes = new OperatorRoutes(DapRouterTest.failing(real, down), metrics);
      assertTrue(OperatorRoutes.matches("/readyz"));
      assertFalse(OperatorRoutes.matches("/dap/readyz"));
      assertFalse(OperatorRoutes.matches(null));
      assertEquals("{\"status\":\"ok\"}", new String(routes.handle("GET", "/healthz").body(),
          StandardCharsets.UTF_8));
      assertEquals(200, routes.handle("HEAD", "/readyz").status());
      assertEquals(ServiceMetrics.CONTENT_TYPE, routes.handle("GET", "/metrics").contentType());
      down.set(true);
      DapRouterTest.assertProblem(routes.handle("GET", "/readyz"), 503, "about:blank");
      assertEquals(200, routes.handle("GET", "/healthz").status(), "liveness asks no store");
      HttpReply post = routes.handle("POST", "/metrics");
      assertEquals(405, post.status());
      assertEquals("GET, HEAD", post.headers().get("Allow"));
    }
  }

  private static java.net.http.HttpResponse<String> get(int port, String authorization)
      throws Exception {
    java.net.http.HttpRequest.Builder r = java.net.http.HttpRequest.newBuilder(
        java.net.URI.create("http://127.0.0.1:" + port + "/admin/status")).GET();
    if (authorization != null) {
      r.header("Authorization", authorization);
    }
    return java.net.http.HttpClient.newHttpClient().send(r.build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  /**
   * GET /admin/status over HTTP (issue 24 "See the pipeline"): absent without an admin token
   * (404 problem), 401 problem+json without or with a wrong bearer token, and with the right one
   * the JSON of the same numbers the status service reads from the store; /metrics stays open.
   */
  @Test
  void theAdminStatusIsBehindItsOwnTokenAndShowsTheStoresNumbers() throws Exception {
    org.priodp.aggregator.testing.LeaderPair pair = new org.priodp.aggregator.testing.LeaderPair(
        new org.priodp.vdaf.Prio3Variant.Count(), new java.util.Random(7), 1);
    org.priodp.aggregator.core.TaskDefinition leader = pair.leader;
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("admin.db"))) {
      store.inTaskTransaction(leader.taskId(), tx -> {
        tx.counters().add(org.priodp.aggregator.core.PipelineCounters.UPLOAD_ACCEPTED, "", 5);
        tx.counters().add(org.priodp.aggregator.core.PipelineCounters.UPLOAD_REJECTED,
            "report_too_early", 2);
        tx.clientReports().insertIfAbsent(new org.priodp.aggregator.dap.ReportId(new byte[16]),
            org.priodp.aggregator.testing.LeaderPair.now(),
            org.priodp.aggregator.dap.ByteString.copyOf(new byte[] {1}));
        return null;
      });
      try (Aggregator off = Aggregator.start(AggregatorConfig.builder(
          java.util.List.of(leader), store).port(0).build())) {
        java.net.http.HttpResponse<String> r = get(off.port(), "Bearer admin-token_0123");
        assertEquals(404, r.statusCode(), r.body());
        assertEquals(200, java.net.http.HttpClient.newHttpClient().send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                + off.port() + "/metrics")).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode());
      }
      try (Aggregator on = Aggregator.start(AggregatorConfig.builder(
          java.util.List.of(leader), store).port(0)
          .adminToken(org.priodp.aggregator.task.AuthToken.of("admin-token_0123")).build())) {
        for (String wrong : new String[] {null, "Bearer other-token",
            "Bearer " + org.priodp.aggregator.testing.LeaderPair.TOKEN}) {
          java.net.http.HttpResponse<String> r = get(on.port(), wrong);
          assertEquals(401, r.statusCode(), wrong + ": " + r.body());
          assertEquals("application/problem+json",
              r.headers().firstValue("Content-Type").orElse(""));
        }
        java.net.http.HttpResponse<String> r = get(on.port(), "Bearer admin-token_0123");
        assertEquals(200, r.statusCode(), r.body());
        com.fasterxml.jackson.databind.ObjectMapper json =
            new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode task = json.readTree(r.body()).get("tasks")
            .get(0);
        assertEquals(leader.taskId().toBase64Url(), task.get("task_id").asText());
        assertEquals("leader", task.get("role").asText());
        assertEquals(5, task.get("uploads").get("accepted").asLong());
        assertEquals(2, task.get("uploads").get("rejected").get("report_too_early").asLong());
        assertEquals(1, task.get("backlog").get("unclaimed_reports").asLong());
        java.time.Instant at = java.time.Instant.now();
        com.fasterxml.jackson.databind.JsonNode expected = json.readTree(StatusJson.of(at,
            java.util.List.of(new org.priodp.aggregator.core.PipelineStatusService(store,
                java.time.Clock.systemUTC()).status(leader)))).get("tasks").get(0);
        assertEquals(expected, task, "the same numbers as the status service");
      }
    }
  }
}
