package org.priodp.aggregator.server;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.server.internal.Causes;
import org.priodp.noise.RandomSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Helper's DAP-18 aggregate-share endpoint on Vert.x ("Obtaining Aggregate Shares",
 * "Aggregate Share Deletion"): an HTTP/1.1 server (HTTPS when given {@link TlsCredentials}) that
 * reads each body up to the size limit (413 beyond it), runs the blocking {@link
 * AggregateShareHandler} on a worker thread, records each request in the handler's {@link
 * ServiceMetrics}, and logs one line per request at INFO (method, path, status, body sizes,
 * milliseconds; never a token, a share or a noise value; DEBUG for /healthz, /readyz and
 * /metrics). Binds to 127.0.0.1 unless told otherwise. {@link #stop()} stops accepting
 * connections, lets requests in flight finish (up to 10 s) and releases the threads; the caller
 * owns and closes the store.
 *
 * <p>HTTP/2 is off: no h2c (an {@code Upgrade: h2c} request is answered over HTTP/1.1 and the
 * prior-knowledge preface is refused) and no ALPN with TLS, so the 413 path, which closes the
 * connection with {@code Connection: close}, behaves the same for every client.
 *
 * <p>In-process use (e.g. by tests): {@code int port = new HelperServer(tasks, store,
 * RandomSource.secure()).start(0);} then {@code stop()}.
 */
public final class HelperServer {
  private static final Logger LOG = LoggerFactory.getLogger("org.priodp.aggregator.request");
  private static final long SHUTDOWN_SECONDS = 10;
  private static final java.util.Set<String> OPERATOR_ROUTES =
      java.util.Set.of("/healthz", "/readyz", "/metrics");

  private final AggregateShareHandler handler;
  private Vertx vertx;
  private HttpServer server;

  /** Creates a server for the tasks over the store, drawing noise from {@code rnd}. */
  public HelperServer(List<TaskDefinition> tasks, Datastore store, RandomSource rnd) {
    this(tasks, store, rnd, false);
  }

  /**
   * Creates a server for the tasks over the store, drawing noise from {@code rnd}, that also
   * serves {@code hpke_config} (an HPKE key is generated in the store when none is active: by
   * {@code serve} at startup, else on first use) and the
   * aggregation jobs (DAP-18 "Helper Initialization"), synchronously or, with {@code
   * asyncAggregation}, in the background (DAP-18 "Asynchronous Request Handling").
   */
  public HelperServer(List<TaskDefinition> tasks, Datastore store, RandomSource rnd,
      boolean asyncAggregation) {
    this(new AggregateShareHandler(tasks, store,
        new NoisedShareService(store, rnd, Clock.systemUTC()),
        AggregateShareHandler.DEFAULT_MAX_BODY, new ServiceMetrics(),
        aggregationJobs(store, asyncAggregation), null, null,
        asyncAggregation ? asyncShares() : null));
  }

  /** The background pool of asynchronous aggregate shares (the --async-aggregation switch). */
  private static AggregateShareHandler.AsyncShares asyncShares() {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
        1, r -> {
          Thread t = new Thread(r, "priodp-aggregate-share");
          t.setDaemon(true);
          return t;
        });
    return new AggregateShareHandler.AsyncShares(pool, 1);
  }

  /**
   * Creates a server like {@link #HelperServer(List, Datastore, RandomSource, boolean)}
   * that also serves the Leader tasks' resources (DAP-18 "HTTP Resources Reference", Leader):
   * {@code reports} (e.g. {@link UploadHandler}) and {@code collectionJobs} under each Leader
   * task's leader endpoint path; null leaves a resource out (404). {@code hpke_config} advertises
   * the store's keys for both roles.
   */
  public static HelperServer withLeaderResources(List<TaskDefinition> tasks,
      Datastore store, RandomSource rnd, boolean asyncAggregation, TaskResource reports,
      TaskResource collectionJobs) {
    return new HelperServer(new AggregateShareHandler(tasks, store,
        new NoisedShareService(store, rnd, Clock.systemUTC()),
        AggregateShareHandler.DEFAULT_MAX_BODY, new ServiceMetrics(),
        aggregationJobs(store, asyncAggregation), reports, collectionJobs,
        asyncAggregation ? asyncShares() : null));
  }

  /**
   * Creates a server for tasks of both roles: the Helper's resources as {@link
   * #HelperServer(List, Datastore, RandomSource, boolean)}, the Leader tasks' {@code
   * reports} through {@code reports} (null: none) and their collection jobs, asking the Helper
   * through {@code helperPeer} (null: no collection jobs), with the collection driver started and
   * stopped with the server.
   */
  public static HelperServer serving(List<TaskDefinition> tasks, Datastore store,
      RandomSource rnd, boolean asyncAggregation, TaskResource reports,
      org.priodp.aggregator.core.HelperPeer helperPeer) {
    return new HelperServer(withCollection(tasks, store, rnd, asyncAggregation, reports,
        helperPeer));
  }


  private static AggregationJobHandler aggregationJobs(Datastore store, boolean async) {
    org.priodp.aggregator.core.HelperHpkeKeys keys = new org.priodp.aggregator.core.HelperHpkeKeys(
        store, new java.security.SecureRandom(), Clock.systemUTC());
    org.priodp.aggregator.core.AggregationJobService service =
        new org.priodp.aggregator.core.AggregationJobService(store, keys, Clock.systemUTC(),
            org.priodp.aggregator.core.AggregationJobService.DEFAULT_CLOCK_SKEW);
    if (!async) {
      return AggregationJobHandler.synchronous(service);
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
        2, r -> {
          Thread t = new Thread(r, "priodp-aggregation-job");
          t.setDaemon(true);
          return t;
        });
    return AggregationJobHandler.asynchronous(service, pool, 1);
  }

  /** Creates a server around a handler. */
  public HelperServer(AggregateShareHandler handler) {
    this(handler, null);
  }

  // --- The Leader's collection jobs (issue 17, collection part) ---

  /**
   * Creates a server as {@link #HelperServer(List, Datastore, RandomSource, boolean)}
   * that also serves the Leader tasks' {@code collection_jobs} (DAP-18 "Collecting Results"),
   * asking their Helper through {@code helperPeer} (null: no collection jobs), and steps pending
   * collection jobs in the background from {@link #start} to {@link #stop}. The Leader draws its
   * noise through the same once-only {@link NoisedShareService} as the aggregate shares.
   */
  public HelperServer(List<TaskDefinition> tasks, Datastore store, RandomSource rnd,
      boolean asyncAggregation, org.priodp.aggregator.core.HelperPeer helperPeer) {
    this(withCollection(tasks, store, rnd, asyncAggregation, null, helperPeer));
  }

  private record Parts(AggregateShareHandler handler, CollectionJobDriver driver) {
  }

  private HelperServer(Parts parts) {
    this(parts.handler(), parts.driver());
  }

  private HelperServer(AggregateShareHandler handler, CollectionJobDriver collectionDriver) {
    this.handler = Objects.requireNonNull(handler, "handler");
    this.collectionDriver = collectionDriver;
  }

  private final CollectionJobDriver collectionDriver;

  private static Parts withCollection(List<TaskDefinition> tasks, Datastore store,
      RandomSource rnd, boolean asyncAggregation, TaskResource reports,
      org.priodp.aggregator.core.HelperPeer helperPeer) {
    NoisedShareService shares = new NoisedShareService(store, rnd, Clock.systemUTC());
    List<TaskDefinition> leaders = TaskRoutes.of(tasks).leaderTasks();
    CollectionJobDriver driver = null;
    CollectionJobHandler collection = null;
    if (helperPeer != null && !leaders.isEmpty()) {
      org.priodp.aggregator.core.CollectionJobService service =
          new org.priodp.aggregator.core.CollectionJobService(store, shares, helperPeer,
              Clock.systemUTC(), org.priodp.aggregator.core.CollectionJobService.DEFAULT_LEASE,
              org.priodp.aggregator.core.CollectionJobService.DEFAULT_RETRY_DELAY,
              leaseOwner());
      collection = new CollectionJobHandler(service, 1, AggregateShareHandler.DEFAULT_MAX_BODY);
      driver = new CollectionJobDriver(service, leaders, CollectionJobDriver.DEFAULT_WORKERS,
          CollectionJobDriver.DEFAULT_POLL);
    }
    return new Parts(new AggregateShareHandler(tasks, store, shares,
        AggregateShareHandler.DEFAULT_MAX_BODY, new ServiceMetrics(),
        aggregationJobs(store, asyncAggregation), reports, collection,
        asyncAggregation ? asyncShares() : null), driver);
  }

  /** Names this process in leases: host name and process id. */
  private static String leaseOwner() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      host = "unknown-host";
    }
    return host + ":" + ProcessHandle.current().pid();
  }

  /** Returns the background driver of the Leader's collection jobs, if this server has one. */
  public java.util.Optional<CollectionJobDriver> collectionJobs() {
    return java.util.Optional.ofNullable(collectionDriver);
  }

  /** Returns the request handler (and through it the core service). */
  public AggregateShareHandler handler() {
    return handler;
  }

  /** Starts on 127.0.0.1; port 0 picks a free port. Returns the bound port. */
  public int start(int port) {
    return start("127.0.0.1", port);
  }

  /** Starts plain HTTP on the given address and port (0 = any free port); returns the port. */
  public int start(String host, int port) {
    return start(host, port, null);
  }

  /**
   * Starts on the given address and port (0 = any free port), serving HTTPS with {@code tls} or
   * plain HTTP when it is null, and returns the bound port. Throws IllegalStateException naming
   * the address and the reason (e.g. "Address already in use") when it cannot listen.
   */
  public synchronized int start(String host, int port, TlsCredentials tls) {
    if (vertx != null) {
      throw new IllegalStateException("already started");
    }
    Vertx v = Vertx.vertx(new VertxOptions().setWorkerPoolSize(32));
    HttpServerOptions options = new HttpServerOptions()
        .setHost(host).setPort(port)
        .setMaxInitialLineLength(4096).setMaxHeaderSize(16 * 1024)
        .setIdleTimeout(60).setIdleTimeoutUnit(TimeUnit.SECONDS)
        .setCompressionSupported(false)
        .setHttp2ClearTextEnabled(false)
        .setUseAlpn(false);
    if (tls != null) {
      options.setSsl(true).setKeyCertOptions(tls.keyCertOptions());
    }
    HttpServer s = v.createHttpServer(options).requestHandler(this::onRequest);
    try {
      s.listen().await();
    } catch (Exception e) { // Vert.x rethrows the bind failure (a checked exception) as is
      v.close().await();
      throw new IllegalStateException("cannot listen on " + host + ":" + port + ": "
          + Causes.message(Causes.root(e)), e);
    }
    this.vertx = v;
    this.server = s;
    if (collectionDriver != null) {
      collectionDriver.start();
    }
    return s.actualPort();
  }

  /** Returns the bound port; throws IllegalStateException if not started. */
  public synchronized int port() {
    if (server == null) {
      throw new IllegalStateException("not started");
    }
    return server.actualPort();
  }

  /**
   * Stops gracefully: no new connections, requests in flight finish (10 s at most), then the
   * asynchronous aggregation pool, if any, finishes its running jobs (10 s at most).
   */
  public synchronized void stop() {
    if (vertx == null) {
      return;
    }
    if (collectionDriver != null) {
      collectionDriver.close();
    }
    try {
      server.shutdown(SHUTDOWN_SECONDS, TimeUnit.SECONDS).await();
    } catch (RuntimeException e) {
      LOG.warn("HTTP server shutdown: {}", e.toString());
    } finally {
      vertx.close().await();
      vertx = null;
      server = null;
      handler.aggregationJobs().ifPresent(AggregationJobHandler::close);
      handler.closeAsynchronousShares();
    }
  }

  private void onRequest(HttpServerRequest req) {
    long started = System.nanoTime();
    String path = req.path();
    String query = req.query();
    String method = req.method().name();
    int limit = handler.maxBodyFor(path);
    String length = req.getHeader("Content-Length");
    if (length != null) {
      long declared;
      try {
        declared = Long.parseLong(length.strip());
      } catch (NumberFormatException e) {
        declared = -1;
      }
      if (declared < 0 || declared > limit) {
        reject(req, started, declared < 0
            ? DapProblem.http(400, "Bad Request", "malformed Content-Length", null)
            : DapProblem.http(413, "Content Too Large", "the body exceeds " + limit + " bytes",
                null));
        return;
      }
    }
    Buffer body = Buffer.buffer();
    boolean[] tooLarge = {false};
    req.handler(chunk -> {
      if (tooLarge[0]) {
        return;
      }
      if (body.length() + chunk.length() > limit) {
        tooLarge[0] = true;
        reject(req, started, DapProblem.http(413, "Content Too Large", "the body exceeds "
            + limit + " bytes", null));
        return;
      }
      body.appendBuffer(chunk);
    });
    req.exceptionHandler(e -> LOG.debug("request stream error: {}", e.toString()));
    req.endHandler(end -> {
      if (tooLarge[0]) {
        return;
      }
      String auth = req.getHeader("Authorization");
      String type = req.getHeader("Content-Type");
      byte[] bytes = body.getBytes();
      vertx.executeBlocking(() -> handler.handle(method, path, query, auth, type, bytes), false)
          .onComplete(ar -> {
            if (ar.failed()) {
              // an Error that escaped the handler (which turns exceptions into replies itself)
              LOG.error("500 on {} {}: {}", method, handler.routeOf(path),
                  Causes.forLog(ar.cause()));
              LOG.debug("500 on {} {}", method, handler.routeOf(path), ar.cause());
            }
            HttpReply reply = ar.succeeded() ? ar.result()
                : AggregateShareHandler.problem(DapProblem.http(500, "Internal Server Error",
                    "the aggregator could not complete the request", null));
            send(req, reply, started, bytes.length);
          });
    });
  }

  private void reject(HttpServerRequest req, long started, DapProblem p) {
    HttpReply reply = AggregateShareHandler.problem(p);
    HttpServerResponse resp = req.response();
    resp.putHeader("Connection", "close");
    send(req, reply, started, 0);
  }

  private void send(HttpServerRequest req, HttpReply reply, long started, int bodyIn) {
    HttpServerResponse resp = req.response();
    if (resp.ended() || resp.closed()) {
      return;
    }
    resp.setStatusCode(reply.status());
    for (Map.Entry<String, String> h : reply.headers().entrySet()) {
      resp.putHeader(h.getKey(), h.getValue());
    }
    resp.end(Buffer.buffer(reply.body()));
    long nanos = System.nanoTime() - started;
    String route = handler.routeOf(req.path());
    handler.metrics().request(route, req.method().name(), reply.status(), nanos);
    if (OPERATOR_ROUTES.contains(route)) {
      // probes and scrapes: not one INFO line every few seconds
      LOG.debug("{} {} {} out={}B {}ms", req.method().name(), req.path(), reply.status(),
          reply.body().length, nanos / 1_000_000);
    } else {
      LOG.info("{} {} {} in={}B out={}B {}ms", req.method().name(), req.path(), reply.status(),
          bodyIn, reply.body().length, nanos / 1_000_000);
    }
  }
}
