package org.priodp.aggregator.interop;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.priodp.aggregator.server.HttpReply;
import org.priodp.aggregator.server.MountedRoutes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plain-HTTP server of the Client's and the Collector's interoperation test API
 * (draft-dcook-ppm-dap-interop-test-design, "Container Interface": an HTTP server, port 8080 by
 * convention, TLS out of scope), on the JDK's {@code com.sun.net.httpserver}: every request under
 * the routes' prefix goes to them, any other path is 404, bodies are limited to 1 MiB (413
 * beyond). One line per request is logged at INFO. {@link #close} stops it.
 */
public final class InteropHttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InteropHttpServer.class);
  private static final int MAX_BODY = 1 << 20;
  private static final int THREADS = 8;

  private final HttpServer server;
  private final ExecutorService pool;

  private InteropHttpServer(HttpServer server, ExecutorService pool) {
    this.server = server;
    this.pool = pool;
  }

  /**
   * Listens on {@code bind}:{@code port} (0: any free port) and serves {@code routes}; throws
   * IOException naming the address when it cannot listen.
   */
  public static InteropHttpServer start(String bind, int port, MountedRoutes routes)
      throws IOException {
    Objects.requireNonNull(routes, "routes");
    HttpServer s;
    try {
      s = HttpServer.create(new InetSocketAddress(bind, port), 64);
    } catch (IOException e) {
      throw new IOException("cannot listen on " + bind + ":" + port + ": " + e.getMessage(), e);
    }
    ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
      Thread t = new Thread(r, "priodp-interop-http");
      t.setDaemon(true);
      return t;
    });
    s.setExecutor(pool);
    s.createContext("/", exchange -> serve(exchange, routes));
    s.start();
    return new InteropHttpServer(s, pool);
  }

  /** Returns the bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  private static void serve(HttpExchange exchange, MountedRoutes routes) throws IOException {
    long started = System.nanoTime();
    String path = exchange.getRequestURI().getRawPath();
    String method = exchange.getRequestMethod();
    HttpReply reply;
    byte[] body = read(exchange.getRequestBody());
    if (body == null) {
      reply = json(413, "{\"status\":\"error\",\"error\":\"body: more than " + MAX_BODY
          + " bytes\"}");
    } else if (path == null || !path.startsWith(routes.prefix())) {
      reply = json(404, "{\"status\":\"error\",\"error\":\"not found\"}");
    } else {
      reply = routes.handle(method, path,
          exchange.getRequestHeaders().getFirst("Content-Type"), body);
    }
    for (Map.Entry<String, String> h : reply.headers().entrySet()) {
      exchange.getResponseHeaders().set(h.getKey(), h.getValue());
    }
    exchange.sendResponseHeaders(reply.status(), reply.body().length == 0 ? -1
        : reply.body().length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(reply.body());
    }
    LOG.info("{} {} {} in={}B out={}B {}ms", method, path, reply.status(),
        body == null ? -1 : body.length, reply.body().length,
        (System.nanoTime() - started) / 1_000_000);
  }

  /** Reads the body, or returns null past {@link #MAX_BODY} bytes. */
  private static byte[] read(InputStream in) throws IOException {
    try (in) {
      byte[] b = in.readNBytes(MAX_BODY + 1);
      return b.length > MAX_BODY ? null : b;
    }
  }

  private static HttpReply json(int status, String body) {
    return new HttpReply(status, Map.of("Content-Type", "application/json"),
        body.getBytes(StandardCharsets.UTF_8));
  }

  /** Stops listening, lets exchanges in flight finish (1 s at most) and ends the threads. */
  @Override
  public void close() {
    server.stop(1);
    pool.shutdownNow();
  }
}
