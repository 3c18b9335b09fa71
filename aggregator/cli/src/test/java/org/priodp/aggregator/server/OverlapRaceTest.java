package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.ServeProcess;

/**
 * The privacy race of issue 14 over real HTTP: 16 concurrent aggregate-share requests for pairwise
 * overlapping time intervals of one task, 50 rounds (a fresh task each round). DAP-18 allows one
 * batch per report, and two independently noised shares of overlapping batches would let a
 * Collector average the noise away, so exactly one request per round may be answered 200 and the
 * other 15 get batchOverlap. Run against one in-process server on SQLite, and against two
 * {@code serve} processes sharing one PostgreSQL database with the requests split between them.
 */
class OverlapRaceTest {
  private static final int ROUNDS = 50;
  private static final int CONCURRENT = 16;

  @TempDir
  Path dir;

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();

  private static List<Fixture> tasks(long seed) {
    Random random = new Random(seed);
    List<Fixture> out = new ArrayList<>();
    for (int r = 0; r < ROUNDS; r++) {
      out.add(Fixture.laplaceRandomTask(r, random));
    }
    return out;
  }

  /** Returns the Leader's aggregate-share request for {@code req} to the Helper at {@code port}. */
  static HttpRequest post(int port, Fixture f, AggregateShareReq req) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/tasks/"
        + f.taskId.toBase64Url() + "/aggregate_shares")).timeout(Duration.ofSeconds(60))
        .header("Content-Type", DapMediaType.AGGREGATE_SHARE_REQ.contentType())
        .header("Authorization", "Bearer " + Fixture.TOKEN)
        .POST(HttpRequest.BodyPublishers.ofByteArray(req.encode())).build();
  }

  /**
   * Sends the round's 16 requests at once, request k for buckets [k, k+16) (all hold bucket 15),
   * alternating between the ports; returns how many were answered 200 and checks that every
   * other answer is a batchOverlap problem.
   */
  private int round(Fixture f, int[] ports) throws Exception {
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (int k = 0; k < CONCURRENT; k++) {
      answers.add(client.sendAsync(post(ports[k % ports.length], f, f.request(k, k + CONCURRENT)),
          HttpResponse.BodyHandlers.ofString()));
    }
    int ok = 0;
    for (CompletableFuture<HttpResponse<String>> a : answers) {
      HttpResponse<String> r = a.get(120, TimeUnit.SECONDS);
      if (r.statusCode() == 200) {
        ok++;
      } else {
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains(DapError.BATCH_OVERLAP.urn()), r.body());
      }
    }
    return ok;
  }

  private static String histogram(int[] oks) {
    int[] byCount = new int[CONCURRENT + 1];
    for (int ok : oks) {
      byCount[ok]++;
    }
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c <= CONCURRENT; c++) {
      if (byCount[c] > 0) {
        sb.append(sb.length() == 0 ? "" : ", ").append(byCount[c]).append(" rounds with ")
            .append(c).append(" x 200");
      }
    }
    return sb.toString();
  }

  @Test
  void sqliteOneServerExactlyOneOkPerRound() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("OverlapRaceTest.sqliteOneServerExactlyOneOkPerRound seed=" + seed);
    List<Fixture> fixtures = tasks(seed);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(
        dir.resolve("race.db"))) {
      for (Fixture f : fixtures) {
        f.writeBuckets(store, 2 * CONCURRENT - 1);
      }
      List<TaskDefinition> defs = fixtures.stream().map(f -> f.task).toList();
      Aggregator server = Aggregator.start(AggregatorConfig.builder(defs, store).build());
      int port = server.port();
      int[] oks = new int[ROUNDS];
      try {
        for (int r = 0; r < ROUNDS; r++) {
          oks[r] = round(fixtures.get(r), new int[] {port});
        }
      } finally {
        server.close();
      }
      System.out.println("OverlapRaceTest SQLite, 1 server: " + histogram(oks));
      for (int r = 0; r < ROUNDS; r++) {
        assertEquals(1, oks[r], "round " + r + ": " + histogram(oks) + " (seed " + seed + ")");
      }
    }
  }

  @Test
  void postgresqlTwoServeProcessesExactlyOneOkPerRound() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED two-process PostgreSQL race test: PRIODP_PG_URL is not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL is not set");
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("OverlapRaceTest.postgresqlTwoServeProcessesExactlyOneOkPerRound seed="
        + seed);
    List<Fixture> fixtures = tasks(seed);
    try (JdbcDatastore store = JdbcDatastore.open(url)) {
      for (Fixture f : fixtures) {
        f.writeBuckets(store, 2 * CONCURRENT - 1);
      }
    }
    Path config = dir.resolve("tasks.json");
    Files.writeString(config, Fixture.taskFileJson(fixtures));
    Process a = ServeProcess.start(config, url, dir.resolve("a.log"), List.of());
    Process b = ServeProcess.start(config, url, dir.resolve("b.log"), List.of());
    int[] oks = new int[ROUNDS];
    try {
      int[] ports = {ServeProcess.awaitPort(a), ServeProcess.awaitPort(b)};
      for (int r = 0; r < ROUNDS; r++) {
        oks[r] = round(fixtures.get(r), ports);
      }
    } finally {
      ServeProcess.stop(a);
      ServeProcess.stop(b);
    }
    System.out.println("OverlapRaceTest PostgreSQL, 2 serve processes: " + histogram(oks));
    for (int r = 0; r < ROUNDS; r++) {
      assertEquals(1, oks[r], "round " + r + ": " + histogram(oks) + " (seed " + seed + ")");
    }
  }
}
