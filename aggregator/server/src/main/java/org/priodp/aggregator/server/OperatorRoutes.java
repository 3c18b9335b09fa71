package org.priodp.aggregator.server;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.priodp.aggregator.core.PipelineStatusService;
import org.priodp.aggregator.core.TaskDefinition;
import java.util.concurrent.atomic.AtomicBoolean;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.server.internal.Causes;
import org.priodp.aggregator.task.AuthToken;

/**
 * Answers the operator's routes at the root, outside DAP-18's resources ("HTTP Resources
 * Reference" leaves the rest of the URL space to the deployment): {@code GET /healthz} (liveness,
 * no store access), {@code GET /readyz} (asks the store: 200, or a 503 problem that says why) and
 * {@code GET /metrics} (Prometheus text, {@link ServiceMetrics}); {@code HEAD} too, any other
 * method is 405. A change of readiness is logged once. {@code GET /admin/status} (issue 24 "See
 * the pipeline"; docs/DAP.md "Pipeline status") answers the tasks' {@link StatusJson} behind the
 * operator's own bearer token: without a configured token it is 404, with a missing or wrong
 * token 401 problem+json. Thread-safe.
 */
final class OperatorRoutes {
  /** The paths of the operator's routes. */
  static final Set<String> PATHS = Set.of("/healthz", "/readyz", "/metrics", "/admin/status");
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DapRouter.class);

  private final Datastore store;
  private final ServiceMetrics metrics;
  private final AtomicBoolean lastReady = new AtomicBoolean(true);
  private final Optional<AdminStatus> admin;

  /** The status endpoint's token, service and tasks (the registry's, as they are now). */
  record AdminStatus(AuthToken token, PipelineStatusService service,
      Supplier<List<TaskDefinition>> tasks, Clock clock) {
    AdminStatus {
      Objects.requireNonNull(token, "token");
      Objects.requireNonNull(service, "service");
      Objects.requireNonNull(tasks, "tasks");
      Objects.requireNonNull(clock, "clock");
    }
  }

  OperatorRoutes(Datastore store, ServiceMetrics metrics) {
    this(store, metrics, Optional.empty());
  }

  OperatorRoutes(Datastore store, ServiceMetrics metrics, Optional<AdminStatus> admin) {
    this.store = Objects.requireNonNull(store, "store");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.admin = Objects.requireNonNull(admin, "admin");
  }

  /** Returns true if the path is one of the operator's routes. */
  static boolean matches(String path) {
    return path != null && PATHS.contains(path);
  }

  /** Answers a request on one of {@link #PATHS} without an Authorization header. */
  HttpReply handle(String method, String path) {
    return handle(method, path, null);
  }

  /** Answers a request on one of {@link #PATHS}; {@code authorization} is the header or null. */
  HttpReply handle(String method, String path, String authorization) {
    if ("/admin/status".equals(path) && admin.isEmpty()) {
      return DapProblem.http(404, "Not Found", "no admin token is configured, so the status"
          + " endpoint is off (serve --admin-token-file)", null).toReply();
    }
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      return DapProblem.methodNotAllowed("GET, HEAD", null);
    }
    return switch (path) {
      case "/admin/status" -> status(admin.get(), authorization);
      case "/healthz" -> json(200, "{\"status\":\"ok\"}");
      case "/readyz" -> ready();
      default -> new HttpReply(200, Map.of("Content-Type", ServiceMetrics.CONTENT_TYPE),
          metrics.scrape().getBytes(StandardCharsets.UTF_8));
    };
  }

  private static HttpReply status(AdminStatus a, String authorization) {
    try {
      RequestChecks.bearer(a.token(), authorization, null);
    } catch (DapProblem p) {
      return p.toReply();
    }
    return json(200, StatusJson.of(a.clock().instant(), a.service().status(a.tasks().get())));
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
