package org.priodp.aggregator.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.interop.InteropApi.Request;
import org.priodp.aggregator.server.TaskRoutes;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.taskfile.DpSettingsJson;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;
import org.priodp.vdaf.dp.UnshardResult;

/**
 * Turns the interoperation test API's task fields (draft-dcook-ppm-dap-interop-test-design,
 * "Common Structures": the VDAF object, the batch mode) into prio-dp's task parameters, the same
 * way for the Client, the Collector and both aggregators, so that the four build the identical
 * DAP-19 {@code TaskConfiguration} that goes into the HPKE AAD ("Task Configuration"). This is
 * the one place where the interop API chooses how a task is made: its DAP version ({@link
 * #DAP_VERSION}), its task_info when none is sent ({@link #DEFAULT_TASK_INFO}), no task
 * extension, and no DP noise unless the request opts in with prio-dp's {@code "prio_dp"} object.
 */
final class InteropTasks {
  /** The DAP version of every task the interop API creates: DAP-19, the harness's draft. */
  static final DapVersion DAP_VERSION = DapVersion.DAP_19;
  /**
   * The task_info of a task whose request has no {@code "task_info"}: the draft gives none to any
   * party, and DAP binds it into the AAD, so all four parties use this one.
   */
  static final String DEFAULT_TASK_INFO = "interop";
  /** The keys of prio-dp's own {@code "prio_dp"} object. */
  private static final Set<String> PRIO_DP_FIELDS = Set.of("dp_strategy");

  private InteropTasks() {
  }

