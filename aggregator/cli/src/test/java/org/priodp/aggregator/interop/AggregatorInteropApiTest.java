package org.priodp.aggregator.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.interop.InteropApiTest.assertError;
import static org.priodp.aggregator.interop.InteropApiTest.body;
import static org.priodp.aggregator.interop.InteropApiTest.post;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.server.TaskRegistry;

class AggregatorInteropApiTest {
  static final String TASK_ID = "A".repeat(43);

  /** Returns a base64url HpkeConfig of the mandatory suite (the Collector's add_task answer). */
  static String collectorConfig() {
    byte[] ikm = new byte[32];
    Arrays.fill(ikm, (byte) 5);
    HpkeSuite s = HpkeSuite.DAP_MANDATORY;
    HpkeConfig c = new HpkeConfig(new HpkeConfigId(9), s.kem(), s.kdf(), s.aead(),
        new Hpke(s).deriveKeyPair(ikm).publicKey());
    return Base64.getUrlEncoder().withoutPadding().encodeToString(c.encode());
  }

  /** Returns a valid add_task request for {@code role}, as the draft's harness writes it. */
  static ObjectNode addTask(String role) {
    ObjectNode n = InteropApiTest.JSON.createObjectNode().put("task_id", TASK_ID)
        .put("leader", "http://leader:8080/").put("helper", "http://helper:8080/")
        .put("leader_authentication_token", "aggregator-token").put("role", role)
        .put("vdaf_verify_key", Base64.getUrlEncoder().withoutPadding()
            .encodeToString(new byte[32]))
        .put("max_batch_query_count", 1).put("batch_mode", 1).put("min_batch_size", 10)
        .put("time_precision", 3600).put("collector_hpke_config", collectorConfig())
        .put("task_start", 0).put("task_duration", 86400);
    n.putObject("vdaf").put("type", "Prio3Count");
    if (role.equals("leader")) {
      n.put("collector_authentication_token", "collector-token");
    }
    return n;
  }

  private final TaskRegistry tasks = new TaskRegistry(List.of());
  private final AggregatorInteropApi api = new AggregatorInteropApi(tasks);

  @Test
  void endpointForTaskIsTheRoot() throws Exception {
    var n = body(post(api, "endpoint_for_task", "{\"task_id\": \"" + TASK_ID
        + "\", \"role\": \"helper\", \"hostname\": \"helper\"}"), 200);
    assertEquals("success", n.get("status").asText());
    assertEquals("/", n.get("endpoint").asText());
    assertError(post(api, "endpoint_for_task", "{\"task_id\": \"" + TASK_ID
        + "\", \"role\": \"collector\"}"), "role: expected \"leader\" or \"helper\"");
  }

  @Test
  void addTaskServesTheTaskWithoutNoiseAndOnlyOnce() throws Exception {
    assertEquals("success", body(post(api, "add_task", addTask("leader").toString()), 200)
        .get("status").asText());
    TaskDefinition t = tasks.tasks().get(0);
    assertEquals(Role.LEADER, t.role());
    assertEquals(BatchMode.TIME_INTERVAL, t.configuration().batchMode());
    assertEquals(3600, t.configuration().timePrecision());
    assertEquals(10, t.configuration().minBatchSize());
    assertTrue(t.configuration().extensions().isEmpty(), "task_start/task_duration ignored");
    assertTrue(!t.mechanism().addsNoise(), "no DP noise without the prio_dp opt-in");
    assertTrue(t.collectorAuthToken().isPresent());
    assertEquals(List.of(t), tasks.leaderTasks());
    assertError(post(api, "add_task", addTask("leader").toString()),
        "task_id: task " + TASK_ID + " is already served here");
  }

  @Test
  void aHelperTaskIgnoresTheCollectorToken() throws Exception {
    ObjectNode helper = addTask("helper").put("collector_authentication_token", "x");
    assertEquals("success", body(post(api, "add_task", helper.toString()), 200)
        .get("status").asText());
    assertTrue(tasks.tasks().get(0).collectorAuthToken().isEmpty());
  }

  @Test
  void badFieldsAreNamed() throws Exception {
    String[][] cases = {
      {"role", "\"observer\"", "role: expected \"leader\" or \"helper\", got \"observer\""},
      {"leader", "\"ftp://x/\"", "leader: must be an absolute http or https URL"},
      {"helper", "null", "helper: missing"},
      {"batch_mode", "3", "batch_mode: expected 1 (time_interval) or 2 (leader_selected)"},
      {"time_precision", "0", "time_precision: must be positive"},
      {"min_batch_size", "-1", "min_batch_size: expected an unsigned integer"},
      {"max_batch_query_count", "2", "max_batch_query_count: prio-dp releases each batch once"},
      {"vdaf_verify_key", "\"AAAA\"", "vdaf_verify_key: 3 bytes, Prio3 needs 32"},
      {"collector_hpke_config", "\"AAAA\"", "collector_hpke_config: not an encoded HpkeConfig"},
      {"leader_authentication_token", "\"a b\"", "leader_authentication_token: auth token"},
      {"collector_authentication_token", "null", "collector_authentication_token: missing"},
      {"vdaf", "{\"type\": \"Poplar1\", \"bits\": \"8\"}", "vdaf.type: unsupported VDAF"},
      {"vdaf", "{\"type\": \"Prio3Histogram\", \"buckets\": [\"1\"]}",
        "vdaf.buckets: does not apply to Prio3Histogram (it takes length, chunk_length)"},
      {"vdaf", "{\"type\": \"Prio3Sum\", \"max_measurement\": \"x\"}",
        "vdaf.max_measurement: expected an unsigned integer"},
      {"prio_dp", "{\"dp\": 1}", "prio_dp.dp: unknown field"},
      {"prio_dp", "{\"dp_strategy\": {\"dp_strategy\": \"Magic\"}}",
        "prio_dp.dp_strategy.dp_strategy: unknown strategy"},
      // DAP-19's task_info<0..2^8-1>: 256 bytes (342 base64url characters) is too long
      {"task_info", "\"" + "A".repeat(342) + "\"", "task_info: 256 bytes"},
    };
    for (String[] c : cases) {
      ObjectNode req = addTask("leader");
      req.set(c[0], InteropApiTest.JSON.readTree(c[1]));
      assertError(post(api, "add_task", req.toString()), c[2]);
    }
    assertTrue(tasks.tasks().isEmpty(), "no bad request added a task");
  }

  @Test
  void theDpOptInAddsNoise() throws Exception {
    ObjectNode req = addTask("helper");
    req.putObject("prio_dp").putObject("dp_strategy")
        .put("dp_strategy", "PureDpDiscreteLaplace").put("epsilon", "1");
    assertEquals("success", body(post(api, "add_task", req.toString()), 200)
        .get("status").asText());
    assertTrue(tasks.tasks().get(0).mechanism().addsNoise());
  }
}
