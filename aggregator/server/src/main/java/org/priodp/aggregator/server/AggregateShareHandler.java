package org.priodp.aggregator.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.priodp.aggregator.core.DapRefusal;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregateShareResource;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;
import org.priodp.aggregator.server.internal.Causes;

/**
 * Handles the Helper's aggregate-share resources independently of the HTTP server (DAP-18
 * "Obtaining Aggregate Shares", "Aggregate Share Deletion", "Resource Creation", "Errors"):
 * {@code POST {base}tasks/{task-id}/aggregate_shares} answers synchronously with 200, a Location
 * and the AggregateShare; {@code GET} and {@code DELETE} act on that Location. {@code {base}} is
 * the path of the task's helper_aggregator_endpoint ({@link TaskRoutes}). At the root: {@code GET
 * /healthz} (liveness, no store access), {@code GET /readyz} (asks the store; 200 or 503) and
 * {@code GET /metrics} (Prometheus text, {@link ServiceMetrics}).
 *
 * <p>Every refusal is an {@code application/problem+json} document: DAP error types use their
 * URN with "taskid" when the task is known; HTTP-level refusals (401 missing or wrong bearer
 * token, 404, 405 with an Allow header, 413, 415) use {@code about:blank}. Under a base path that
 * no configured task uses, a task-shaped path is a plain 404; under a configured base path, a
 * task that is unknown there (or a Leader task) is unrecognizedTask. Store and other server
 * failures are 500; the reply says nothing more, the log gets the root cause.
 *
 * <p>The request Content-Type is parsed per RFC 9110 ({@link MediaType}): {@code
 * application/ppm-dap} in any case, the {@code message} parameter exactly {@code
 * aggregate-share-req} (any other value or none: 415), other parameters (such as DAP's {@code
 * version}) are accepted and ignored.
 *
 * <p>The aggregate share ID is derived from the task and the request digest, so a repeated POST
 * finds the same resource (DAP-18 "Resource Creation"). Blocking: call it off the event loop.
 */
public final class AggregateShareHandler {
  /** The default limit on request bodies, in bytes. */
  public static final int DEFAULT_MAX_BODY = 64 * 1024;
  static final String PROBLEM_JSON = "application/problem+json";
  /** The route template of paths that match no resource (for metrics). */
  public static final String UNMATCHED_ROUTE = "unmatched";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(AggregateShareHandler.class);
  private static final byte[] ID_LABEL =
      "prio-dp aggregate share id v1".getBytes(StandardCharsets.US_ASCII);
  private static final Set<String> ROOT_ROUTES = Set.of("/healthz", "/readyz", "/metrics");

  private final TaskRoutes routes;
  private final Datastore store;
  private final NoisedShareService service;
  private final int maxBody;
  private final ServiceMetrics metrics;
  private final AtomicBoolean lastReady = new AtomicBoolean(true);
  private final AggregationJobHandler jobs;
  private final TaskResource reports;
  private final TaskResource collectionJobs;
  /** The keys advertised at hpke_config: the jobs' key ring, or the store's for Leader tasks. */
  private final org.priodp.aggregator.core.HelperHpkeKeys hpkeKeys;
  private final AsyncShares asyncShares;
  private final Set<AggregateShareId> sharesInFlight =
      java.util.concurrent.ConcurrentHashMap.newKeySet();
  /** The body limit of an upload (many reports), like an aggregation job's. */
  public static final int MAX_UPLOAD_BODY = 16 << 20;

  /** Creates the handler for the tasks over the store and core service, with its own metrics. */
  public AggregateShareHandler(List<TaskDefinition> tasks, Datastore store,
      NoisedShareService service, int maxBody) {
    this(tasks, store, service, maxBody, new ServiceMetrics());
  }

