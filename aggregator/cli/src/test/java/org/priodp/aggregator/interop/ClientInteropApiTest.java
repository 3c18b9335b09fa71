package org.priodp.aggregator.interop;

import static org.priodp.aggregator.interop.InteropApiTest.assertError;
import static org.priodp.aggregator.interop.InteropApiTest.post;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class ClientInteropApiTest {
  private final ClientInteropApi api = new ClientInteropApi(HttpClient.newHttpClient(),
      new SecureRandom());

  /** An upload whose aggregators do not listen (port 9 is discard; nothing answers there). */
  private static ObjectNode upload() {
    ObjectNode n = InteropApiTest.JSON.createObjectNode()
        .put("task_id", AggregatorInteropApiTest.TASK_ID)
        .put("leader", "http://127.0.0.1:9/").put("helper", "http://127.0.0.1:9/")
        .put("measurement", "1").put("time_precision", 3600).put("min_batch_size", 10)
        .put("batch_mode", 1);
    n.putObject("vdaf").put("type", "Prio3Count");
    return n;
  }

  @Test
  void theTaskConfigurationFieldsTheDraftLeavesOutAreRequired() throws Exception {
    ObjectNode u = upload();
    u.remove("min_batch_size");
    assertError(post(api, "upload", u.toString()), "min_batch_size: missing; prio-dp's Client"
        + " needs it because DAP-18 seals every share over the whole TaskConfiguration");
    u = upload();
    u.remove("batch_mode");
    assertError(post(api, "upload", u.toString()), "batch_mode: missing");
  }

  @Test
  void aMeasurementOutsideTheVdafIsNamed() throws Exception {
    assertError(post(api, "upload", upload().put("measurement", "2").toString()),
        "measurement: ");
    assertError(post(api, "upload", upload().put("measurement", "-1").toString()),
        "measurement: expected a decimal string");
    ObjectNode vec = upload();
    vec.putObject("vdaf").put("type", "Prio3SumVec").put("bits", "2").put("length", "2")
        .put("chunk_length", "1");
    vec.putArray("measurement").add("1").add("4");
    assertError(post(api, "upload", vec.toString()), "measurement: ");
    vec.putArray("measurement").add("1").add(true);
    assertError(post(api, "upload", vec.toString()), "measurement[1]: expected a decimal string");
  }

  @Test
  void anUnreachableLeaderIsAnErrorNotAFailure() throws Exception {
    assertError(post(api, "upload", upload().toString()), "");
  }
}
