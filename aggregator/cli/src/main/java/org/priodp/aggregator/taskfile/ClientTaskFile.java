package org.priodp.aggregator.taskfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * Reads and writes a task's public parameters in the task file's JSON format (docs/DAP.md "Task
 * file"): a Client's task file (client.json) is exactly these fields.
 */
public final class ClientTaskFile {
  /** The JSON fields of the public parameters, in the task file's spelling. */
  public static final Set<String> FIELDS = Set.of("task_id", "dap_version", "task_info",
      "leader_aggregator_endpoint", "helper_aggregator_endpoint", "time_precision",
      "min_batch_size", "batch_mode", "extensions", "vdaf", "dp_strategy", "sensitivity_rule",
      AttributionJson.CODE_POINTS);

  private ClientTaskFile() {}

  /**
   * Reads the parameters from the fields of a JSON object in the task file's format (see
   * docs/DAP.md "Task file"); {@code otherFields} are the object's other fields, which this
   * ignores, and any field in neither set is refused. Every problem is an
   * IllegalArgumentException whose message starts with {@code path}.
   */
  public static TaskParameters fromJson(JsonNode object, String path, Set<String> otherFields) {
    return TaskFile.parameters(object, path, otherFields);
  }

  /**
   * Reads a Client's task file (client.json, written by {@code prio-dp task new}): a JSON object
   * holding exactly the public parameters. Errors start with the field's name.
   */
  public static TaskParameters read(Path file) throws IOException {
    JsonNode n = TaskFile.readObject(file);
    TaskFile.requireKind(n, file, TaskFile.CLIENT_FILE,
        "upload needs the Client's (client.json, written by task new)");
    return fromJson(n, "client", Set.of());
  }

  /**
   * Returns the parameters as JSON fields in the task file's format: the task_interval extension
   * in seconds (start as RFC 3339), the DP strategy in the readable shape ({@code "epsilon":
   * "1/2"}).
   */
  public static ObjectNode toJson(TaskParameters parameters) {
    TaskId taskId = parameters.taskId();
    TaskConfiguration configuration = parameters.configuration();
    Prio3Variant variant = parameters.variant();
    DpStrategy dpStrategy = parameters.dpStrategy();
    SensitivityRule sensitivityRule = parameters.sensitivityRule();
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("task_id", taskId.toBase64Url());
    n.put("dap_version", parameters.dapVersion().tag());
    n.put("task_info", new String(configuration.taskInfo().toByteArray(), StandardCharsets.UTF_8));
    n.put("leader_aggregator_endpoint", configuration.leaderAggregatorEndpoint());
    n.put("helper_aggregator_endpoint", configuration.helperAggregatorEndpoint());
    n.put("time_precision", configuration.timePrecision());
    n.put("min_batch_size", configuration.minBatchSize());
    n.put("batch_mode", configuration.batchMode().specName());
    var ext = n.putArray("extensions");
    for (TaskExtension e : configuration.extensions()) {
      ObjectNode o = ext.addObject();
      if (e.extensionType() == TaskExtension.TASK_INTERVAL) {
        Interval i = e.asTaskInterval().orElseThrow();
        long p = configuration.timePrecision();
        o.put("type", "task_interval");
        o.put("start", Instant.ofEpochSecond(Math.multiplyExact(i.start().value(), p)).toString());
        o.put("duration", Math.multiplyExact(i.duration().value(), p));
      } else if (!AttributionJson.write(e, parameters.attributionCodePoints(), o)) {
        o.put("type", "dp_binding");
      }
    }
    AttributionJson.writeCodePoints(parameters.attributionCodePoints(), n);
    ObjectNode vdaf = n.putObject("vdaf");
    vdaf.put("type", variant.specName());
    for (Map.Entry<String, String> p : variant.parameters().entrySet()) {
      vdaf.put(p.getKey(), new java.math.BigInteger(p.getValue()));
    }
    ObjectNode dp = n.putObject("dp_strategy");
    dp.put("dp_strategy", dpStrategy.name());
    dpStrategy.parameters().forEach(dp::put);
    n.put("sensitivity_rule", sensitivityRule.spelling());
    return n;
  }
}