  /**
   * Creates the handler for the tasks over the store and core service, recording into {@code
   * metrics}; throws IllegalArgumentException for a task whose helper endpoint is not an
   * absolute http(s) URL.
   */
  public AggregateShareHandler(List<TaskDefinition> tasks, Datastore store,
      NoisedShareService service, int maxBody, ServiceMetrics metrics) {
    this(tasks, store, service, maxBody, metrics, null);
  }

  /**
   * Creates the handler that also serves the aggregation jobs and {@code hpke_config} through
   * {@code jobs} (null: those paths are 404, except that hpke_config is served from the store's
   * keys when some task is a Leader task).
   */
  public AggregateShareHandler(List<TaskDefinition> tasks, Datastore store,
      NoisedShareService service, int maxBody, ServiceMetrics metrics,
      AggregationJobHandler jobs) {
    this(tasks, store, service, maxBody, metrics, jobs, null, null);
  }

  /**
   * Creates the handler that also serves the Leader's {@code reports} (no authentication: DAP-18
   * leaves Client authentication to the deployment) and {@code collection_jobs} (the task's
   * collector_auth_token) through the given resources (null: those paths are 404).
   */
  public AggregateShareHandler(List<TaskDefinition> tasks, Datastore store,
      NoisedShareService service, int maxBody, ServiceMetrics metrics,
      AggregationJobHandler jobs, TaskResource reports, TaskResource collectionJobs) {
    this(tasks, store, service, maxBody, metrics, jobs, reports, collectionJobs, null);
  }

  /**
   * Creates the handler that, with {@code asyncShares} (null: synchronous), answers a new
   * aggregate-share request with an empty body, a Location and Retry-After and releases the
   * share in the background (DAP-18 "Asynchronous Request Handling"); GET on the Location serves
   * it once released, or the error it failed with. Noise is still drawn once: the release is the
   * same once-only {@link NoisedShareService#release}.
   */
  public AggregateShareHandler(List<TaskDefinition> tasks, Datastore store,
      NoisedShareService service, int maxBody, ServiceMetrics metrics,
      AggregationJobHandler jobs, TaskResource reports, TaskResource collectionJobs,
      AsyncShares asyncShares) {
    this.asyncShares = asyncShares;
    this.jobs = jobs;
    this.reports = reports;
    this.collectionJobs = collectionJobs;
    this.routes = TaskRoutes.of(Objects.requireNonNull(tasks, "tasks"));
    this.store = Objects.requireNonNull(store, "store");
    this.service = Objects.requireNonNull(service, "service");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    if (maxBody < 1) {
      throw new IllegalArgumentException("maxBody must be positive");
    }
    this.maxBody = maxBody;
    // A Leader serves hpke_config too (DAP-18 "HPKE Configuration Request"), from the same keys
    this.hpkeKeys = jobs != null ? jobs.service().keys() : routes.leaderTasks().isEmpty() ? null
        : new org.priodp.aggregator.core.HelperHpkeKeys(store, new java.security.SecureRandom(),
            java.time.Clock.systemUTC());
  }

  /** Returns the body size limit in bytes. */
  public int maxBody() {
    return maxBody;
  }

  /**
   * Returns the body size limit for a request path: {@link AggregationJobHandler#maxBody()} on
   * an aggregation-job path (a job carries many reports), else {@link #maxBody()}.
   */
  public int maxBodyFor(String path) {
    TaskRoutes.Target t = jobs == null ? null : TaskRoutes.parse(path);
    if (t != null && t.collection().equals(TaskRoutes.AGGREGATION_JOBS)) {
      return jobs.maxBody();
    }
    TaskRoutes.Target u = TaskRoutes.parse(path);
    if (u != null && u.collection().equals(TaskRoutes.REPORTS)) {
      return Math.max(maxBody, MAX_UPLOAD_BODY);
    }
    return maxBody;
  }

  /** Returns the core service (e.g. to read its draw counter). */
  public NoisedShareService service() {
    return service;
  }

