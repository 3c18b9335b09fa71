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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.LeaderFixture;
import org.priodp.aggregator.testing.SpecClient;
import org.priodp.aggregator.testing.SpecDraft;

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

  /**
   * A task whose collector_identity (draft-ietf-ppm-dap-attribution-00 section 6.1) answers
   * without the task's collector key stops startup with exit 2 and one line naming the task, the
   * URL and what was wrong; nothing listens.
   */
  @Test
  void aCollectorIdentityThatDoesNotListTheKeyStopsStartupInOneLine() throws Exception {
    Fixture f = Fixture.laplace(31);
    Path config = dir.resolve("identity.json");
    Files.writeString(config, taskJson(f).replace("\"batch_mode\": \"time_interval\",",
        "\"batch_mode\": \"time_interval\", \"extensions\": [{\"type\": \"collector_identity\","
        + " \"url\": \"https://collector.example/\"}],"));
    java.util.List<URI> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
    StringWriter err = new StringWriter();
    var cl = PrioDp.commandLine();
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    ((ServeCommand) cl.getSubcommands().get("serve").getCommand()).collectorAuthorization =
        (identity, key) -> {
          asked.add(identity);
          return new org.priodp.aggregator.core.CollectorAuthorization.Denied(
              "https://collector.example/hpke_config does not list the task's"
              + " collector_hpke_config (id 7); it lists id(s) 3");
        };
    int code = cl.execute("serve", "--config", config.toString(), "--port", "0", "--db",
        "jdbc:sqlite:" + dir.resolve("identity.db"));
    assertEquals(2, code, err.toString());
    assertEquals(List.of(URI.create("https://collector.example/")), asked);
    assertEquals("serve: task " + f.taskId.toBase64Url() + ": collector_identity"
        + " https://collector.example/ does not authorize its collector_hpke_config:"
        + " https://collector.example/hpke_config does not list the task's collector_hpke_config"
        + " (id 7); it lists id(s) 3", err.toString().strip());
  }

  /**
   * One {@code serve} process whose task file holds a {@code "dap_version": "dap-18"} Leader task
   * and a Leader task without dap_version (so DAP-19) whose task_info is empty: a Client of each
   * draft written from the draft's structs ({@link SpecClient}, {@link SpecDraft}) uploads to the
   * task of its draft and reads its refused reports in its draft's code points.
   */
  @Test
  void oneServeProcessServesADap18AndADap19TaskEachInItsDraft() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("ServeCommandTest.oneServeProcess seed=" + seed);
    Random rnd = new Random(seed);
    long now = System.currentTimeMillis() / 1000 / 3600;
    byte[] ikm = new byte[32];
    rnd.nextBytes(ikm);
    byte[] collector = new org.priodp.aggregator.hpke.Hpke(
        org.priodp.aggregator.hpke.HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm).publicKey();
    String leader = "https://leader.example/leader/";
    String helper = "http://127.0.0.1:1/helper/"; // never reached by this test
    Map<SpecDraft, SpecClient.Task> clients = new java.util.EnumMap<>(SpecDraft.class);
    StringBuilder json = new StringBuilder("{\"tasks\": [");
    for (SpecDraft d : SpecDraft.values()) {
      byte[] taskId = new byte[32];
      rnd.nextBytes(taskId);
      byte[] info = d == SpecDraft.DAP_19 ? new byte[0] : "interop".getBytes(StandardCharsets.UTF_8);
      clients.put(d, new SpecClient.Task(d, taskId, info, leader, helper, 3600, 10,
          new org.priodp.vdaf.Prio3Variant.Histogram(4, 2), 4,
          new org.priodp.aggregator.testing.SpecTls().u32(4).u32(2).bytes(),
          SpecClient.taskIntervalExtension(now - 24, 48)));
      json.append(d == SpecDraft.DAP_18 ? "" : ", ").append("{\"task_id\": \"")
          .append(Base64.getUrlEncoder().withoutPadding().encodeToString(taskId)).append("\", ")
          .append(d == SpecDraft.DAP_18 ? "\"dap_version\": \"dap-18\", " : "")
          .append("\"role\": \"leader\", \"task_info\": \"")
          .append(new String(info, StandardCharsets.UTF_8)).append("\",")
          .append(" \"leader_aggregator_endpoint\": \"").append(leader).append("\",")
          .append(" \"helper_aggregator_endpoint\": \"").append(helper).append("\",")
          .append(" \"time_precision\": 3600, \"min_batch_size\": 10,")
          .append(" \"batch_mode\": \"time_interval\",")
          .append(" \"extensions\": [{\"type\": \"task_interval\", \"start\": ")
          .append((now - 24) * 3600).append(", \"duration\": ").append(48 * 3600).append("}],")
          .append(" \"vdaf\": {\"type\": \"Prio3Histogram\", \"length\": 4,")
          .append(" \"chunk_length\": 2},")
          .append(" \"dp_strategy\": {\"dp_strategy\": \"NoDifferentialPrivacy\"},")
          .append(" \"collector_hpke_config\": {\"id\": 7, \"kem_id\": 32, \"kdf_id\": 1,")
          .append(" \"aead_id\": 1, \"public_key\": \"")
          .append(Base64.getUrlEncoder().withoutPadding().encodeToString(collector))
          .append("\"}, \"auth_token\": \"").append(Fixture.TOKEN)
          .append("\", \"collector_auth_token\": \"").append(LeaderFixture.COLLECTOR_TOKEN)
          .append("\"}");
    }
    Path config = dir.resolve("both.json");
    Files.writeString(config, json.append("]}").toString());
    Path err = dir.resolve("both.log");
    Path db = dir.resolve("both.db");
    SpecClient.Advertised helperKey = new SpecClient.Advertised(3, 0x20, 1, 1,
        new org.priodp.aggregator.hpke.Hpke(org.priodp.aggregator.hpke.HpkeSuite.DAP_MANDATORY)
            .generateKeyPair().publicKey());
    Map<SpecDraft, SpecClient.Built> accepted = new java.util.EnumMap<>(SpecDraft.class);
    Process p = startWithEnvironment(Map.of(), err, "--config", config.toString(), "--port",
        "0", "--db", "jdbc:sqlite:" + db);
    try {
      String base = "http://127.0.0.1:" + awaitPort(p) + "/leader/";
      SpecClient.Advertised leaderKey = SpecClient.fetchConfig(client,
          URI.create(base + "hpke_config"));
      for (SpecDraft d : SpecDraft.values()) {
        SpecClient.Task t = clients.get(d);
        List<SpecClient.Built> refused = SpecClient.refusedReports(t, leaderKey, helperKey, now,
            now - 25, rnd);
        SpecClient.assertRefused(d, refused, SpecClient.upload(client, t.reportsUri(base),
            refused));
        accepted.put(d, refused.get(0));
      }
      p.destroy();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "stopped within 30 s");
    } finally {
      p.destroyForcibly();
    }
    String log = Files.readString(err);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      for (SpecDraft d : SpecDraft.values()) {
        org.priodp.aggregator.dap.TaskId id = new org.priodp.aggregator.dap.TaskId(
            clients.get(d).taskId());
        assertTrue(log.contains("task " + id.toBase64Url() + " (leader, " + d.tag() + ")"), log);
        assertArrayEquals(accepted.get(d).encoded(), store.inTaskTransaction(id,
            tx -> tx.clientReports().get(new org.priodp.aggregator.dap.ReportId(
                accepted.get(d).id()))).orElseThrow().toByteArray());
      }
    }
  }

  private Process startServer(Path config, Path db, Path log) throws Exception {
    return startServer(PrioDp.class, config, db, log);
  }

  /** Starts {@code serve} in a JVM whose main class is {@code main}. */
  private Process startServer(Class<?> main, Path config, Path db, Path log) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-cp", System.getProperty("java.class.path"), "-XX:+UseSerialGC"));
    cmd.addAll(List.of(main.getName(), "serve", "--config", config.toString(),
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
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
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
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      for (int k = 0; k < BATCHES; k++) {
        byte[] opened = f.open(released.get(k), reqs.get(k));
        assertFalse(Arrays.equals(f.unnoised(2 * k, 2 * k + 2), opened), "un-noised share left");
        BatchIdentifier batch = BatchBuckets.batchIdentifier(reqs.get(k).batchSelector());
        assertArrayEquals(store.inTaskTransaction(f.taskId,
            tx -> tx.releases().noisedShare(batch)).orElseThrow().noisedShare()
            .toByteArray(), opened);
        assertArrayEquals(store.inTaskTransaction(f.taskId,
            tx -> tx.releases().releasedShare(batch)).orElseThrow().aggregateShare()
            .toByteArray(), released.get(k));
      }
    }
    assertFalse(Files.readString(log).contains(Fixture.TOKEN), "the token is never logged");
    String sampler = "task " + f.taskId.toBase64Url() + ": PureDpDiscreteLaplace(epsilon=";
    assertTrue(Files.readString(log).lines().anyMatch(l -> l.contains(sampler)
        && l.contains(", discrete Laplace with scale ") && l.contains(
            ", fixed-work sampler (total variation <= 2^-64 per draw, <= 2^-")
        && l.contains("; privacy unit report, no privacy budget")),
        "serve names the sampler, the privacy unit and the budget of each DP task");
  }

  /**
   * Crashes the server at the worst moment, deterministically: after the batch's noise is
   * persisted and before any sealed share exists (the test main {@link HaltAfterNoisePersisted}
   * halts the JVM there, like SIGKILL). The restarted server must seal and release exactly that persisted noise, draw
   * nothing new, and answer repeats with the same bytes.
   */
  @Test
  void aCrashBetweenPersistingNoiseAndSealingReleasesThatNoiseAfterRestart() throws Exception {
    Fixture f = Fixture.laplace(41);
    Path config = dir.resolve("tasks.json");
    Files.writeString(config, taskJson(f));
    Path db = dir.resolve("helper.db");
    Path log = dir.resolve("server.log");
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      f.writeBuckets(store, 2);
    }
    AggregateShareReq req = f.request(0, 2);
    BatchIdentifier batch = BatchBuckets.batchIdentifier(req.batchSelector());

    Process crashing = startServer(HaltAfterNoisePersisted.class, config, db, log);
    int port = awaitPort(crashing);
    assertThrows(java.io.IOException.class,
        () -> client.send(post(port, f, req), HttpResponse.BodyHandlers.ofByteArray()),
        "the server dies before answering");
    assertTrue(crashing.waitFor(20, TimeUnit.SECONDS));
    assertEquals(137, crashing.exitValue(), "halted at the fault-injection point");
    byte[] persisted;
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      persisted = store.inTaskTransaction(f.taskId,
          tx -> tx.releases().noisedShare(batch)).orElseThrow().noisedShare().toByteArray();
      assertTrue(store.inTaskTransaction(f.taskId, tx -> tx.releases().releasedShare(batch))
          .isEmpty(), "nothing was sealed before the crash");
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

  /** The task of {@code taskJson(f)} with extra fields (e.g. a privacy budget). */
  private static String taskJson(Fixture f, String fields) {
    String json = taskJson(f);
    int i = json.indexOf('{', json.indexOf("\"tasks\""));
    return json.substring(0, i + 1) + fields + ", " + json.substring(i + 1);
  }

  /**
   * kill -9 between the draw and the release keeps the ledger right (issue 25): the process halts
   * after the noised share and its ledger row committed, before sealing; after a restart the
   * ledger has exactly one entry, the repeat returns that noise at no cost, and the budget
   * (epsilon 1, one release) refuses another batch with privacyBudgetExhausted.
   */
  @Test
  void aCrashAfterTheDrawKeepsTheLedgerAndTheRepeatCostsNothing() throws Exception {
    Fixture f = Fixture.laplace(43);
    Path config = dir.resolve("tasks.json");
    Files.writeString(config, taskJson(f, "\"privacy_budget\": {\"epsilon\": \"1\"}"));
    Path db = dir.resolve("helper.db");
    Path log = dir.resolve("server.log");
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      f.writeBuckets(store, 4);
    }
    AggregateShareReq req = f.request(0, 2);
    BatchIdentifier batch = BatchBuckets.batchIdentifier(req.batchSelector());
    Process crashing = startServer(HaltAfterNoisePersisted.class, config, db, log);
    int port = awaitPort(crashing);
    assertThrows(java.io.IOException.class,
        () -> client.send(post(port, f, req), HttpResponse.BodyHandlers.ofByteArray()));
    assertTrue(crashing.waitFor(20, TimeUnit.SECONDS));
    assertEquals(137, crashing.exitValue(), "halted at the fault-injection point");
    byte[] persisted;
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      persisted = store.inTaskTransaction(f.taskId,
          tx -> tx.releases().noisedShare(batch)).orElseThrow().noisedShare().toByteArray();
      assertEquals(1, store.inTaskTransaction(f.taskId, tx -> tx.ledger().entries()).size(),
          "the draw and its ledger row committed together");
    }
    Process restarted = startServer(config, db, log);
    try {
      int port2 = awaitPort(restarted);
      HttpResponse<byte[]> first = client.send(post(port2, f, req), HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(200, first.statusCode());
      assertArrayEquals(persisted, f.open(first.body(), req), "the noise drawn before the crash");
      HttpResponse<String> other = client.send(post(port2, f, f.request(2, 4)), HttpResponse.BodyHandlers.ofString());
      assertEquals(403, other.statusCode(), other.body());
      assertTrue(other.body().contains("urn:priodp:problem:privacyBudgetExhausted"), other.body());
      assertTrue(other.body().contains("spent epsilon 1, left 0; this release would cost 1"), other.body());
    } finally {
      restarted.destroy();
      assertTrue(restarted.waitFor(20, TimeUnit.SECONDS));
    }
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      assertEquals(1, store.inTaskTransaction(f.taskId, tx -> tx.ledger().entries()).size(),
          "the repeat cost nothing, the refusal stored nothing");
    }
    // DP settings are fixed once the task has released (issue 25, item 4)
    Files.writeString(config, taskJson(f, "\"privacy_budget\": {\"epsilon\": \"2\"}"));
    CliRun r = CliRun.of("serve", "--config", config.toString(), "--port", "0", "--db", "jdbc:sqlite:" + db);
    assertEquals(2, r.code(), r.err());
    assertOneLineFailure(r, "task " + f.taskId.toBase64Url() + ": privacy_budget.epsilon changed from 1 to 2"
        + " after 1 release; DP settings are fixed once a task has released: use a new task id");
    Files.writeString(config, taskJson(f, "\"privacy_budget\": {\"epsilon\": \"1\"}, \"noise_sampler\": \"exact\""));
    r = CliRun.of("serve", "--config", config.toString(), "--port", "0", "--db", "jdbc:sqlite:" + db);
    assertOneLineFailure(r, "noise_sampler changed from hardened to exact after 1 release");
  }

  private static final String PG_ENV = "PRIODP_PG_URL";

  private Path config() throws Exception {
    Path config = dir.resolve("tasks.json");
    Files.writeString(config, taskJson(Fixture.laplace(32)));
    return config;
  }

  /** Asserts a failed start: non-zero, one line on stderr naming {@code cause}, no stack. */
  private static void assertOneLineFailure(CliRun r, String... causes) {
    assertTrue(r.code() != 0, "exit status " + r.code());
    assertEquals(1, r.err().lines().count(), r.err());
    assertFalse(r.err().contains("\tat "), r.err());
    assertTrue(r.err().startsWith("serve: "), r.err());
    for (String c : causes) {
      assertTrue(r.err().contains(c), "expected \"" + c + "\" in: " + r.err());
    }
  }

  private static int closedPort() throws Exception {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Test
  void aDatabaseThatIsDownIsOneLineWithTheRootCause() throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + closedPort() + "/x";
    CliRun r = CliRun.of("serve", "--config", config().toString(), "--port", "0", "--db", url);
    assertOneLineFailure(r, "cannot open store " + url + ": Connection refused");
    assertEquals(1, r.code());
  }

  @Test
  void anUnwritableSqlitePathIsOneLine() throws Exception {
    CliRun r = CliRun.of("serve", "--config", config().toString(), "--port", "0", "--db",
        "jdbc:sqlite:/proc/nonexistent/x.db");
    assertOneLineFailure(r, "cannot open store jdbc:sqlite:/proc/nonexistent/x.db",
        "/proc/nonexistent does not exist");
    // the directory exists but the file cannot be created there (even as root)
    r = CliRun.of("serve", "--config", config().toString(), "--port", "0", "--db",
        "jdbc:sqlite:/proc/x.db");
    assertOneLineFailure(r, "cannot open store jdbc:sqlite:/proc/x.db: ");
  }

  @Test
  void aMissingPostgresqlRoleIsOneLine() throws Exception {
    String pg = System.getenv(PG_ENV);
    if (pg == null || pg.isBlank()) {
      System.out.println("SKIPPED ServeCommandTest.aMissingPostgresqlRoleIsOneLine: " + PG_ENV
          + " is not set");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(pg != null && !pg.isBlank());
    String url = pg.replaceAll("([?&])user=[^&]*", "$1user=nosuchrole");
    if (!url.contains("user=nosuchrole")) {
      url = url + (url.contains("?") ? "&" : "?") + "user=nosuchrole";
    }
    CliRun r = CliRun.of("serve", "--config", config().toString(), "--port", "0", "--db", url);
    assertOneLineFailure(r, "cannot open store ", "nosuchrole");
    assertEquals(1, r.code());
  }

  /**
   * A port in use is one line naming it, exit 1, and nothing is written: no store file, so no
   * HPKE key either (issue 24: the store and a key were created before the port was tried).
   */
  @Test
  void aPortInUseIsOneLineAndNothingIsWritten() throws Exception {
    Path data = Files.createDirectories(dir.resolve("fresh"));
    Path store = data.resolve("p.db");
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName("127.0.0.1"))) {
      CliRun r = CliRun.of("serve", "--config", config().toString(), "--port",
          Integer.toString(taken.getLocalPort()), "--db", "jdbc:sqlite:" + store);
      assertOneLineFailure(r, "cannot listen on 127.0.0.1:" + taken.getLocalPort(),
          "the port is in use");
      assertEquals(1, r.code());
    }
    try (Stream<Path> files = Files.list(data)) {
      assertEquals(List.of(), files.toList(), "files written before the port was checked");
    }
  }

  /** Without --db the store is priodp-leader.db for Leader tasks only, else priodp-helper.db. */
  @Test
  void theDefaultStoreIsNamedAfterTheRole() throws Exception {
    org.priodp.aggregator.core.TaskDefinition leader = LeaderFixture.task(33);
    org.priodp.aggregator.core.TaskDefinition helper = Fixture.laplace(32).task;
    assertEquals("priodp-leader.db", ServeCommand.defaultStoreFile(
        org.priodp.aggregator.server.TaskRoutes.of(List.of(leader))));
    assertEquals("priodp-helper.db", ServeCommand.defaultStoreFile(
        org.priodp.aggregator.server.TaskRoutes.of(List.of(helper))));
    assertEquals("priodp-helper.db", ServeCommand.defaultStoreFile(
        org.priodp.aggregator.server.TaskRoutes.of(List.of())));
  }

  @Test
  void tlsFilesAreCheckedBeforeStarting() throws Exception {
    Path cert = dir.resolve("cert.pem");
    Files.writeString(cert, "not a certificate\n");
    CliRun r = CliRun.of("serve", "--config", config().toString(), "--tls-cert", cert.toString());
    assertOneLineFailure(r, "--tls-cert needs --tls-key");
    assertEquals(2, r.code());
    r = CliRun.of("serve", "--config", config().toString(), "--tls-key", cert.toString());
    assertOneLineFailure(r, "--tls-key needs --tls-cert");
    r = CliRun.of("serve", "--config", config().toString(), "--tls-cert", cert.toString(),
        "--tls-key", dir.resolve("missing.pem").toString());
    assertOneLineFailure(r, "TLS key " + dir.resolve("missing.pem") + ": no such file");
    r = CliRun.of("serve", "--config", config().toString(), "--tls-cert", cert.toString(),
        "--tls-key", cert.toString());
    assertOneLineFailure(r, "TLS certificate " + cert + ": no -----BEGIN CERTIFICATE-----");
    assertEquals(2, r.code());
  }

  @Test
  void badOptionsAndMissingFilesAreOneLine() throws Exception {
    CliRun noConfig = CliRun.of("serve");
    assertEquals(2, noConfig.code());
    assertTrue(noConfig.failedWithOneLine("--config FILE (or PRIODP_CONFIG) is required"),
        noConfig.err());
    assertOneLineFailure(CliRun.of("serve", "--config", dir.resolve("nope.json").toString()),
        dir.resolve("nope.json") + ": no such file");
    assertOneLineFailure(CliRun.of("serve", "--config", config().toString(), "--log-format",
        "xml"), "--log-format: expected text or json, got xml");
    assertOneLineFailure(CliRun.of("serve", "--config", config().toString(), "--db",
        "jdbc:mysql://h/x"), "--db: expected jdbc:sqlite:FILE or jdbc:postgresql://");
    assertOneLineFailure(CliRun.of("serve", "--config", config().toString(), "--port", "http"),
        "--port: expected a number in [0, 65535], got http");
    assertOneLineFailure(CliRun.of("serve", "--config", config().toString(), "--port", "65536"),
        "--port: expected a number in [0, 65535], got 65536");
    assertOneLineFailure(CliRun.of("serve", "--config", config().toString(),
        "--report-retention", "30x"),
        "--report-retention: expected a duration such as 86400, 30d, 12h or P30D, got 30x");
    assertOneLineFailure(CliRun.of("serve", "--config", config().toString(),
        "--report-retention", "0"), "--report-retention: expected a positive duration, got 0");
    assertOneLineFailure(CliRun.of("serve", "--config", config().toString(), "--replica-id",
        "r".repeat(101)), "--replica-id: at most 100 characters, got 101");
  }

  @Test
  void verboseAddsTheStackTrace() throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + closedPort() + "/x";
    try {
      CliRun r = CliRun.of("--verbose", "serve", "--config", config().toString(), "--port", "0",
          "--db", url);
      assertEquals(1, r.code());
      assertTrue(r.err().contains("\tat "), r.err());
      assertTrue(r.err().strip().endsWith("Connection refused"), r.err());
      r = CliRun.of("serve", "--verbose", "--config", config().toString(), "--port", "0",
          "--db", url);
      assertTrue(r.err().contains("\tat "), "--verbose works after the command too");
    } finally {
      // --verbose raised org.priodp to DEBUG in this JVM; later tests expect the test config
      ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("org.priodp"))
          .setLevel(null);
    }
  }

  @Test
  void theAdminTokenComesFromAFileOrTheEnvironmentAndIsOffWithoutOne() throws Exception {
    assertEquals(null, ServeCommand.adminToken(null, java.util.Map.of()));
    assertTrue(ServeCommand.adminToken(null, java.util.Map.of("PRIODP_ADMIN_TOKEN", "env-tok"))
        .matchesAuthorization("Bearer env-tok"));
    Path file = dir.resolve("admin");
    Files.writeString(file, "file-tok\nignored\n");
    assertTrue(ServeCommand.adminToken(file.toString(),
        java.util.Map.of("PRIODP_ADMIN_TOKEN", "env-tok")).matchesAuthorization("Bearer file-tok"),
        "the file wins");
    java.io.IOException missing = assertThrows(java.io.IOException.class,
        () -> ServeCommand.adminToken(dir.resolve("none").toString(), java.util.Map.of()));
    assertTrue(missing.getMessage().startsWith("--admin-token-file "), missing.getMessage());
    Files.writeString(file, "not a token\n");
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> ServeCommand.adminToken(file.toString(), java.util.Map.of()));
    assertTrue(bad.getMessage().startsWith("--admin-token-file "), bad.getMessage());
    assertFalse(bad.getMessage().contains("not a token"), "the token is never echoed");
  }

  @Test
  void thePasswordComesFromTheEnvironmentOrAFileNeverTheCommandLine() throws Exception {
    ServeCommand c = new ServeCommand();
    c.db = "jdbc:postgresql://db.example/priodp";
    c.dbUser = "helper";
    c.environment = java.util.Map.of("PRIODP_DB_PASSWORD", "from-env");
    java.util.Properties p = c.dbProperties();
    assertEquals("helper", p.getProperty("user"));
    assertEquals("from-env", p.getProperty("password"));
    Path file = dir.resolve("pw");
    Files.writeString(file, "from-file\nignored second line\n");
    c.dbPasswordFile = file.toString();
    assertEquals("from-file", c.dbProperties().getProperty("password"));
    c.db = "jdbc:sqlite:x.db";
    assertTrue(c.dbProperties().isEmpty(), "SQLite gets neither user nor password");
    c.db = "jdbc:postgresql://db.example/priodp";
    c.dbPasswordFile = null;
    c.dbUser = null;
    c.environment = java.util.Map.of();
    assertTrue(c.dbProperties().isEmpty());
    assertEquals("jdbc:postgresql://h/x?user=u&password=***&ssl=true",
        ServeCommand.redact("jdbc:postgresql://h/x?user=u&password=s3cret&ssl=true"));
    CliRun help = CliRun.of("serve", "--help");
    assertFalse(help.out().contains("--db-password "), "no password option");
    for (String v : new String[] {"PRIODP_CONFIG", "PRIODP_PORT", "PRIODP_BIND", "PRIODP_DB",
        "PRIODP_DB_USER", "PRIODP_DB_PASSWORD", "PRIODP_TLS_CERT", "PRIODP_TLS_KEY",
        "PRIODP_LOG_FORMAT", "PRIODP_ASYNC_AGGREGATION", "Example:"}) {
      assertTrue(help.out().contains(v), v + " is documented in --help");
    }
  }

  /** Starts {@code prio-dp serve} in a real JVM with the production logging configuration. */
  private Process startWithEnvironment(Map<String, String> env, Path err, String... args)
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-cp", System.getProperty("java.class.path"), "-XX:+UseSerialGC",
        // the test class path also holds logback-test.xml; use the one that ships
        "-Dlogback.configurationFile=" + PrioDp.LOGGING_CONFIGURATION,
        "org.priodp.aggregator.cli.PrioDp", "serve"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().keySet().removeIf(k -> k.startsWith("PRIODP_"));
    pb.environment().putAll(env);
    pb.redirectError(ProcessBuilder.Redirect.to(err.toFile()));
    return pb.start();
  }

  @Test
  void reportRetentionFromTheEnvironmentRunsWithTheServerAndStopsWithIt() throws Exception {
    Path err = dir.resolve("retention.log");
    Process p = startWithEnvironment(Map.of("PRIODP_REPORT_RETENTION", "30d"), err, "--config",
        config().toString(), "--port", "0", "--db", "jdbc:sqlite:" + dir.resolve("r.db"));
    try {
      awaitPort(p);
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "stopped within 30 s");
    } finally {
      p.destroyForcibly();
    }
    String log = Files.readString(err);
    assertEquals(0, p.exitValue(), log);
    assertTrue(log.contains("report retention PT720H"), log);
    assertTrue(log.contains(" stopped"), log);
  }

  /**
   * A task file with a Leader task: {@code serve} names the reports route, advertises its HPKE
   * key at {@code /hpke_config} and accepts a report uploaded with it (issue 17).
   */
  @Test
  void aLeaderTaskIsServedItsUploadsAndItsHpkeConfig() throws Exception {
    byte[] ikm = new byte[32];
    Arrays.fill(ikm, (byte) 9); // LeaderFixture's collector key
    byte[] collector = new org.priodp.aggregator.hpke.Hpke(
        org.priodp.aggregator.hpke.HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm).publicKey();
    org.priodp.aggregator.core.TaskDefinition t = LeaderFixture.task(33);
    Path config = dir.resolve("leader.json");
    Files.writeString(config, "{\"tasks\": [{\"task_id\": \"" + t.taskId().toBase64Url()
        + "\", \"role\": \"leader\", \"task_info\": \"upload\","
        + " \"leader_aggregator_endpoint\": \"https://leader.example/\","
        + " \"helper_aggregator_endpoint\": \"https://helper.example/\","
        + " \"time_precision\": 3600, \"min_batch_size\": 10, \"batch_mode\": \"time_interval\","
        + " \"vdaf\": {\"type\": \"Prio3Count\"},"
        + " \"dp_strategy\": {\"dp_strategy\": \"NoDifferentialPrivacy\"},"
        + " \"collector_hpke_config\": {\"id\": 7, \"kem_id\": 32, \"kdf_id\": 1, \"aead_id\": 1,"
        + " \"public_key\": \"" + Base64.getUrlEncoder().withoutPadding().encodeToString(collector)
        + "\"}, \"auth_token\": \"" + Fixture.TOKEN + "\", \"collector_auth_token\": \""
        + LeaderFixture.COLLECTOR_TOKEN + "\"}]}");
    Path err = dir.resolve("leader.log");
    Path db = dir.resolve("leader.db");
    Process p = startWithEnvironment(Map.of(), err, "--config", config.toString(), "--port",
        "0", "--db", "jdbc:sqlite:" + db);
    org.priodp.aggregator.dap.Report report;
    try {
      int port = awaitPort(p);
      HttpResponse<byte[]> hpke = client.send(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + port + "/hpke_config")).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(200, hpke.statusCode());
      int key = org.priodp.aggregator.dap.HpkeConfigList.decode(hpke.body()).configs().get(0)
          .id().value();
      report = LeaderFixture.report(LeaderFixture.id(1), LeaderFixture.now(), key);
      HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + port + "/tasks/" + t.taskId().toBase64Url() + "/reports"))
          .header("Content-Type", DapMediaType.UPLOAD_REQ.contentType())
          .POST(HttpRequest.BodyPublishers.ofByteArray(new org.priodp.aggregator.dap.UploadRequest(
              List.of(report)).encode())).build(), HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
      assertEquals(0, r.body().length);
      p.destroy();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "stopped within 30 s");
    } finally {
      p.destroyForcibly();
    }
    String log = Files.readString(err);
    assertTrue(log.contains("task " + t.taskId().toBase64Url() + " (leader, dap-19): POST /tasks/"
        + t.taskId().toBase64Url() + "/reports"), log);
    assertFalse(log.contains("not served"), log);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      assertArrayEquals(report.encode(), store.inTaskTransaction(t.taskId(),
          tx -> tx.clientReports().get(LeaderFixture.id(1))).orElseThrow().toByteArray());
    }
  }

  @Test
  void sigtermDrainsAndExitsZero() throws Exception {
    Path err = dir.resolve("sigterm.log");
    Process p = startWithEnvironment(Map.of(), err, "--config", config().toString(), "--port",
        "0", "--db", "jdbc:sqlite:" + dir.resolve("t.db"));
    try {
      int port = awaitPort(p);
      HttpResponse<String> health = client.send(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + port + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, health.statusCode());
      HttpResponse<byte[]> hpke = client.send(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + port + "/hpke_config")).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(200, hpke.statusCode());
      assertEquals("application/ppm-dap;message=hpke-config-list",
          hpke.headers().firstValue("Content-Type").orElseThrow());
      HttpResponse<String> interop = client.send(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + port + "/internal/test/add_task"))
          .POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(404, interop.statusCode(), "no interop test API without the flag");
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "stopped within 30 s");
    } finally {
      p.destroyForcibly();
    }
    String log = Files.readString(err);
    assertEquals(0, p.exitValue(), log);
    assertTrue(log.contains("draining requests (up to 10 s)"), log);
    assertTrue(log.contains(" stopped"), log);
    assertTrue(log.contains("report retention: keep forever"), log);
    assertFalse(log.contains("interop test API"), log);
    assertTrue(log.contains("DAP requires TLS"), "plain HTTP is warned about once: " + log);
    assertEquals(1, log.lines().filter(l -> l.contains("DAP requires TLS")).count());
    assertEquals(1, log.lines().filter(l -> l.contains("without the opt-in dp_binding")).count(),
        "a DP task without the binding is said once: " + log);
    assertEquals(1, log.lines().filter(l -> l.contains("WARN") && l.contains("has no"
        + " vdaf_verify_key")).count(), "a task that cannot aggregate is one WARN line: " + log);
  }

  @Test
  void everyOptionCanComeFromTheEnvironmentAndJsonLogsAreOneObjectPerLine() throws Exception {
    Path err = dir.resolve("env.log");
    Process p = startWithEnvironment(Map.of(
        "PRIODP_CONFIG", config().toString(),
        "PRIODP_PORT", "0",
        "PRIODP_TLS_CERT", "", // empty counts as unset
        "PRIODP_BIND", "127.0.0.1",
        "PRIODP_DB", "jdbc:sqlite:" + dir.resolve("env.db"),
        "PRIODP_LOG_FORMAT", "json"), err);
    try {
      int port = awaitPort(p);
      assertEquals(200, client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
          + "/readyz")).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
      assertEquals(404, client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
          + "/nothing")).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
      p.destroy();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    } finally {
      p.destroyForcibly();
    }
    assertEquals(0, p.exitValue());
    assertTrue(Files.exists(dir.resolve("env.db")), "PRIODP_DB was used");
    List<String> lines = Files.readAllLines(err);
    assertTrue(lines.size() >= 4, lines.toString());
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    List<String> messages = new ArrayList<>();
    for (String line : lines) {
      com.fasterxml.jackson.databind.JsonNode n = json.readTree(line);
      assertTrue(n.isObject() && n.has("level") && n.has("formattedMessage"), line);
      messages.add(n.get("formattedMessage").asText());
    }
    assertTrue(messages.contains("draining requests (up to 10 s)"), messages.toString());
    assertTrue(messages.stream().anyMatch(m -> m.startsWith("GET /nothing 404")),
        messages.toString());
  }
}
