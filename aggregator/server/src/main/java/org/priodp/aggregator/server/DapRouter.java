package org.priodp.aggregator.server;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.core.PipelineStatusService;
import org.priodp.aggregator.core.Refusal;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.server.internal.Causes;
import org.priodp.aggregator.task.AuthToken;

/**
 * Routes each request to its DAP-18 resource independently of the HTTP server ("HTTP Resources
 * Reference", "Errors"). Under a task's base path ({@link TaskRoutes}: the path of the helper
 * endpoint for a Helper task, of the leader endpoint for a Leader task):
 *
 * <ul>
 *   <li>{@code hpke_config}, for both roles ({@link HpkeConfigRoute}), also at the root;
 *   <li>Helper tasks, with the Leader's bearer token: {@code tasks/{task-id}/aggregation_jobs}
 *       ({@link AggregationJobsRoute}) and {@code tasks/{task-id}/aggregate_shares} ({@link
 *       AggregateSharesRoute});
 *   <li>Leader tasks: {@code tasks/{task-id}/reports} and, collector_selected, {@code
 *       tasks/{task-id}/reports/{collection-job-id}} ({@link ReportsRoute}; no authentication:
 *       DAP-18 leaves Client authentication to the deployment) and {@code
 *       tasks/{task-id}/collection_jobs} ({@link CollectionJobsRoute}; the task's
 *       collector_auth_token).
 * </ul>
 *
 * At the root: {@code /healthz}, {@code /readyz}, {@code /metrics} and {@code /admin/status}
 * ({@link OperatorRoutes}).
 * The tasks are those of a {@link TaskRegistry}, read at each request, so tasks added while it
 * runs are routed from then on. Paths under the prefix of {@link MountedRoutes}, if any are
 * mounted, go to them before any of the above.
 *
 * <p>Every refusal is an {@code application/problem+json} document ({@link DapProblem}): DAP
 * error types use their URN with "taskid" when the task is known; HTTP-level refusals (401
 * missing or wrong bearer token, 404, 405 with an Allow header, 413, 415) use {@code
 * about:blank}. Under a base path that no configured task uses, a task-shaped path is a plain
 * 404; under a configured base path, a task that is unknown there is unrecognizedTask. Store and
 * other server failures are 500; the reply says nothing more, the log gets the root cause.
 * Blocking: call it off the event loop. Thread-safe.
 */