  /** Returns the aggregation-job resources, if this handler serves them. */
  public Optional<AggregationJobHandler> aggregationJobs() {
    return Optional.ofNullable(jobs);
  }

  /** Returns the metrics this handler records into. */
  public ServiceMetrics metrics() {
    return metrics;
  }

  /** Returns the task routes. */
  public TaskRoutes routes() {
    return routes;
  }

  /**
   * Returns the low-cardinality route template of a path for metrics: {@code /healthz}, {@code
   * /readyz}, {@code /metrics}, {@code {base}tasks/{task-id}/aggregate_shares[/{id}]} for a
   * configured base path, else {@value #UNMATCHED_ROUTE}.
   */
  public String routeOf(String path) {
    if (path != null && ROOT_ROUTES.contains(path)) {
      return path;
    }
    String hpkeBase = TaskRoutes.hpkeConfigBase(path);
    if (hpkeBase != null && (hpkeBase.equals("/") || routes.isBasePath(hpkeBase))) {
      return hpkeBase + "hpke_config";
    }
    TaskRoutes.Target t = TaskRoutes.parse(path);
    if (t == null || !routes.isBasePath(t.basePath())) {
      return UNMATCHED_ROUTE;
    }
    if (t.collection().equals(TaskRoutes.AGGREGATION_JOBS)) {
      return t.basePath() + "tasks/{task-id}/aggregation_jobs"
          + (t.shareId() == null ? "" : "/{aggregation-job-id}");
    }
    if (t.collection().equals(TaskRoutes.REPORTS)) {
      return t.basePath() + "tasks/{task-id}/reports";
    }
    if (t.collection().equals(TaskRoutes.COLLECTION_JOBS)) {
      return t.basePath() + "tasks/{task-id}/collection_jobs"
          + (t.shareId() == null ? "" : "/{collection-job-id}");
    }
    return t.basePath() + "tasks/{task-id}/aggregate_shares"
        + (t.shareId() == null ? "" : "/{aggregate-share-id}");
  }

  /**
   * Handles one request; {@code path} excludes the query string, {@code authorization} and
   * {@code contentType} are header values or null. Never throws for client input.
   */
  public HttpReply handle(String method, String path, String authorization, String contentType,
      byte[] body) {
    return handle(method, path, null, authorization, contentType, body);
  }

  /**
   * Handles one request whose query string (without "?", or null) is {@code query}; only GET on
   * an aggregation job reads it ({@code step}). Never throws for client input.
   */
  public HttpReply handle(String method, String path, String query, String authorization,
      String contentType, byte[] body) {
    try {
      try {
        return route(method, path, query, authorization, contentType,
            body == null ? new byte[0] : body);
      } catch (DapRefusal r) {
        throw DapProblem.of(r);
      }
    } catch (DapProblem p) {
      if (p.error().orElse(null) == DapError.BATCH_OVERLAP) {
        metrics.batchOverlap();
      }
      return problem(p);
    } catch (RuntimeException e) {
      if (Causes.find(e, DatastoreException.class) != null) {
        metrics.storeError();
      }
      // A server fault (e.g. the database is down): the root cause goes to the log (never a
      // token or a share: neither is part of an exception message), nothing to the client.
      LOG.error("500 on {} {}: {}", method, routeOf(path), Causes.forLog(e));
      LOG.debug("500 on {} {}", method, routeOf(path), e);
      return problem(DapProblem.http(500, "Internal Server Error",
          "the aggregator could not complete the request", null));
    }
  }