  /**
   * Reads the VDAF object ("Common Structures", VDAF): {@code type} one of Prio3Count,
   * Prio3Sum, Prio3SumVec, Prio3Histogram, Prio3MultihotCountVec, with its parameters as decimal
   * strings (or JSON integers): Prio3Sum max_measurement; Prio3SumVec length, chunk_length and
   * max_measurement (VDAF-20) or bits (the draft; max_measurement = 2^bits - 1);
   * Prio3Histogram length and chunk_length; Prio3MultihotCountVec length, max_weight and
   * chunk_length. Prio3Sum's older {@code bits} is read the same way. Beyond the interop design,
   * which predates it, Prio3L1BoundSum (draft-ietf-ppm-l1-bound-sum-02) with length, max_value
   * and chunk_length. Any other key is refused.
   */
  static Prio3Variant vdaf(Request request) {
    Request v = request.object("vdaf");
    String type = v.text("type");
    List<String> known = List.of("Prio3Count", "Prio3Sum", "Prio3SumVec", "Prio3Histogram",
        "Prio3MultihotCountVec", "Prio3L1BoundSum");
    if (!known.contains(type)) {
      throw new IllegalArgumentException(v.name("type") + ": unsupported VDAF \"" + type
          + "\" (prio-dp serves " + String.join(", ", known) + ")");
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    for (String field : v.fields()) {
      if (field.equals("type")) {
        continue;
      }
      if (field.equals("bits") && (type.equals("Prio3Sum") || type.equals("Prio3SumVec"))) {
        long bits = v.number("bits");
        if (bits < 1 || bits > 64) {
          throw new IllegalArgumentException(v.name("bits") + ": expected 1 to 64, got " + bits);
        }
        String max = BigInteger.ONE.shiftLeft((int) bits).subtract(BigInteger.ONE).toString();
        String given = parameters.put("max_measurement", max);
        if (given != null && !given.equals(max)) {
          throw new IllegalArgumentException(v.name("bits") + ": 2^" + bits + " - 1 is not the"
              + " max_measurement " + given);
        }
        continue;
      }
      List<String> takes = Prio3Variant.parameterNames(type);
      if (!takes.contains(field)) {
        throw new IllegalArgumentException(v.name(field) + ": does not apply to " + type + " ("
            + (takes.isEmpty() ? "it takes no parameter" : "it takes "
            + String.join(", ", takes)) + ")");
      }
      String value = v.bigNumber(field).toString();
      String given = parameters.put(field, value);
      if (given != null && !given.equals(value)) {
        throw new IllegalArgumentException(v.name(field) + ": " + value + " disagrees with bits");
      }
    }
    try {
      return Prio3Variant.parse(type, parameters);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(request.name("vdaf") + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads the batch mode ("Batch Mode": the DAP BatchMode code, 1 time_interval or 2
   * leader_selected) from {@code batch_mode}, or from the older {@code query_type}.
   */
  static BatchMode batchMode(Request request) {
    String field = request.has("batch_mode") || !request.has("query_type") ? "batch_mode"
        : "query_type";
    long code = request.number(field);
    if (code == 1) {
      return BatchMode.TIME_INTERVAL;
    }
    if (code == 2) {
      return BatchMode.LEADER_SELECTED;
    }
    throw new IllegalArgumentException(request.name(field) + ": expected 1 (time_interval) or 2"
        + " (leader_selected), got " + code);
  }

  /** Reads an aggregator endpoint URL: absolute http or https, without query or fragment. */
  static String endpoint(Request request, String field) {
    String url = request.text(field);
    try {
      TaskRoutes.basePath(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(request.name(field) + ": " + e.getMessage(), e);
    }
    return url;
  }

  /**
   * Reads the DP strategy: prio-dp's opt-in {@code "prio_dp": {"dp_strategy": {...}}} (the task
   * file's shape, docs/DAP.md), else no noise, so that the harness sees exact aggregates.
   */
  static DpStrategy dpStrategy(Request request) {
    if (!request.has("prio_dp")) {
      return new DpStrategy.NoDifferentialPrivacy();
    }
    Request p = request.object("prio_dp");
    p.only(PRIO_DP_FIELDS);
    return DpSettingsJson.dpStrategy(p.need("dp_strategy"), p.name("dp_strategy"));
  }

  /**
   * Returns the task's public parameters from the fields every party is given or defaults:
   * {@code task_id}, the two endpoints, the VDAF, the time precision, min_batch_size, the batch
   * mode, {@code task_info} (base64url; default {@link #DEFAULT_TASK_INFO}) and the DP opt-in.
   * This is where a task's DAP version is chosen ({@link #DAP_VERSION}).
   */
  static TaskParameters parameters(Request request, String leader, String helper,
      Prio3Variant variant, long timePrecision, long minBatchSize, BatchMode mode) {
    if (timePrecision == 0) {
      throw new IllegalArgumentException(request.name("time_precision") + ": must be positive");
    }
    byte[] info = request.has("task_info") ? request.base64Url("task_info")
        : DEFAULT_TASK_INFO.getBytes(StandardCharsets.US_ASCII);
    if (info.length < DAP_VERSION.taskInfoMinLength() || info.length > 255) {
      throw new IllegalArgumentException(request.name("task_info") + ": " + info.length
          + " bytes, " + DAP_VERSION.tag() + " takes " + DAP_VERSION.taskInfoMinLength()
          + " to 255");
    }
    DpStrategy strategy = dpStrategy(request);
    TaskConfiguration config = TaskDefinition.configurationFor(variant, info, leader, helper,
        timePrecision, minBatchSize, mode, List.of());
    return new TaskParameters(request.taskId(), DAP_VERSION, config, variant, strategy,
        SensitivityRule.PRIODP);
  }

  /**
   * Refuses a request of {@code party} (the Client or the Collector) that lacks one of {@code
   * fields}, which the draft gives only the aggregators but which DAP-18 binds into the HPKE AAD
   * of every share ("Task Configuration"): without them this party could not build the same
   * TaskConfiguration. {@code batch_mode} may come as the older {@code query_type}.
   */
  static void requireForAad(Request request, String party, String... fields) {
    for (String field : fields) {
      if (!request.has(field) && !(field.equals("batch_mode") && request.has("query_type"))) {
        throw new IllegalArgumentException(request.name(field) + ": missing; prio-dp's " + party
            + " needs it because DAP-18 seals every share over the whole TaskConfiguration"
            + " (send the value the aggregators got)");
      }
    }
  }

  /**
   * Reads a measurement ("Client", upload): a decimal string (or JSON integer) for Prio3Count
   * (0 or 1), Prio3Sum and Prio3Histogram (the bucket index), an array of them for Prio3SumVec,
   * Prio3MultihotCountVec and Prio3L1BoundSum; {@link Prio3Variant#parseMeasurement} checks the
   * range.
   */
  static List<BigInteger> measurement(Request request, Prio3Variant variant) {
    JsonNode m = request.need("measurement");
    String text;
    if (m.isArray()) {
      List<String> parts = new ArrayList<>();
      for (int i = 0; i < m.size(); i++) {
        parts.add(element(m.get(i), request.name("measurement") + "[" + i + "]"));
      }
      text = String.join(",", parts);
    } else {
      text = element(m, request.name("measurement"));
    }
    try {
      return variant.parseMeasurement(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(request.name("measurement") + ": " + e.getMessage(), e);
    }
  }

  private static String element(JsonNode n, String name) {
    if (n.isIntegralNumber() && n.bigIntegerValue().signum() >= 0) {
      return n.bigIntegerValue().toString();
    }
    if (n.isTextual() && n.asText().matches("[0-9]{1,40}")) {
      return n.asText();
    }
    throw new IllegalArgumentException(name + ": expected a decimal string");
  }

  /**
   * Returns the aggregate as the draft writes it ("Collector", collection_poll): a decimal string
   * for Prio3Count and Prio3Sum, an array of decimal strings otherwise. Without DP these are the
   * exact sums; with the opt-in they are the noised estimates.
   */
  static JsonNode result(UnshardResult result) {
    String name = result.variant().algorithm().specName();
    List<BigInteger> values = result.estimates();
    if (name.equals("Prio3Count") || name.equals("Prio3Sum")) {
      return InteropApi.JSON.getNodeFactory().textNode(values.get(0).toString());
    }
    ArrayNode a = InteropApi.JSON.createArrayNode();
    values.forEach(v -> a.add(v.toString()));
    return a;
  }
}
