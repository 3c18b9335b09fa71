package org.priodp.aggregator.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.testing.ServeProcess;

/**
 * Drives the four roles of draft-dcook-ppm-dap-interop-test-design ("Test Runner Operation")
 * only through their interop test API, as a harness does: a Leader and a Helper ({@code prio-dp
 * serve --interop-test-api}), a Client ({@code prio-dp interop-client}) and a Collector ({@code
 * prio-dp interop-collector}), each its own process. Every request and response is JSON written
 * and read here by field name (no project class builds or reads it): endpoint_for_task,
 * add_task on all four, upload, collection_start, collection_poll until complete; the aggregate
 * and report_count must be exact (no DP noise without prio-dp's opt-in).
 */
class InteropEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long PRECISION = 3600;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final List<Process> PROCESSES = new ArrayList<>();
  private static final List<String> LEADER_STDOUT = new ArrayList<>();
  private static String leader;
  private static String helper;
  private static String client;
  private static String collector;
  private static Path leaderLog;
  private static Random random;

  @TempDir
  static Path dir;

  @BeforeAll
  static void startTheFourRoles() throws Exception {
    long seed = System.nanoTime();
    System.out.println("InteropEndToEndTest seed " + seed);
    random = new Random(seed);
    leaderLog = dir.resolve("leader.log");
    leader = start(leaderLog, LEADER_STDOUT, "serve", "--interop-test-api", "--port", "0",
        "--db", "jdbc:sqlite:" + dir.resolve("leader.db"));
    helper = start(dir.resolve("helper.log"), new ArrayList<>(), "serve", "--interop-test-api",
        "--port", "0", "--db", "jdbc:sqlite:" + dir.resolve("helper.db"));
    client = start(dir.resolve("client.log"), new ArrayList<>(), "interop-client", "--port",
        "0");
    collector = start(dir.resolve("collector.log"), new ArrayList<>(), "interop-collector",
        "--port", "0");
    for (String base : List.of(leader, helper, client, collector)) {
      HttpResponse<String> ready = post(base, "ready", JSON.createObjectNode());
      assertEquals(200, ready.statusCode(), base + " ready: " + ready.body());
    }
  }

  private static String start(Path log, List<String> stdout, String... args) throws Exception {
    Process p = ServeProcess.startCommand(log, List.of(args));
    PROCESSES.add(p);
    return "http://127.0.0.1:" + ServeProcess.awaitPort(p, stdout) + "/";
  }

  @AfterAll
  static void stop() throws InterruptedException {
    for (Process p : PROCESSES) {
      ServeProcess.stop(p);
    }
  }

  @Test
  void theLeaderSaysLoudlyThatTheTestApiIsOn() throws Exception {
    assertTrue(LEADER_STDOUT.stream().anyMatch(l -> l.contains("WARNING")
        && l.contains("unauthenticated interop test API") && l.contains("never be exposed in"
        + " production")), LEADER_STDOUT.toString());
    String log = Files.readString(leaderLog);
    assertTrue(log.lines().anyMatch(l -> l.contains("WARN") && l.contains("UNAUTHENTICATED"
        + " interop test API")), log);
  }

  @Test
  void prio3CountOverATimeInterval() throws Exception {
    int n = 10;
    JsonNode result = run(vdaf("Prio3Count"), 1, n, i -> JSON.getNodeFactory().textNode(
        String.valueOf(i % 3 == 0 ? 1 : 0)));
    assertEquals("4", result.get("result").asText(), result.toString());
  }

  @Test
  void prio3HistogramInALeaderSelectedBatch() throws Exception {
    ObjectNode vdaf = vdaf("Prio3Histogram").put("length", "4").put("chunk_length", "2");
    int n = 6;
    JsonNode result = run(vdaf, 2, n, i -> JSON.getNodeFactory().textNode(String.valueOf(i % 4)));
    assertEquals(List.of("2", "2", "1", "1"), strings(result.get("result")), result.toString());
  }

  @Test
  void prio3SumVecWithTheDraftsBitsOverATimeInterval() throws Exception {
    ObjectNode vdaf = vdaf("Prio3SumVec").put("bits", "3").put("length", "3")
        .put("chunk_length", "2");
    int n = 5;
    JsonNode result = run(vdaf, 1, n, i -> {
      ArrayNode m = JSON.createArrayNode();
      m.add(String.valueOf(i)).add("7").add("0");
      return m;
    });
    assertEquals(List.of("10", "35", "0"), strings(result.get("result")), result.toString());
  }

  /**
   * Runs one task through the four roles: {@code n} measurements {@code measurement.apply(i)}
   * under batch mode {@code mode} with min_batch_size {@code n}; returns the complete poll.
   */
  private JsonNode run(ObjectNode vdaf, int mode, int n, IntFunction<JsonNode> measurement)
      throws Exception {
    String taskId = b64(bytes(32));
    String aggregatorToken = b64(bytes(16));
    String collectorToken = b64(bytes(16));
    String verifyKey = b64(bytes(32));
    for (String[] agg : new String[][] {{leader, "leader"}, {helper, "helper"}}) {
      JsonNode e = ok(post(agg[0], "endpoint_for_task", JSON.createObjectNode()
          .put("task_id", taskId).put("role", agg[1]).put("hostname", "127.0.0.1")));
      assertEquals("/", e.get("endpoint").asText());
    }
    ObjectNode collectorTask = JSON.createObjectNode().put("task_id", taskId)
        .put("leader", leader).put("collector_authentication_token", collectorToken)
        .put("batch_mode", mode)
        // what the draft gives only the aggregators, but DAP-18 binds into the AAD
        .put("helper", helper).put("time_precision", PRECISION).put("min_batch_size", n);
    collectorTask.set("vdaf", vdaf);
    String hpkeConfig = ok(post(collector, "add_task", collectorTask))
        .get("collector_hpke_config").asText();
    for (String role : List.of("leader", "helper")) {
      ObjectNode task = JSON.createObjectNode().put("task_id", taskId).put("leader", leader)
          .put("helper", helper).put("leader_authentication_token", aggregatorToken)
          .put("role", role).put("vdaf_verify_key", verifyKey).put("max_batch_query_count", 1)
          .put("batch_mode", mode).put("min_batch_size", n).put("time_precision", PRECISION)
          .put("collector_hpke_config", hpkeConfig)
          .put("task_expiration", Instant.now().getEpochSecond() + 86400);
      task.set("vdaf", vdaf);
      if (role.equals("leader")) {
        task.put("collector_authentication_token", collectorToken);
      }
      ok(post(role.equals("leader") ? leader : helper, "add_task", task));
    }
    // reports two hours ago, so that the time_interval batch has ended
    long start = (Instant.now().getEpochSecond() / PRECISION - 2) * PRECISION;
    for (int i = 0; i < n; i++) {
      ObjectNode upload = JSON.createObjectNode().put("task_id", taskId).put("leader", leader)
          .put("helper", helper).put("time", start + 60 + i).put("time_precision", PRECISION)
          .put("min_batch_size", n).put("batch_mode", mode);
      upload.set("vdaf", vdaf);
      upload.set("measurement", measurement.apply(i));
      ok(post(client, "upload", upload));
    }
    ObjectNode query = JSON.createObjectNode().put("batch_mode", mode);
    if (mode == 1) {
      query.put("batch_interval_start", start).put("batch_interval_duration", PRECISION);
    }
    ObjectNode collect = JSON.createObjectNode().put("task_id", taskId).put("agg_param", "");
    collect.set("query", query);
    String handle = ok(post(collector, "collection_start", collect)).get("handle").asText();
    Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
    while (true) {
      HttpResponse<String> r = post(collector, "collection_poll",
          JSON.createObjectNode().put("handle", handle));
      assertEquals(200, r.statusCode(), r.body());
      JsonNode poll = JSON.readTree(r.body());
      String status = poll.get("status").asText();
      if (status.equals("complete")) {
        assertEquals(n, poll.get("report_count").asLong(), poll.toString());
        if (mode == 1) {
          assertEquals(start, poll.get("interval_start").asLong(), poll.toString());
          assertEquals(PRECISION, poll.get("interval_duration").asLong(), poll.toString());
        }
        return poll;
      }
      assertEquals("in progress", status, poll.toString());
      assertTrue(Instant.now().isBefore(deadline), "not complete within 3 minutes");
      Thread.sleep(250);
    }
  }

  private static ObjectNode vdaf(String type) {
    return JSON.createObjectNode().put("type", type);
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(v -> out.add(v.asText()));
    return out;
  }

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private static String b64(byte[] b) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** Asserts a 200 with {"status": "success"} and returns the body. */
  private static JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
    JsonNode body = JSON.readTree(r.body());
    assertEquals("success", body.path("status").asText(), r.body());
    return body;
  }

  static HttpResponse<String> post(String base, String endpoint, JsonNode body)
      throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(base + "internal/test/" + endpoint))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