  private HttpReply route(String method, String path, String query, String authorization,
      String contentType, byte[] body) {
    if (path != null && ROOT_ROUTES.contains(path)) {
      if (!"GET".equals(method) && !"HEAD".equals(method)) {
        return notAllowed("GET, HEAD", null);
      }
      return switch (path) {
        case "/healthz" -> json(200, "{\"status\":\"ok\"}");
        case "/readyz" -> ready();
        default -> new HttpReply(200, Map.of("Content-Type", ServiceMetrics.CONTENT_TYPE),
            metrics.scrape().getBytes(StandardCharsets.UTF_8));
      };
    }
    String hpkeBase = TaskRoutes.hpkeConfigBase(path);
    if (hpkeKeys != null && hpkeBase != null
        && (hpkeBase.equals("/") || routes.isBasePath(hpkeBase))) {
      return AggregationJobHandler.hpkeConfig(hpkeKeys, method);
    }
    TaskRoutes.Target target = TaskRoutes.parse(path);
    if (target == null || !routes.isBasePath(target.basePath())
        || (jobs == null && target.collection().equals(TaskRoutes.AGGREGATION_JOBS))) {
      throw DapProblem.http(404, "Not Found", "no such resource", null);
    }
    TaskId taskId;
    try {
      taskId = TaskId.fromBase64Url(target.taskId());
    } catch (DapDecodeException e) {
      throw DapProblem.dap(DapError.UNRECOGNIZED_TASK, null, "the task ID is not 32 bytes of"
          + " URL-safe unpadded base64");
    }
    TaskDefinition task = routes.task(target.basePath(), taskId);
    if (task == null) {
      throw DapProblem.dap(DapError.UNRECOGNIZED_TASK, taskId, "unknown task");
    }
    if (task.role() == org.priodp.aggregator.dap.Role.LEADER) {
      return leaderResource(method, task, target, query, authorization, contentType, body);
    }
    if (target.collection().equals(TaskRoutes.REPORTS)
        || target.collection().equals(TaskRoutes.COLLECTION_JOBS)) {
      throw DapProblem.http(404, "Not Found", "no such resource on the Helper", taskId);
    }
    checkAuthorization(task.authToken(), authorization, taskId);
    if (target.collection().equals(TaskRoutes.AGGREGATION_JOBS)) {
      return jobs.handle(method, task, target.shareId(), query, contentType, body);
    }
    if (target.shareId() == null) {
      if (!"POST".equals(method)) {
        return notAllowed("POST", taskId);
      }
      if (asyncShares != null) {
        return postAsync(task, contentType, body);
      }
      HttpReply r = post(task, contentType, body);
      metrics.shareReleased();
      return r;
    }
    AggregateShareId id;
    try {
      id = AggregateShareId.fromBase64Url(target.shareId());
    } catch (DapDecodeException e) {
      throw DapProblem.http(404, "Not Found", "no such aggregate share", taskId);
    }
    return switch (method) {
      case "GET" -> get(task, id);
      case "DELETE" -> delete(task, id);
      default -> notAllowed("GET, DELETE", taskId);
    };
  }

  private static void checkAuthorization(org.priodp.aggregator.task.AuthToken token,
      String authorization, TaskId taskId) {
    if (authorization == null) {
      throw DapProblem.http(401, "Unauthorized", "missing bearer token", taskId);
    }
    if (!token.matchesAuthorization(authorization)) {
      throw DapProblem.http(401, "Unauthorized", "wrong bearer token", taskId);
    }
  }

  /**
   * Routes a request for a Leader task: {@code reports} (DAP-18 "Upload Request", creation URL
   * only, unauthenticated) and {@code collection_jobs} (DAP-18 "Collecting Results", the
   * Collector's token); the Helper's resources do not exist on a Leader task.
   */
  private HttpReply leaderResource(String method, TaskDefinition task, TaskRoutes.Target target,
      String query, String authorization, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    if (target.collection().equals(TaskRoutes.REPORTS) && reports != null
        && target.shareId() == null) {
      return reports.handle(method, task, null, query, contentType, body);
    }
    if (target.collection().equals(TaskRoutes.COLLECTION_JOBS) && collectionJobs != null) {
      if (task.collectorAuthToken().isEmpty()) {
        throw DapProblem.http(401, "Unauthorized", "the task has no collector token", taskId);
      }
      checkAuthorization(task.collectorAuthToken().get(), authorization, taskId);
      return collectionJobs.handle(method, task, target.shareId(), query, contentType, body);
    }
    throw DapProblem.http(404, "Not Found", "no such resource on the Leader", taskId);
  }

