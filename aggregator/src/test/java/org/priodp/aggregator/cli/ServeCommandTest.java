package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.store.JdbcAggregateShareStore;
import org.priodp.aggregator.testing.Fixture;

class ServeCommandTest {
  private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");
  private static final int BATCHES = 20;

  @TempDir
  Path dir;

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  private static String taskJson(Fixture f) {
    Base64.Encoder b = Base64.getUrlEncoder().withoutPadding();
    return "{\"tasks\": [{\"task_id\": \"" + f.taskId.toBase64Url() + "\", \"task_info\": \"fixture\","
        + " \"leader_aggregator_endpoint\": \"https://leader.example/\","
        + " \"helper_aggregator_endpoint\": \"https://helper.example/\","
        + " \"time_precision\": 100, \"min_batch_size\": 10, \"batch_mode\": \"time_interval\","
        + " \"vdaf\": {\"type\": \"Prio3Histogram\", \"length\": 8, \"chunk_length\": 2},"
        + " \"dp_strategy\": {\"dp_strategy\": \"PureDpDiscreteLaplace\", \"epsilon\": \"1\"},"
        + " \"collector_hpke_config\": {\"id\": 7, \"kem_id\": 32, \"kdf_id\": 1, \"aead_id\": 1,"
        + " \"public_key\": \"" + b.encodeToString(f.collectorKey.publicKey()) + "\"},"
        + " \"auth_token\": \"" + Fixture.TOKEN + "\"}]}";
  }

  @Test
  void anInvalidTaskFileStopsStartupNamingTheField() throws Exception {
    Fixture f = Fixture.laplace(30);
    Path config = dir.resolve("bad.json");
    Files.writeString(config, taskJson(f).replace("\"epsilon\": \"1\"", "\"epsilon\": \"0\""));
    StringWriter err = new StringWriter();
    var cl = PrioDp.commandLine();
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    int code = cl.execute("serve", "--config", config.toString(), "--port", "0", "--db",
        "jdbc:sqlite:" + dir.resolve("x.db"));
    assertEquals(2, code);
    assertTrue(err.toString().contains("tasks[0].dp_strategy.epsilon"), err.toString());
  }

