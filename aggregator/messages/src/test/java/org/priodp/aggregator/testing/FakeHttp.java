package org.priodp.aggregator.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A tiny HTTP server for tests that play a DAP-18 peer (the JDK's com.sun.net.httpserver on
 * loopback): every request is recorded and answered by a function the test writes.
 */
public final class FakeHttp implements AutoCloseable {
  /** One request as the server received it. */
  public record Request(String method, String path, Map<String, List<String>> headers,
      byte[] body) {
    /** Returns the first value of a header, or null. */
    public String header(String name) {
      for (var e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) {
          return e.getValue().isEmpty() ? null : e.getValue().get(0);
        }
      }
      return null;
    }
  }

  /** The answer: status, headers and body. */
  public record Response(int status, Map<String, String> headers, byte[] body) {
    /** Returns a response with no header. */
    public static Response of(int status, byte[] body) {
      return new Response(status, Map.of(), body);
    }
  }

  private final HttpServer server;
  /** Every request received, in order. */
  public final List<Request> requests = new CopyOnWriteArrayList<>();

  /** Starts a server on an ephemeral loopback port. */
  public FakeHttp(Function<Request, Response> handler) throws IOException {
    this(null, handler);
  }

  /**
   * Starts an HTTPS server (RFC 9110 "https") on an ephemeral loopback port that presents the
   * key and certificate of {@code tls}; a null {@code tls} serves plain HTTP.
   */
  public FakeHttp(javax.net.ssl.SSLContext tls, Function<Request, Response> handler)
      throws IOException {
    InetSocketAddress at = new InetSocketAddress("127.0.0.1", 0);
    if (tls == null) {
      server = HttpServer.create(at, 0);
    } else {
      var https = com.sun.net.httpserver.HttpsServer.create(at, 0);
      https.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(tls));
      server = https;
    }
    server.createContext("/", ex -> {
      try (ex) {
        Request req = new Request(ex.getRequestMethod(), ex.getRequestURI().toString(),
            Map.copyOf(ex.getRequestHeaders()), ex.getRequestBody().readAllBytes());
        requests.add(req);
        Response r;
        try {
          r = handler.apply(req);
        } catch (RuntimeException | AssertionError e) {
          r = Response.of(599, String.valueOf(e).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        r.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
        ex.sendResponseHeaders(r.status(), r.body().length == 0 ? -1 : r.body().length);
        if (r.body().length > 0) {
          ex.getResponseBody().write(r.body());
        }
      }
    });
    server.start();
  }

  /** Returns {@code http://127.0.0.1:PORT}, or {@code https://...} for an HTTPS server. */
  public String url() {
    return (server instanceof com.sun.net.httpserver.HttpsServer ? "https" : "http")
        + "://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