  private static HttpReply json(int status, String body) {
    return new HttpReply(status, Map.of("Content-Type", "application/json"),
        body.getBytes(StandardCharsets.UTF_8));
  }

  static HttpReply notAllowed(String allow, TaskId taskId) {
    return problem(DapProblem.http(405, "Method Not Allowed", "allowed methods: " + allow,
        taskId)).withHeader("Allow", allow);
  }

  private HttpReply ready() {
    try {
      store.checkReady();
    } catch (RuntimeException e) {
      if (lastReady.getAndSet(false)) {
        LOG.warn("not ready: the store does not answer: {}", Causes.forLog(e));
      }
      return problem(DapProblem.http(503, "Service Unavailable", "the store does not answer: "
          + Causes.message(Causes.root(e)), null));
    }
    if (!lastReady.getAndSet(true)) {
      LOG.info("ready: the store answers again");
    }
    return json(200, "{\"status\":\"ready\"}");
  }

  /** Checks the Content-Type of an AggregateShareReq; throws a 415 problem otherwise. */
  static void checkAggregateShareReqType(String contentType, TaskId taskId) {
    checkMessageType(contentType, DapMediaType.AGGREGATE_SHARE_REQ, taskId);
  }

  /** Checks that a Content-Type names the DAP message {@code wanted}; throws a 415 problem. */
  static void checkMessageType(String contentType, DapMediaType wanted, TaskId taskId) {
    String expected = wanted.contentType();
    if (contentType == null) {
      throw DapProblem.http(415, "Unsupported Media Type", "missing Content-Type; expected "
          + expected, taskId);
    }
    MediaType type;
    try {
      type = MediaType.parse(contentType);
    } catch (IllegalArgumentException e) {
      throw DapProblem.http(415, "Unsupported Media Type", "malformed Content-Type ("
          + e.getMessage() + "); expected " + expected, taskId);
    }
    int slash = DapMediaType.BASE.indexOf('/');
    if (!type.is(DapMediaType.BASE.substring(0, slash), DapMediaType.BASE.substring(slash + 1))) {
      throw DapProblem.http(415, "Unsupported Media Type", "expected Content-Type " + expected,
          taskId);
    }
    String message = type.parameter("message");
    if (!wanted.message().equals(message)) {
      throw DapProblem.http(415, "Unsupported Media Type", (message == null
          ? "the message parameter is missing" : "the message parameter names another message")
          + "; expected " + expected, taskId);
    }
  }

  private HttpReply post(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    checkAggregateShareReqType(contentType, taskId);
    if (body.length > maxBody) {
      throw DapProblem.http(413, "Content Too Large", "the body exceeds " + maxBody + " bytes",
          taskId);
    }
    AggregateShareReq req;
    try {
      req = AggregateShareReq.decode(body);
    } catch (DapDecodeException e) {
      throw DapProblem.dap(e.error(), taskId, e.getMessage());
    }
    ReleasedAggregateShare released = service.release(task, req);
    AggregateShareId id = resourceId(taskId, released.requestDigest());
    AggregateShareResource resource = store.inTaskTransaction(taskId,
        tx -> tx.aggregateShares().createIfAbsent(new AggregateShareResource(
            taskId, id, released.batch(), released.requestDigest(), released.createdAt())));
    return share(task, resource.id(), released);
  }