public final class DapRouter {
  /** The default limit on request bodies, in bytes. */
  public static final int DEFAULT_MAX_BODY = 64 * 1024;
  /** The route template of paths that match no resource (for metrics). */
  public static final String UNMATCHED_ROUTE = "unmatched";
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DapRouter.class);

  private final TaskRegistry tasks;
  private final Optional<MountedRoutes> mounted;
  private final int maxBody;
  private final ServiceMetrics metrics;
  private final OperatorRoutes operator;
  private final Optional<HpkeConfigRoute> hpkeConfig;
  private final AggregateSharesRoute aggregateShares;
  private final Optional<AggregationJobsRoute> aggregationJobs;
  private final Optional<ReportsRoute> reports;
  private final Optional<CollectionJobsRoute> collectionJobs;

  private DapRouter(Builder b) {
    this.tasks = b.tasks;
    this.mounted = b.mounted;
    this.maxBody = b.maxBody;
    this.metrics = b.metrics;
    this.operator = new OperatorRoutes(b.store, b.metrics, b.adminToken.map(
        t -> new OperatorRoutes.AdminStatus(t, new PipelineStatusService(b.store, b.clock),
            b.tasks::tasks, b.clock)));
    this.aggregateShares = new AggregateSharesRoute(b.store, Objects.requireNonNull(
        b.noisedShares, "aggregateShares"), b.maxBody, b.asyncShares, b.clock);
    this.aggregationJobs = b.aggregationJobs;
    this.reports = b.reports;
    this.collectionJobs = b.collectionJobs;
    this.hpkeConfig = b.hpkeKeys
        .or(() -> b.aggregationJobs.map(j -> j.service().keys()))
        .or(() -> b.reports.map(r -> r.service().keys()))
        .map(HpkeConfigRoute::new);
  }

  /**
   * Starts a router for the tasks over the store; throws IllegalArgumentException for a task
   * whose endpoint is not an absolute http(s) URL or a task ID given twice.
   */
  public static Builder builder(List<TaskDefinition> tasks, Datastore store) {
    return new Builder(new TaskRegistry(Objects.requireNonNull(tasks, "tasks")), store);
  }

  /** Starts a router for the tasks of the registry, as they are at each request. */
  public static Builder builder(TaskRegistry tasks, Datastore store) {
    return new Builder(Objects.requireNonNull(tasks, "tasks"), store);
  }

  /** Returns the task routes as they are now. */
  public TaskRoutes routes() {
    return tasks.routes();
  }

  /** Returns the registry of the tasks it routes. */
  public TaskRegistry tasks() {
    return tasks;
  }

  /** Returns the metrics this router records into. */
  public ServiceMetrics metrics() {
    return metrics;
  }

  /** Returns the body size limit in bytes of requests other than uploads and jobs. */
  public int maxBody() {
    return maxBody;
  }

  /** Returns the aggregate-share resources. */
  public AggregateSharesRoute aggregateShares() {
    return aggregateShares;
  }

  /** Returns the aggregation-job resources, if this router serves them. */
  public Optional<AggregationJobsRoute> aggregationJobs() {
    return aggregationJobs;
  }

  /** Returns the Leader's reports resource, if this router serves it. */
  public Optional<ReportsRoute> reports() {
    return reports;
  }

  /** Returns the Leader's collection-job resources, if this router serves them. */
  public Optional<CollectionJobsRoute> collectionJobs() {
    return collectionJobs;
  }

  /**
   * Returns the body size limit for a request path: {@link AggregationJobsRoute#MAX_BODY} on an
   * aggregation-job path and {@link ReportsRoute#MAX_BODY} on a reports path (both carry many
   * reports), else {@link #maxBody()}.
   */
  public int maxBodyFor(String path) {
    TaskRoutes.Target t = TaskRoutes.parse(path);
    if (t != null && aggregationJobs.isPresent()
        && t.collection().equals(TaskRoutes.AGGREGATION_JOBS)) {
      return AggregationJobsRoute.MAX_BODY;
    }
    if (t != null && t.collection().equals(TaskRoutes.REPORTS)) {
      return Math.max(maxBody, ReportsRoute.MAX_BODY);
    }
    return maxBody;
  }

  /**
   * Returns the low-cardinality route template of a path for metrics: {@code /healthz}, {@code
   * /readyz}, {@code /metrics}, {@code {base}hpke_config}, {@code
   * {base}tasks/{task-id}/aggregate_shares[/{aggregate-share-id}]} (and likewise for the other
   * resources) for a configured base path, else {@value #UNMATCHED_ROUTE}.
   */
  public String routeOf(String path) {
    if (mounted.isPresent() && path != null && path.startsWith(mounted.get().prefix())) {
      return mounted.get().routeOf(path);
    }
    if (OperatorRoutes.matches(path)) {
      return path;
    }
    TaskRoutes routes = tasks.routes();
    String hpkeBase = TaskRoutes.hpkeConfigBase(path);
    if (hpkeBase != null && (hpkeBase.equals("/") || routes.isBasePath(hpkeBase))) {
      return hpkeBase + "hpke_config";
    }
    TaskRoutes.Target t = TaskRoutes.parse(path);
    if (t == null || !routes.isBasePath(t.basePath())) {
      return UNMATCHED_ROUTE;
    }
    String id = switch (t.collection()) {
      case TaskRoutes.AGGREGATION_JOBS -> "/{aggregation-job-id}";
      case TaskRoutes.REPORTS -> "/{collection-job-id}"; // collector_selected uploads
      case TaskRoutes.COLLECTION_JOBS -> "/{collection-job-id}";
      default -> "/{aggregate-share-id}";
    };
    return t.basePath() + "tasks/{task-id}/" + t.collection()
        + (t.resourceId() == null || id == null ? "" : id);
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
      } catch (Refusal r) {
        throw DapProblem.of(r);
      }
    } catch (DapProblem p) {
      if (p.error().orElse(null) == DapError.BATCH_OVERLAP) {
        metrics.batchOverlap();
      }
      return p.toReply();
    } catch (RuntimeException e) {
      if (Causes.find(e, DatastoreException.class) != null) {
        metrics.storeError();
      }
      // A server fault (e.g. the database is down): the root cause goes to the log (never a
      // token or a share: neither is part of an exception message), nothing to the client.
      LOG.error("500 on {} {}: {}", method, routeOf(path), Causes.forLog(e));
      LOG.debug("500 on {} {}", method, routeOf(path), e);
      return internalError();
    }
  }

  /** Returns the 500 reply, which says nothing about the cause. */
  static HttpReply internalError() {
    return DapProblem.http(500, "Internal Server Error",
        "the aggregator could not complete the request", null).toReply();
  }

  private HttpReply route(String method, String path, String query, String authorization,
      String contentType, byte[] body) {
    if (mounted.isPresent() && path != null && path.startsWith(mounted.get().prefix())) {
      return mounted.get().handle(method, path, contentType, body);
    }
    if (OperatorRoutes.matches(path)) {
      return operator.handle(method, path, authorization);
    }
    TaskRoutes routes = tasks.routes();
    String hpkeBase = TaskRoutes.hpkeConfigBase(path);
    if (hpkeConfig.isPresent() && hpkeBase != null
        && (hpkeBase.equals("/") || routes.isBasePath(hpkeBase))) {
      return hpkeConfig.get().handle(method);
    }
    TaskRoutes.Target target = TaskRoutes.parse(path);
    if (target == null || !routes.isBasePath(target.basePath()) || (aggregationJobs.isEmpty()
        && target.collection().equals(TaskRoutes.AGGREGATION_JOBS))) {
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
    if (task.role() == Role.LEADER) {
      return leaderResource(method, task, target, query, authorization, contentType, body);
    }
    if (target.collection().equals(TaskRoutes.REPORTS)
        || target.collection().equals(TaskRoutes.COLLECTION_JOBS)) {
      throw DapProblem.http(404, "Not Found", "no such resource on the Helper", taskId);
    }
    RequestChecks.bearer(task.authToken(), authorization, taskId);
    TaskResource resource = target.collection().equals(TaskRoutes.AGGREGATION_JOBS)
        ? aggregationJobs.orElseThrow() : aggregateShares;
    return dispatch(resource, method, task, target, query, contentType, body);
  }

  /**
   * Hands the request to its resource: a POST on the creation URL creates (any other method
   * there is 405, DAP-18 "Resource Creation"), a request on a resource URL goes to the resource.
   */
  private static HttpReply dispatch(TaskResource resource, String method, TaskDefinition task,
      TaskRoutes.Target target, String query, String contentType, byte[] body) {
    if (target.resourceId() != null) {
      return resource.handle(method, task, target.resourceId(), query, contentType, body);
    }
    if (!"POST".equals(method)) {
      return DapProblem.methodNotAllowed("POST", task.taskId());
    }
    return resource.create(task, contentType, body);
  }

  /**
   * Routes a request for a Leader task: {@code reports} (DAP-18 "Upload Request", creation URL
   * only, unauthenticated) and {@code collection_jobs} (DAP-18 "Collecting Results", the
   * Collector's token); the Helper's resources do not exist on a Leader task.
   */
  private HttpReply leaderResource(String method, TaskDefinition task, TaskRoutes.Target target,
      String query, String authorization, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    if (target.collection().equals(TaskRoutes.REPORTS) && reports.isPresent()) {
      // the resource URL is the collector_selected upload (draft-ietf-ppm-dap-attribution-00 4.1)
      return dispatch(reports.get(), method, task, target, query, contentType, body);
    }
    if (target.collection().equals(TaskRoutes.COLLECTION_JOBS) && collectionJobs.isPresent()) {
      if (task.collectorAuthToken().isEmpty()) {
        throw DapProblem.http(401, "Unauthorized", "the task has no collector token", taskId);
      }
      RequestChecks.bearer(task.collectorAuthToken().get(), authorization, taskId);
      return dispatch(collectionJobs.get(), method, task, target, query, contentType, body);
    }
    throw DapProblem.http(404, "Not Found", "no such resource on the Leader", taskId);
  }

  /**
   * Builds a {@link DapRouter}: the aggregate shares are required, every other resource is
   * optional (its paths are then 404). {@code hpke_config} advertises the keys given with {@link
   * #hpkeKeys}, else the aggregation jobs' keys, else the reports' keys, else it is 404.
   */
  public static final class Builder {
    private final TaskRegistry tasks;
    private final Datastore store;
    private Optional<MountedRoutes> mounted = Optional.empty();
    private int maxBody = DEFAULT_MAX_BODY;
    private ServiceMetrics metrics;
    private Clock clock = Clock.systemUTC();
    private NoisedShareService noisedShares;
    private Optional<AggregateSharesRoute.AsyncShares> asyncShares = Optional.empty();
    private Optional<AggregationJobsRoute> aggregationJobs = Optional.empty();
    private Optional<ReportsRoute> reports = Optional.empty();
    private Optional<CollectionJobsRoute> collectionJobs = Optional.empty();
    private Optional<HelperHpkeKeys> hpkeKeys = Optional.empty();
    private Optional<AuthToken> adminToken = Optional.empty();

    private Builder(TaskRegistry tasks, Datastore store) {
      this.tasks = tasks;
      this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Serves {@code GET /admin/status} (the pipeline status as JSON) to requests with this bearer
     * token; without one the endpoint answers 404.
     */
    public Builder adminToken(AuthToken token) {
      this.adminToken = Optional.of(Objects.requireNonNull(token, "token"));
      return this;
    }

    /** Serves these routes under their prefix, before every other route. */
    public Builder mount(MountedRoutes routes) {
      String prefix = Objects.requireNonNull(routes, "routes").prefix();
      if (prefix == null || !prefix.startsWith("/") || !prefix.endsWith("/")
          || prefix.length() < 2) {
        throw new IllegalArgumentException("a mounted prefix starts and ends with /, got "
            + prefix);
      }
      this.mounted = Optional.of(routes);
      return this;
    }

    /** Sets the limit on request bodies other than uploads and jobs (default 64 KiB). */
    public Builder maxBody(int maxBody) {
      if (maxBody < 1) {
        throw new IllegalArgumentException("maxBody must be positive");
      }
      this.maxBody = maxBody;
      return this;
    }

    /** Sets the metrics to record into (default: a new registry). */
    public Builder metrics(ServiceMetrics metrics) {
      this.metrics = Objects.requireNonNull(metrics, "metrics");
      return this;
    }

    /** Sets the clock that dates asynchronous aggregate-share requests (default: UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Serves the aggregate shares synchronously from the once-only release (required). */
    public Builder aggregateShares(NoisedShareService service) {
      this.noisedShares = Objects.requireNonNull(service, "service");
      this.asyncShares = Optional.empty();
      return this;
    }

    /** Serves the aggregate shares asynchronously (DAP-18 "Asynchronous Request Handling"). */
    public Builder aggregateShares(NoisedShareService service,
        AggregateSharesRoute.AsyncShares async) {
      this.noisedShares = Objects.requireNonNull(service, "service");
      this.asyncShares = Optional.of(async);
      return this;
    }

    /** Serves the Helper's aggregation jobs. */
    public Builder aggregationJobs(AggregationJobsRoute route) {
      this.aggregationJobs = Optional.of(route);
      return this;
    }

    /** Serves the Leader's reports. */
    public Builder reports(ReportsRoute route) {
      this.reports = Optional.of(route);
      return this;
    }

    /** Serves the Leader's collection jobs. */
    public Builder collectionJobs(CollectionJobsRoute route) {
      this.collectionJobs = Optional.of(route);
      return this;
    }

    /** Sets the keys {@code hpke_config} advertises. */
    public Builder hpkeKeys(HelperHpkeKeys keys) {
      this.hpkeKeys = Optional.of(keys);
      return this;
    }

    /** Returns the router; throws NullPointerException without the aggregate shares. */
    public DapRouter build() {
      if (metrics == null) {
        metrics = new ServiceMetrics();
      }
      return new DapRouter(this);
    }
  }
}
