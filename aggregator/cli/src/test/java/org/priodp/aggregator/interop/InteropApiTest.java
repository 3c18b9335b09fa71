package org.priodp.aggregator.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.server.HttpReply;
import org.priodp.aggregator.server.TaskRegistry;

class InteropApiTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** POSTs {@code json} to {@code /internal/test/endpoint} and returns the reply. */
  static HttpReply post(InteropApi api, String endpoint, String json) {
    return api.handle("POST", InteropApi.PREFIX + endpoint, "application/json",
        json.getBytes(StandardCharsets.UTF_8));
  }

  /** Returns the reply's JSON body after checking the status and the media type. */
  static JsonNode body(HttpReply r, int status) throws Exception {
    assertEquals(status, r.status(), new String(r.body(), StandardCharsets.UTF_8));
    assertEquals("application/json", r.contentType());
    return JSON.readTree(r.body());
  }

  /** Asserts a 200 {"status": "error"} whose message starts with {@code prefix}. */
  static String assertError(HttpReply r, String prefix) throws Exception {
    JsonNode n = body(r, 200);
    assertEquals("error", n.get("status").asText(), n.toString());
    String error = n.get("error").asText();
    assertTrue(error.startsWith(prefix), "expected \"" + prefix + "...\", got: " + error);
    return error;
  }

  private final InteropApi api = new AggregatorInteropApi(new TaskRegistry(List.of()));

  @Test
  void readyAnswersAnEmptyObjectWithOrWithoutABody() throws Exception {
    assertEquals("{}", body(post(api, "ready", "{}"), 200).toString());
    assertEquals("{}", body(api.handle("POST", "/internal/test/ready", null, new byte[0]), 200)
        .toString());
  }

  @Test
  void anUnknownEndpointIs404AndAnotherMethod405() throws Exception {
    JsonNode n = body(post(api, "fetch_batch_ids", "{}"), 404);
    assertEquals("error", n.get("status").asText());
    assertTrue(n.get("error").asText().contains("ready, endpoint_for_task, add_task"), n.toString());
    HttpReply get = api.handle("GET", "/internal/test/ready", null, null);
    body(get, 405);
    assertEquals("POST", get.headers().get("Allow"));
    assertEquals("/internal/test/add_task", api.routeOf("/internal/test/add_task"));
    assertEquals("/internal/test/{unknown}", api.routeOf("/internal/test/x/y"));
  }

  @Test
  void aBodyThatIsNotOneJsonObjectIs400() throws Exception {
    JsonNode n = body(post(api, "add_task", "{\"task_id\": "), 400);
    assertTrue(n.get("error").asText().startsWith("body: not JSON"), n.toString());
    n = body(post(api, "add_task", "[1, 2]"), 400);
    assertEquals("body: expected a JSON object, got an array", n.get("error").asText());
    body(post(api, "add_task", "\"x\""), 400);
  }

  @Test
  void aBadFieldIsNamedWithItsPath() throws Exception {
    assertError(post(api, "endpoint_for_task", "{}"), "task_id: missing");
    assertError(post(api, "endpoint_for_task", "{\"task_id\": 7}"),
        "task_id: expected a string, got a number");
    assertError(post(api, "endpoint_for_task", "{\"task_id\": \"a+b/\"}"),
        "task_id: not base64url");
    assertError(post(api, "endpoint_for_task", "{\"task_id\": \"AAAA\"}"),
        "task_id: 3 bytes, a DAP TaskID has 32");
  }
}