  private HttpReply get(TaskDefinition task, AggregateShareId id) {
    Optional<AggregateShareResource> r = store.inTaskTransaction(task.taskId(),
        tx -> tx.aggregateShares().get(id));
    if (r.isEmpty()) {
      throw DapProblem.http(404, "Not Found", "no such aggregate share", task.taskId());
    }
    if (asyncShares != null) {
      return pendingOrDone(task, r.get());
    }
    ReleasedAggregateShare released = service.released(task.taskId(), r.get().batch())
        .orElseThrow(() -> new IllegalStateException("resource without a released share"));
    return share(task, id, released);
  }

  // --- The Helper's asynchronous aggregate shares (issue 17, collection part) ---

  /**
   * How aggregate shares are answered asynchronously: the executor that releases them and the
   * Retry-After (seconds) of the not-ready answer.
   */
  public record AsyncShares(java.util.concurrent.Executor executor, int retryAfterSeconds) {
    /** Validates the fields. */
    public AsyncShares {
      Objects.requireNonNull(executor, "executor");
      if (retryAfterSeconds < 0) {
        throw new IllegalArgumentException("retryAfterSeconds must not be negative");
      }
    }
  }

  /** Returns whether aggregate shares are answered asynchronously. */
  public boolean asynchronousShares() {
    return asyncShares != null;
  }

