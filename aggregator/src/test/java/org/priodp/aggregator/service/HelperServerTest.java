package org.priodp.aggregator.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import org.priodp.aggregator.store.JdbcAggregateShareStore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.noise.RandomSource;
import org.slf4j.LoggerFactory;

class HelperServerTest {
  private static final String TYPE = DapMediaType.AGGREGATE_SHARE_REQ.contentType();

  @TempDir
  Path dir;

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

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
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(db)) {
      f.writeBuckets(store, 3);
      HelperServer server = new HelperServer(List.of(f.task), store, RandomSource.secure());
      int port = server.start(0);
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
        assertEquals(1, server.handler().service().noiseDraws());
        assertFalse(Arrays.equals(f.unnoised(0, 3), f.open(first, req)));
        HttpResponse<String> health = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/healthz")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
      } finally {
        server.stop();
      }
    }
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(db)) {
      HelperServer server = new HelperServer(List.of(f.task), store, RandomSource.secure());
      int port = server.start(0);
      try {
        HttpResponse<byte[]> r = client.send(post(port, f, "Bearer " + Fixture.TOKEN,
            req.encode()), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertArrayEquals(first, r.body(), "same share after a restart");
        assertEquals(0, server.handler().service().noiseDraws());
      } finally {
        server.stop();
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
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("a.db"))) {
      f.writeBuckets(store, 2);
      HelperServer server = new HelperServer(List.of(f.task), store, RandomSource.secure());
      int port = server.start(0);
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
        server.stop();
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
    System.out.println("HelperServerTest.mutatedBodiesOverHttpAlwaysGetAClientError seed=" + seed);
    Random rnd = new Random(seed);
    Fixture f = Fixture.laplace(22);
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("z.db"))) {
      f.writeBuckets(store, 2);
      HelperServer server = new HelperServer(List.of(f.task), store, RandomSource.secure());
      int port = server.start(0);
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
        assertEquals(1, server.handler().service().noiseDraws());
      } finally {
        server.stop();
      }
    }
  }
}
