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

  /**
   * Prio3L1BoundSum, beyond the interop design's VDAF list: its parameters are read, a
   * measurement over max_value is named, and one at the bound gets as far as the Leader.
   */
  @Test
  void l1BoundSumIsReadWithItsParameters() throws Exception {
    ObjectNode l1 = upload();
    l1.putObject("vdaf").put("type", "Prio3L1BoundSum").put("length", "3").put("max_value", "10")
        .put("chunk_length", "2");
    l1.putArray("measurement").add("5").add("5").add("1");
    assertError(post(api, "upload", l1.toString()), "measurement: the sum 11 exceeds max_value 10");
    l1.putArray("measurement").add("5").add("0").add("5");
    String unreachable = assertError(post(api, "upload", l1.toString()), "");
    org.junit.jupiter.api.Assertions.assertFalse(unreachable.startsWith("measurement"), unreachable);
    l1.putObject("vdaf").put("type", "Prio3L1BoundSum").put("length", "3").put("max_measurement", "10")
        .put("chunk_length", "2");
    assertError(post(api, "upload", l1.toString()), "vdaf.max_measurement: does not apply to Prio3L1BoundSum");
  }

  @Test
  void anUnreachableLeaderIsAnErrorNotAFailure() throws Exception {
    assertError(post(api, "upload", upload().toString()), "");
  }
}