  /**
   * Stops the background pool of asynchronous shares if it is an ExecutorService: running
   * releases finish (10 s at most); a request not started yet stays stored and is started again
   * by the next GET or POST.
   */
  public void closeAsynchronousShares() {
    if (asyncShares != null
        && asyncShares.executor() instanceof java.util.concurrent.ExecutorService pool) {
      pool.shutdown();
      try {
        pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The asynchronous POST: a batch released before is answered at once (the same once-only
   * release returns the stored share, or refuses another request for it); otherwise the request
   * is stored, the resource created, the release started in the background and the answer is
   * 200 with Location, Retry-After and an empty body.
   */
  private HttpReply postAsync(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    checkAggregateShareReqType(contentType, taskId);
    if (body.length > maxBody) {
      throw DapProblem.http(413, "Content Too Large", "the body exceeds " + maxBody + " bytes",
          taskId);
    }
    AggregateShareReq req;
    try {
      req = AggregateShareReq.decode(body);
    } catch (DapDecodeException e) {
      throw DapProblem.dap(e.error(), taskId, e.getMessage());
    }
    org.priodp.aggregator.datastore.BatchIdentifier batch =
        org.priodp.aggregator.core.BatchBuckets.batchIdentifier(req.batchSelector());
    if (service.released(taskId, batch).isPresent()) {
      HttpReply r = post(task, contentType, body);
      metrics.shareReleased();
      return r;
    }
    ByteString digest = NoisedShareService.requestDigest(req);
    AggregateShareId id = resourceId(taskId, digest);
    java.time.Instant now = java.time.Instant.now();
    store.inTaskTransaction(taskId, tx -> tx.aggregateShares().putRequestIfAbsent(
        new org.priodp.aggregator.datastore.AggregateShareRequest(taskId, id,
            ByteString.copyOf(req.encode()), Optional.empty(), Optional.empty(), now)));
    AggregateShareResource resource = store.inTaskTransaction(taskId,
        tx -> tx.aggregateShares().createIfAbsent(new AggregateShareResource(
            taskId, id, batch, digest, now)));
    return pendingOrDone(task, resource);
  }

  /**
   * Answers an asynchronous resource: its share once released for its request, the error it
   * failed with, or (starting its release if no thread of this process runs it) not ready yet.
   */
  private HttpReply pendingOrDone(TaskDefinition task, AggregateShareResource resource) {
    TaskId taskId = task.taskId();
    Optional<ReleasedAggregateShare> released = service.released(taskId, resource.batch());
    if (released.isPresent() && released.get().requestDigest().equals(resource.requestDigest())) {
      metrics.shareReleased();
      return share(task, resource.id(), released.get());
    }
    Optional<org.priodp.aggregator.datastore.AggregateShareRequest> stored =
        store.inTaskTransaction(taskId, tx -> tx.aggregateShares().request(resource.id()));
    if (stored.isEmpty()) {
      throw new IllegalStateException("aggregate share resource without a released share or a"
          + " stored request");
    }
    if (stored.get().errorType().isPresent()) {
      throw DapProblem.dap(DapError.fromType(stored.get().errorType().get()), taskId,
          stored.get().errorDetail().orElse("the aggregate share request failed"));
    }
    submit(task, stored.get());
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Location", location(task, resource.id()));
    h.put("Retry-After", Integer.toString(asyncShares.retryAfterSeconds()));
    return new HttpReply(200, h, new byte[0]);
  }

  private void submit(TaskDefinition task,
      org.priodp.aggregator.datastore.AggregateShareRequest stored) {
    AggregateShareId id = stored.id();
    if (!sharesInFlight.add(id)) {
      return;
    }
    try {
      asyncShares.executor().execute(() -> {
        try {
          service.release(task, AggregateShareReq.decode(stored.request().toByteArray()));
        } catch (DapRefusal r) {
          store.inTaskTransaction(task.taskId(),
              tx -> tx.aggregateShares().failRequest(id, r.error().type(), r.detail()));
        } catch (RuntimeException e) {
          // stays pending: the next GET or POST starts it again
          LOG.error("aggregate share {} failed: {}", id.toBase64Url(), Causes.forLog(e));
        } finally {
          sharesInFlight.remove(id);
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      sharesInFlight.remove(id);
      throw e;
    }
  }

  private HttpReply delete(TaskDefinition task, AggregateShareId id) {
    if (!store.inTaskTransaction(task.taskId(), tx -> tx.aggregateShares().delete(id))) {
      throw DapProblem.http(404, "Not Found", "no such aggregate share", task.taskId());
    }
    return new HttpReply(200, Map.of(), new byte[0]);
  }

  private static HttpReply share(TaskDefinition task, AggregateShareId id,
      ReleasedAggregateShare released) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Location", location(task, id));
    h.put("Content-Type", DapMediaType.AGGREGATE_SHARE.contentType());
    return new HttpReply(200, h, released.aggregateShare().toByteArray());
  }

  /**
   * Returns the resource path {@code {base}tasks/{task-id}/aggregate_shares/{id}}, {@code {base}}
   * being the path of the task's helper endpoint.
   */
  public static String location(TaskDefinition task, AggregateShareId id) {
    return TaskRoutes.aggregateSharesPath(task) + "/" + id.toBase64Url();
  }

  /** Derives the aggregate share ID from the task and the request digest. */
  static AggregateShareId resourceId(TaskId taskId, ByteString digest) {
    byte[] requestDigest = digest.toByteArray();
    byte[] input = new byte[ID_LABEL.length + TaskId.LENGTH + requestDigest.length];
    System.arraycopy(ID_LABEL, 0, input, 0, ID_LABEL.length);
    System.arraycopy(taskId.bytes(), 0, input, ID_LABEL.length, TaskId.LENGTH);
    System.arraycopy(requestDigest, 0, input, ID_LABEL.length + TaskId.LENGTH,
        requestDigest.length);
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(input);
      return new AggregateShareId(Arrays.copyOf(d, AggregateShareId.LENGTH));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }

  /** Returns the problem+json reply for a problem (RFC 9457; DAP-18 "Errors"). */
  public static HttpReply problem(DapProblem p) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("type", p.type());
    n.put("title", p.title());
    n.put("status", p.status());
    n.put("detail", p.detail());
    p.taskId().ifPresent(t -> n.put("taskid", t.toBase64Url()));
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Content-Type", PROBLEM_JSON);
    if (p.status() == 401) {
      h.put("WWW-Authenticate", "Bearer");
    }
    byte[] body;
    try {
      body = MAPPER.writeValueAsBytes(n);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return new HttpReply(p.status(), h, body);
  }
}
