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

/** The operator's routes at the root: liveness, readiness and metrics. */
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
}
