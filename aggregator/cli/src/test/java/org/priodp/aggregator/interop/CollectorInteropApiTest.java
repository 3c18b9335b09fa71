package org.priodp.aggregator.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.interop.InteropApiTest.assertError;
import static org.priodp.aggregator.interop.InteropApiTest.body;
import static org.priodp.aggregator.interop.InteropApiTest.post;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.HpkeConfig;

class CollectorInteropApiTest {
  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final CollectorInteropApi api = new CollectorInteropApi(HttpClient.newHttpClient(),
      new SecureRandom(), pool);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  private static ObjectNode addTask() {
    ObjectNode n = InteropApiTest.JSON.createObjectNode()
        .put("task_id", AggregatorInteropApiTest.TASK_ID).put("leader", "http://127.0.0.1:9/")
        .put("collector_authentication_token", "collector-token").put("batch_mode", 1)
        .put("helper", "http://127.0.0.1:9/").put("time_precision", 3600)
        .put("min_batch_size", 10);
    n.putObject("vdaf").put("type", "Prio3Count");
    return n;
  }

  private static String start(String query) {
    return "{\"task_id\": \"" + AggregatorInteropApiTest.TASK_ID + "\", \"agg_param\": \"\","
        + " \"query\": " + query + "}";
  }

  @Test
  void addTaskAnswersAnHpkeConfigOfTheMandatorySuiteOnce() throws Exception {
    JsonNode n = body(post(api, "add_task", addTask().toString()), 200);
    assertEquals("success", n.get("status").asText(), n.toString());
    HpkeConfig c = HpkeConfig.decode(Base64.getUrlDecoder().decode(
        n.get("collector_hpke_config").asText()));
    assertTrue(c.isSupported());
    assertEquals(org.priodp.aggregator.hpke.HpkeKemId.DHKEM_X25519_HKDF_SHA256, c.kem().orElseThrow());
    assertError(post(api, "add_task", addTask().toString()), "task_id: task ");
  }

  @Test
  void theTaskConfigurationFieldsTheDraftLeavesOutAreRequired() throws Exception {
    for (String field : new String[] {"helper", "time_precision", "min_batch_size"}) {
      ObjectNode n = addTask();
      n.remove(field);
      assertError(post(api, "add_task", n.toString()), field + ": missing; prio-dp's Collector"
          + " needs it");
    }
  }

  @Test
  void collectionStartAndPollRefuseWhatTheyCannotRun() throws Exception {
    assertError(post(api, "collection_start", start("{\"batch_mode\": 2}")),
        "task_id: task " + AggregatorInteropApiTest.TASK_ID + " was not added");
    body(post(api, "add_task", addTask().toString()), 200);
    assertError(post(api, "collection_start", start("{\"batch_mode\": 2}")),
        "query: the task's batch mode is time_interval, the query's leader_selected");
    assertError(post(api, "collection_start", start("{\"type\": 1, \"batch_interval_start\":"
        + " 7200, \"batch_interval_duration\": 100}")),
        "query.batch_interval.duration: 100 s is not a multiple of the time_precision");
    assertError(post(api, "collection_start", start("{\"batch_mode\": 1}")),
        "query.batch_interval_start: missing");
    assertError(post(api, "collection_start", start("{\"batch_mode\": 9}")),
        "query.batch_mode: expected 1 (time_interval) or 2 (leader_selected), got 9");
    assertError(post(api, "collection_start", start("{\"batch_mode\": 1}").replace(
        "\"agg_param\": \"\"", "\"agg_param\": \"AA\"")), "agg_param: Prio3 takes no");
    assertError(post(api, "collection_poll", "{\"handle\": \"nope\"}"),
        "handle: no collection job nope");
  }

  @Test
  void aCollectionThatFailsIsPolledAsAnError() throws Exception {
    body(post(api, "add_task", addTask().toString()), 200);
    JsonNode started = body(post(api, "collection_start", start("{\"batch_mode\": 1,"
        + " \"batch_interval_start\": 7200, \"batch_interval_duration\": 3600}")), 200);
    String handle = started.get("handle").asText();
    JsonNode poll;
    do {
      poll = body(post(api, "collection_poll", "{\"handle\": \"" + handle + "\"}"), 200);
    } while (poll.get("status").asText().equals("in progress"));
    assertEquals("error", poll.get("status").asText(), poll.toString());
    assertTrue(poll.get("error").asText().startsWith("the collection failed: "), poll.toString());
  }
}