  private Process startServer(Path config, Path db, Path log, String... jvmFlags) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-cp", System.getProperty("java.class.path"), "-XX:+UseSerialGC"));
    cmd.addAll(List.of(jvmFlags));
    cmd.addAll(List.of("org.priodp.aggregator.cli.PrioDp", "serve", "--config", config.toString(),
        "--port", "0", "--db", "jdbc:sqlite:" + db));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    return pb.start();
  }

  private static int awaitPort(Process p) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8));
    String line = CompletableFuture.supplyAsync(() -> {
      try {
        return r.readLine();
      } catch (java.io.IOException e) {
        return null;
      }
    }).get(30, TimeUnit.SECONDS);
    Matcher m = LISTENING.matcher(String.valueOf(line));
    assertTrue(m.find(), "server did not start: " + line);
    return Integer.parseInt(m.group(1));
  }

  private HttpRequest post(int port, Fixture f, AggregateShareReq req) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/tasks/"
        + f.taskId.toBase64Url() + "/aggregate_shares")).timeout(Duration.ofSeconds(20))
        .header("Content-Type", DapMediaType.AGGREGATE_SHARE_REQ.contentType())
        .header("Authorization", "Bearer " + Fixture.TOKEN)
        .POST(HttpRequest.BodyPublishers.ofByteArray(req.encode())).build();
  }

  /**
   * Kills the server process with SIGKILL while it answers requests for 20 batches, three times,
   * restarting it on the same SQLite file; then checks that every batch's share is byte-identical
   * to whatever was released before a kill, opens to the persisted noised share, and is never the
   * un-noised aggregate.
   */
  @Test
  void sigkillInTheMiddleNeverReleasesASecondOrUnnoisedShare() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("ServeCommandTest.sigkillInTheMiddleNeverReleasesASecondOrUnnoisedShare seed="
        + seed);
    Random rnd = new Random(seed);
    Fixture f = Fixture.laplace(31);
    Path config = dir.resolve("tasks.json");
    Files.writeString(config, taskJson(f));
    Path db = dir.resolve("helper.db");
    Path log = dir.resolve("server.log");
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(db)) {
      f.writeBuckets(store, 2 * BATCHES);
    }
    List<AggregateShareReq> reqs = new ArrayList<>();
    for (int k = 0; k < BATCHES; k++) {
      reqs.add(f.request(2 * k, 2 * k + 2));
    }
    Map<Integer, byte[]> released = new HashMap<>();
    int killedWhileAnswering = 0;
    for (int round = 0; round < 3; round++) {
      Process p = startServer(config, db, log);
      try {
        int port = awaitPort(p);
        // One answered request per round, so that some shares are surely released before a kill.
        HttpResponse<byte[]> warm = client.send(post(port, f, reqs.get(round)),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, warm.statusCode());
        byte[] seen = released.putIfAbsent(round, warm.body());
        if (seen != null) {
          assertArrayEquals(seen, warm.body(), "batch " + round + " changed across a kill");
        }
        List<CompletableFuture<HttpResponse<byte[]>>> inFlight = new ArrayList<>();
        for (AggregateShareReq req : reqs) {
          inFlight.add(client.sendAsync(post(port, f, req), HttpResponse.BodyHandlers.ofByteArray()));
        }
        Thread.sleep(5 + rnd.nextInt(400));
        p.destroyForcibly(); // SIGKILL on Linux
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        for (int k = 0; k < BATCHES; k++) {
          HttpResponse<byte[]> r;
          try {
            r = inFlight.get(k).get(20, TimeUnit.SECONDS);
          } catch (java.util.concurrent.ExecutionException e) {
            killedWhileAnswering++;
            continue; // the connection died with the process
          }
          assertEquals(200, r.statusCode());
          byte[] before = released.putIfAbsent(k, r.body());
          if (before != null) {
            assertArrayEquals(before, r.body(), "batch " + k + " changed across a kill");
          }
        }
      } finally {
        p.destroyForcibly();
      }
    }
    System.out.println("ServeCommandTest: " + released.size() + " batches answered before kills, "
        + killedWhileAnswering + " requests cut off by SIGKILL");
    Process p = startServer(config, db, log);
    try {
      int port = awaitPort(p);
      for (int k = 0; k < BATCHES; k++) {
        HttpResponse<byte[]> r = client.send(post(port, f, reqs.get(k)),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        byte[] before = released.putIfAbsent(k, r.body());
        if (before != null) {
          assertArrayEquals(before, r.body(), "batch " + k + " changed after restart");
        }
      }
    } finally {
      p.destroy(); // SIGTERM: graceful shutdown
      assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    }
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(db)) {
      for (int k = 0; k < BATCHES; k++) {
        byte[] opened = f.open(released.get(k), reqs.get(k));
        assertFalse(Arrays.equals(f.unnoised(2 * k, 2 * k + 2), opened), "un-noised share left");
        assertArrayEquals(store.noisedShare(f.taskId, reqs.get(k).batchSelector().encode())
            .orElseThrow().noisedShare(), opened);
        assertArrayEquals(store.releasedShare(f.taskId, reqs.get(k).batchSelector().encode())
            .orElseThrow().aggregateShare(), released.get(k));
      }
    }
    assertFalse(Files.readString(log).contains(Fixture.TOKEN), "the token is never logged");
  }

  /**
   * Crashes the server at the worst moment, deterministically: after the batch's noise is
   * persisted and before any sealed share exists (fault injection halts the JVM there, like
   * SIGKILL). The restarted server must seal and release exactly that persisted noise, draw
   * nothing new, and answer repeats with the same bytes.
   */
  @Test
  void aCrashBetweenPersistingNoiseAndSealingReleasesThatNoiseAfterRestart() throws Exception {
    Fixture f = Fixture.laplace(41);
    Path config = dir.resolve("tasks.json");
    Files.writeString(config, taskJson(f));
    Path db = dir.resolve("helper.db");
    Path log = dir.resolve("server.log");
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(db)) {
      f.writeBuckets(store, 2);
    }
    AggregateShareReq req = f.request(0, 2);
    byte[] batch = req.batchSelector().encode();

    Process crashing = startServer(config, db, log,
        "-Dpriodp.faultInjection.haltAfterNoisePersisted=true");
    int port = awaitPort(crashing);
    assertThrows(java.io.IOException.class,
        () -> client.send(post(port, f, req), HttpResponse.BodyHandlers.ofByteArray()),
        "the server dies before answering");
    assertTrue(crashing.waitFor(20, TimeUnit.SECONDS));
    assertEquals(137, crashing.exitValue(), "halted at the fault-injection point");
    byte[] persisted;
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(db)) {
      persisted = store.noisedShare(f.taskId, batch).orElseThrow().noisedShare();
      assertTrue(store.releasedShare(f.taskId, batch).isEmpty(), "nothing was sealed before the crash");
    }
    assertFalse(Arrays.equals(f.unnoised(0, 2), persisted), "the persisted share is noised");

    Process restarted = startServer(config, db, log);
    try {
      int port2 = awaitPort(restarted);
      HttpResponse<byte[]> first = client.send(post(port2, f, req), HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(200, first.statusCode());
      assertArrayEquals(persisted, f.open(first.body(), req), "the noise persisted before the crash is released");
      HttpResponse<byte[]> again = client.send(post(port2, f, req), HttpResponse.BodyHandlers.ofByteArray());
      assertArrayEquals(first.body(), again.body(), "repeats return the same bytes");
    } finally {
      restarted.destroy();
      assertTrue(restarted.waitFor(20, TimeUnit.SECONDS));
    }
  }
}
