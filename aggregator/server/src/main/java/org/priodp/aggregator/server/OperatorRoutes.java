package org.priodp.aggregator.server;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.server.internal.Causes;

/**
 * Answers the operator's routes at the root, outside DAP-18's resources ("HTTP Resources
 * Reference" leaves the rest of the URL space to the deployment): {@code GET /healthz} (liveness,
 * no store access), {@code GET /readyz} (asks the store: 200, or a 503 problem that says why) and
 * {@code GET /metrics} (Prometheus text, {@link ServiceMetrics}); {@code HEAD} too, any other
 * method is 405. A change of readiness is logged once. Thread-safe.
 */
final class OperatorRoutes {
  /** The paths of the operator's routes. */
  static final Set<String> PATHS = Set.of("/healthz", "/readyz", "/metrics");
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DapRouter.class);

  private final Datastore store;
  private final ServiceMetrics metrics;
  private final AtomicBoolean lastReady = new AtomicBoolean(true);

  OperatorRoutes(Datastore store, ServiceMetrics metrics) {
    this.store = Objects.requireNonNull(store, "store");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** Returns true if the path is one of the operator's routes. */
  static boolean matches(String path) {
    return path != null && PATHS.contains(path);
  }

  /** Answers a request on one of {@link #PATHS}. */
  HttpReply handle(String method, String path) {
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      return DapProblem.methodNotAllowed("GET, HEAD", null);
    }
    return switch (path) {
      case "/healthz" -> json(200, "{\"status\":\"ok\"}");
      case "/readyz" -> ready();
      default -> new HttpReply(200, Map.of("Content-Type", ServiceMetrics.CONTENT_TYPE),
          metrics.scrape().getBytes(StandardCharsets.UTF_8));
    };
  }

  private HttpReply ready() {
    try {
      store.checkReady();
    } catch (RuntimeException e) {
      if (lastReady.getAndSet(false)) {
        LOG.warn("not ready: the store does not answer: {}", Causes.forLog(e));
      }
      return DapProblem.http(503, "Service Unavailable", "the store does not answer: "
          + Causes.message(Causes.root(e)), null).toReply();
    }
    if (!lastReady.getAndSet(true)) {
      LOG.info("ready: the store answers again");
    }
    return json(200, "{\"status\":\"ready\"}");
  }

  private static HttpReply json(int status, String body) {
    return new HttpReply(status, Map.of("Content-Type", "application/json"),
        body.getBytes(StandardCharsets.UTF_8));
  }
}
