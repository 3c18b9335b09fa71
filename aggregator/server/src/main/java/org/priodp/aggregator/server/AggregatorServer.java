package org.priodp.aggregator.server;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.priodp.aggregator.server.internal.Causes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a {@link DapRouter} over HTTP on Vert.x (DAP-18 "HTTP Usage"): an HTTP/1.1 server
 * (HTTPS when given {@link TlsCredentials}) that reads each body up to the router's size limit
 * for the path (413 beyond it), runs the blocking router on a worker thread, records each
 * request in the router's {@link ServiceMetrics}, and logs one line per request at INFO (method,
 * path, status, body sizes, milliseconds; never a token, a share or a noise value; DEBUG for
 * /healthz, /readyz and /metrics). {@link #stop()} stops accepting connections, lets requests in
 * flight finish (up to 10 s) and releases the threads. It builds no service: {@link Aggregator}
 * assembles the router and owns the services, drivers and pools behind it.
 *
 * <p>HTTP/2 is off: no h2c (an {@code Upgrade: h2c} request is answered over HTTP/1.1 and the
 * prior-knowledge preface is refused) and no ALPN with TLS, so the 413 path, which closes the
 * connection with {@code Connection: close}, behaves the same for every client.
 */
public final class AggregatorServer {
  private static final Logger LOG = LoggerFactory.getLogger("org.priodp.aggregator.request");
  private static final long SHUTDOWN_SECONDS = 10;
  private static final int WORKER_THREADS = 32;

  private final DapRouter router;
  private Vertx vertx;
  private HttpServer server;

  /** Creates a server of the router; nothing listens before {@link #start}. */
  public AggregatorServer(DapRouter router) {
    this.router = Objects.requireNonNull(router, "router");
  }

  /** Returns the router it serves. */
  public DapRouter router() {
    return router;
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
    Vertx v = Vertx.vertx(new VertxOptions().setWorkerPoolSize(WORKER_THREADS));
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
    return s.actualPort();
  }

  /** Returns the bound port; throws IllegalStateException if not started. */
  public synchronized int port() {
    if (server == null) {
      throw new IllegalStateException("not started");
    }
    return server.actualPort();
  }

  /** Stops gracefully: no new connections, requests in flight finish (10 s at most). */
  public synchronized void stop() {
    if (vertx == null) {
      return;
    }
    try {
      server.shutdown(SHUTDOWN_SECONDS, TimeUnit.SECONDS).await();
    } catch (RuntimeException e) {
      LOG.warn("HTTP server shutdown: {}", e.toString());
    } finally {
      vertx.close().await();
      vertx = null;
      server = null;
    }
  }

  /** The IMF-fixdate of RFC 9110 "Date/Time Formats". */
  private static final java.time.format.DateTimeFormatter HTTP_DATE =
      java.time.format.DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'",
          java.util.Locale.US);

  private void onRequest(HttpServerRequest req) {
    long started = System.nanoTime();
    // RFC 9110 "Date": a server with a clock sends it; a Leader compares it with its own clock
    req.response().putHeader("Date", HTTP_DATE.format(java.time.ZonedDateTime.now(
        java.time.ZoneOffset.UTC)));
    String path = req.path();
    String query = req.query();
    String method = req.method().name();
    int limit = router.maxBodyFor(path);
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
      vertx.executeBlocking(() -> router.handle(method, path, query, auth, type, bytes), false)
          .onComplete(ar -> {
            if (ar.failed()) {
              // an Error that escaped the router (which turns exceptions into replies itself)
              LOG.error("500 on {} {}: {}", method, router.routeOf(path),
                  Causes.forLog(ar.cause()));
              LOG.debug("500 on {} {}", method, router.routeOf(path), ar.cause());
            }
            HttpReply reply = ar.succeeded() ? ar.result() : DapRouter.internalError();
            send(req, reply, started, bytes.length);
          });
    });
  }

  private void reject(HttpServerRequest req, long started, DapProblem p) {
    HttpReply reply = p.toReply();
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
    String route = router.routeOf(req.path());
    router.metrics().request(route, req.method().name(), reply.status(), nanos);
    if (OperatorRoutes.PATHS.contains(route)) {
      // probes and scrapes: not one INFO line every few seconds
      LOG.debug("{} {} {} out={}B {}ms", req.method().name(), req.path(), reply.status(),
          reply.body().length, nanos / 1_000_000);
    } else {
      LOG.info("{} {} {} in={}B out={}B {}ms", req.method().name(), req.path(), reply.status(),
          bodyIn, reply.body().length, nanos / 1_000_000);
    }
  }
}
