package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.slf4j.LoggerFactory;

class AggregatorServerTest {
  private static final String TYPE = DapMediaType.AGGREGATE_SHARE_REQ.contentType();

  @TempDir
  Path dir;

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  /** Starts an aggregator of the fixture's Helper task on a free port. */
  private static Aggregator helper(Fixture f, Datastore store) {
    return Aggregator.start(AggregatorConfig.builder(List.of(f.task), store).build());
  }

  private static HttpRequest post(int port, Fixture f, String auth, byte[] body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
        + "/tasks/" + f.taskId.toBase64Url() + "/aggregate_shares"))
        .timeout(Duration.ofSeconds(20)).header("Content-Type", TYPE)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (auth != null) {
      b.header("Authorization", auth);
    }
    return b.build();
  }

  @Test
  void fiftyConcurrentPostsDrawOnceAndRestartReturnsTheSameShare() throws Exception {
    Fixture f = Fixture.laplace(20);
    Path db = dir.resolve("helper.db");
    AggregateShareReq req = f.request(0, 3);
    byte[] first;
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      f.writeBuckets(store, 3);
      Aggregator server = helper(f, store);
      int port = server.port();
      try {
        List<CompletableFuture<HttpResponse<byte[]>>> out = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          out.add(client.sendAsync(post(port, f, "Bearer " + Fixture.TOKEN, req.encode()),
              HttpResponse.BodyHandlers.ofByteArray()));
        }
        first = out.get(0).get().body();
        String location = out.get(0).get().headers().firstValue("Location").orElseThrow();
        for (CompletableFuture<HttpResponse<byte[]>> r : out) {
          assertEquals(200, r.get().statusCode());
          assertArrayEquals(first, r.get().body());
          assertEquals(location, r.get().headers().firstValue("Location").orElseThrow());
        }
        assertEquals(1, server.noisedShares().noiseDraws());
        assertFalse(Arrays.equals(f.unnoised(0, 3), f.open(first, req)));
        HttpResponse<String> health = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/healthz")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
      } finally {
        server.close();
      }
    }
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      Aggregator server = helper(f, store);
      int port = server.port();
      try {
        HttpResponse<byte[]> r = client.send(post(port, f, "Bearer " + Fixture.TOKEN,
            req.encode()), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertArrayEquals(first, r.body(), "same share after a restart");
        assertEquals(0, server.noisedShares().noiseDraws());
      } finally {
        server.close();
      }
    }
  }

  @Test
  void authenticationIsRequiredAndTokensNeverReachTheLog() throws Exception {
    Fixture f = Fixture.laplace(21);
    Logger requestLog = (Logger) LoggerFactory.getLogger("org.priodp.aggregator.request");
    ListAppender<ILoggingEvent> captured = new ListAppender<>();
    captured.start();
    requestLog.addAppender(captured);
    Level old = requestLog.getLevel();
    requestLog.setLevel(Level.INFO);
    requestLog.setAdditive(false);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("a.db"))) {
      f.writeBuckets(store, 2);
      Aggregator server = helper(f, store);
      int port = server.port();
      try {
        byte[] body = f.request(0, 2).encode();
        HttpResponse<String> none = client.send(post(port, f, null, body),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(401, none.statusCode());
        assertEquals("application/problem+json", none.headers().firstValue("Content-Type")
            .orElseThrow());
        HttpResponse<String> wrong = client.send(post(port, f, "Bearer not-the-token", body),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(401, wrong.statusCode());
        assertFalse(wrong.body().contains("not-the-token"));
        HttpResponse<byte[]> ok = client.send(post(port, f, "Bearer " + Fixture.TOKEN, body),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, ok.statusCode());
        HttpResponse<String> big = client.send(post(port, f, "Bearer " + Fixture.TOKEN,
            new byte[200_000]), HttpResponse.BodyHandlers.ofString());
        assertEquals(413, big.statusCode());
      } finally {
        server.close();
      }
    } finally {
      requestLog.detachAppender(captured);
      requestLog.setLevel(old);
      requestLog.setAdditive(true);
    }
    assertEquals(4, captured.list.size(), "one line per request");
    for (ILoggingEvent e : captured.list) {
      String line = e.getFormattedMessage();
      assertFalse(line.contains(Fixture.TOKEN) || line.contains("not-the-token"), line);
      assertEquals(Level.INFO, e.getLevel());
    }
  }

  /** 10,000 mutated bodies over real HTTP with 32 requests in flight: all 4xx problem+json. */
  @Test
  void mutatedBodiesOverHttpAlwaysGetAClientError() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AggregatorServerTest.mutatedBodiesOverHttpAlwaysGetAClientError seed="
        + seed);
    Random rnd = new Random(seed);
    Fixture f = Fixture.laplace(22);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("z.db"))) {
      f.writeBuckets(store, 2);
      Aggregator server = helper(f, store);
      int port = server.port();
      try {
        byte[] base = f.request(0, 2).encode();
        assertEquals(200, client.send(post(port, f, "Bearer " + Fixture.TOKEN, base),
            HttpResponse.BodyHandlers.discarding()).statusCode());
        int cases = Integer.getInteger("priodp.fuzz.httpCases", 100_000);
        Semaphore inFlight = new Semaphore(32);
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
          byte[] body = Mutator.mutate(base, rnd);
          if (Arrays.equals(body, base)) {
            continue;
          }
          inFlight.acquire();
          int n = i;
          all.add(client.sendAsync(post(port, f, "Bearer " + Fixture.TOKEN, body),
              HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                inFlight.release();
                if (e != null || r.statusCode() < 400 || r.statusCode() >= 500
                    || !r.headers().firstValue("Content-Type").orElse("")
                        .equals("application/problem+json")) {
                  failures.add("case " + n + ": " + (e != null ? e : r.statusCode()));
                }
              }));
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get();
        assertTrue(failures.isEmpty(), "seed " + seed + ": " + failures.subList(0,
            Math.min(5, failures.size())));
        assertEquals(1, server.noisedShares().noiseDraws());
      } finally {
        server.close();
      }
    }
  }

  /** Sends raw bytes and returns what the server answers before closing or going quiet. */
  private static String exchange(int port, byte[] request) throws Exception {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      socket.setSoTimeout(5000);
      socket.getOutputStream().write(request);
      socket.getOutputStream().flush();
      java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
      byte[] buf = new byte[4096];
      try {
        int n;
        while ((n = socket.getInputStream().read(buf)) >= 0) {
          got.write(buf, 0, n);
          if (got.toString(StandardCharsets.ISO_8859_1).contains("{\"status\":\"ok\"}")) {
            break;
          }
        }
      } catch (java.net.SocketTimeoutException | java.net.SocketException e) {
        // quiet or reset: what arrived so far is the answer
      }
      return got.toString(StandardCharsets.ISO_8859_1);
    }
  }

  /**
   * HTTP/2 over cleartext is off: an h2c upgrade request is answered over HTTP/1.1 (no 101), and
   * the HTTP/2 prior-knowledge preface gets no HTTP/2 SETTINGS frame.
   */
  @Test
  void h2cIsRefusedAndUpgradeRequestsAreServedAsHttp11() throws Exception {
    Fixture f = Fixture.laplace(23);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("h.db"))) {
      Aggregator server = helper(f, store);
      int port = server.port();
      try {
        String upgrade = exchange(port, ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
            + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        assertTrue(upgrade.startsWith("HTTP/1.1 200 "), upgrade);
        assertFalse(upgrade.contains(" 101 "), upgrade);
        String preface = exchange(port, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
        // an HTTP/2 server answers the preface with a SETTINGS frame: type 0x04 at byte 3
        assertFalse(preface.length() >= 9 && preface.charAt(3) == 4 && !preface.startsWith("HTTP/"),
            "the server spoke HTTP/2: " + preface);
        // refused in HTTP/1 framing (Vert.x answers "501 Not Implemented") or closed
        assertTrue(preface.isEmpty() || preface.matches("(?s)HTTP/\\S+ [45]\\d\\d .*"), preface);
      } finally {
        server.close();
      }
    }
  }

  /** HTTPS with a certificate made in the test; the client trusts exactly that certificate. */
  @Test
  void servesHttpsWithPemFiles() throws Exception {
    Fixture f = Fixture.laplace(24);
    TestCertificates.Issued cert = TestCertificates.issue(dir, "server", "RSA");
    TlsCredentials tls = TlsCredentials.load(cert.certFile(), cert.keyFile());
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("t.db"))) {
      f.writeBuckets(store, 2);
      Aggregator server = Aggregator.start(AggregatorConfig.builder(List.of(f.task), store)
          .port(port0()).tls(tls).build());
      int port = server.port();
      try {
        HttpClient https = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .sslContext(cert.trustingContext()).connectTimeout(Duration.ofSeconds(5)).build();
        AggregateShareReq req = f.request(0, 2);
        HttpResponse<byte[]> r = https.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
            + port + "/tasks/" + f.taskId.toBase64Url() + "/aggregate_shares"))
            .timeout(Duration.ofSeconds(20)).header("Content-Type", TYPE)
            .header("Authorization", "Bearer " + Fixture.TOKEN)
            .POST(HttpRequest.BodyPublishers.ofByteArray(req.encode())).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertTrue(r.sslSession().isPresent());
        assertEquals(cert.certificate(), r.sslSession().get().getPeerCertificates()[0]);
        f.open(r.body(), req);
        // a client that does not trust the certificate gets no answer
        HttpClient untrusting = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .build();
        assertThrows(javax.net.ssl.SSLHandshakeException.class, () -> untrusting.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/healthz")).build(),
            HttpResponse.BodyHandlers.discarding()));
        // plain HTTP on the TLS port is not served
        assertFalse(exchange(port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII)).contains("{\"status\":\"ok\"}"));
      } finally {
        server.close();
      }
    }
  }

  private static int port0() {
    return 0;
  }

  private static double value(String scrape, String series) {
    for (String line : scrape.split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    return 0;
  }

  /** GET /metrics: counters by route template and status move with the requests. */
  @Test
  void metricsCountRequestsByRouteTemplateAndStatus() throws Exception {
    Fixture f = Fixture.laplace(25);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("m.db"))) {
      f.writeBuckets(store, 4);
      Aggregator server = helper(f, store);
      int port = server.port();
      try {
        HttpRequest metrics = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + "/metrics")).build();
        String before = client.send(metrics, HttpResponse.BodyHandlers.ofString()).body();
        String posts = "priodp_http_requests_seconds_count{method=\"POST\","
            + "route=\"/tasks/{task-id}/aggregate_shares\",status=\"200\"}";
        assertEquals(0.0, value(before, posts));
        for (int i = 0; i < 3; i++) {
          assertEquals(200, client.send(post(port, f, "Bearer " + Fixture.TOKEN,
              f.request(0, 2).encode()), HttpResponse.BodyHandlers.discarding()).statusCode());
        }
        assertEquals(400, client.send(post(port, f, "Bearer " + Fixture.TOKEN,
            f.request(1, 3).encode()), HttpResponse.BodyHandlers.discarding()).statusCode());
        assertEquals(401, client.send(post(port, f, null, f.request(2, 4).encode()),
            HttpResponse.BodyHandlers.discarding()).statusCode());
        assertEquals(413, client.send(post(port, f, "Bearer " + Fixture.TOKEN,
            new byte[100_000]), HttpResponse.BodyHandlers.discarding()).statusCode());
        client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + "/no/such/" + f.taskId.toBase64Url())).build(), HttpResponse.BodyHandlers.discarding());
        HttpResponse<String> after = client.send(metrics, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, after.statusCode());
        assertTrue(after.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        String m = after.body();
        assertEquals(3.0, value(m, posts), m);
        assertEquals(1.0, value(m, posts.replace("\"200\"", "\"400\"")));
        assertEquals(1.0, value(m, posts.replace("\"200\"", "\"401\"")));
        assertEquals(1.0, value(m, posts.replace("\"200\"", "\"413\"")));
        assertEquals(1.0, value(m, "priodp_http_requests_seconds_count{method=\"GET\","
            + "route=\"unmatched\",status=\"404\"}"));
        assertEquals(1.0, value(m, "priodp_http_requests_seconds_count{method=\"GET\","
            + "route=\"/metrics\",status=\"200\"}"));
        assertEquals(1.0, value(m, "priodp_shares_released_total{role=\"helper\",task=\""
            + f.taskId.toBase64Url() + "\"}"), "the two repeats are not releases");
        assertEquals(1.0, value(m, "priodp_batch_overlap_refusals_total"));
        assertEquals(0.0, value(m, "priodp_store_errors_total"));
        assertTrue(m.contains("priodp_http_requests_seconds_bucket{method=\"POST\",route=\""
            + "/tasks/{task-id}/aggregate_shares\",status=\"200\",le=\"+Inf\"} 3"), m);
        assertFalse(m.contains("route=\"/tasks/" + f.taskId.toBase64Url()),
            "raw paths never become labels");
      } finally {
        server.close();
      }
    }
  }

  /** Even an Error that escapes the handler becomes a 500 problem and a logged root cause. */
  @Test
  void anErrorEscapingTheHandlerIsA500WithItsRootCauseLogged() throws Exception {
    Fixture f = Fixture.laplace(26);
    Logger requestLog = (Logger) LoggerFactory.getLogger("org.priodp.aggregator.request");
    ListAppender<ILoggingEvent> captured = new ListAppender<>();
    captured.start();
    requestLog.addAppender(captured);
    try (JdbcDatastore real = JdbcDatastore.openSqlite(dir.resolve("e.db"))) {
      org.priodp.aggregator.datastore.Datastore broken =
          (org.priodp.aggregator.datastore.Datastore) java.lang.reflect.Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {org.priodp.aggregator.datastore.Datastore.class},
              (proxy, method, args) -> {
                if (method.getName().equals("close")) {
                  return null;
                }
                throw new AssertionError("invariant broken",
                    new IllegalStateException("the root of it"));
              });
      Aggregator server = Aggregator.start(
          AggregatorConfig.builder(List.of(f.task), broken).build());
      int port = server.port();
      try {
        HttpResponse<String> r = client.send(post(port, f, "Bearer " + Fixture.TOKEN,
            f.request(0, 2).encode()), HttpResponse.BodyHandlers.ofString());
        assertEquals(500, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type")
            .orElseThrow());
        assertFalse(r.body().contains("root of it"));
      } finally {
        server.close();
      }
    } finally {
      requestLog.detachAppender(captured);
    }
    assertTrue(captured.list.stream().anyMatch(e -> e.getLevel() == Level.ERROR
        && e.getFormattedMessage().contains("java.lang.AssertionError: invariant broken")
        && e.getFormattedMessage().contains("java.lang.IllegalStateException: the root of it")),
        captured.list.toString());
  }

  @Test
  void asyncAggregationAlsoAnswersAggregateSharesAsynchronouslyAndDrawsOnce() throws Exception {
    Fixture f = Fixture.laplace(21);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(
        dir.resolve("async.db"))) {
      f.writeBuckets(store, 3);
      Aggregator server = Aggregator.start(AggregatorConfig.builder(List.of(f.task), store)
          .asyncAggregation(true).build());
      int port = server.port();
      try {
        AggregateShareReq req = f.request(0, 3);
        HttpResponse<byte[]> r = client.send(post(port, f, "Bearer " + Fixture.TOKEN,
            req.encode()), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        String location = r.headers().firstValue("Location").orElseThrow();
        int polls = 0;
        while (r.body().length == 0) {
          assertEquals("1", r.headers().firstValue("Retry-After").orElseThrow());
          assertTrue(polls++ < 300, "the share never became ready");
          Thread.sleep(50);
          r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
              + location)).header("Authorization", "Bearer " + Fixture.TOKEN)
              .timeout(Duration.ofSeconds(20)).GET().build(),
              HttpResponse.BodyHandlers.ofByteArray());
          assertEquals(200, r.statusCode());
        }
        assertEquals(DapMediaType.AGGREGATE_SHARE.contentType(),
            r.headers().firstValue("Content-Type").orElseThrow());
        f.open(r.body(), req);
        HttpResponse<byte[]> again = client.send(post(port, f, "Bearer " + Fixture.TOKEN,
            req.encode()), HttpResponse.BodyHandlers.ofByteArray());
        assertArrayEquals(r.body(), again.body());
        assertEquals(1, server.noisedShares().noiseDraws());
      } finally {
        server.close();
      }
    }
  }
}
