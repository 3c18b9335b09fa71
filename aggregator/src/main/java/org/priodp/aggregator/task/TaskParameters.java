package org.priodp.aggregator.task;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The public parameters of a task (DAP-18 "Task Configuration"), what a Client needs to build
 * reports and, with the DP settings, what a Collector needs to decode: the task ID, the
 * {@link TaskConfiguration} exactly as it goes into the InputShareAad and AggregateShareAad, the
 * Prio3 variant it names, and the DP strategy and sensitivity rule. No secret. Construction
 * checks that the configuration names the variant and that every extension is one prio-dp
 * implements (a dp_binding extension must carry the digest of these DP settings).
 *
 * @param taskId the task ID
 * @param configuration the task configuration as provisioned
 * @param variant the Prio3 variant the configuration names
 * @param dpStrategy the DP strategy both aggregators apply
 * @param sensitivityRule the sensitivity rule of the strategy
 */
public record TaskParameters(TaskId taskId, TaskConfiguration configuration, Prio3Variant variant,
    DpStrategy dpStrategy, SensitivityRule sensitivityRule) {

  /** The JSON fields of the public parameters, in the task file's spelling. */
  public static final Set<String> FIELDS = Set.of("task_id", "task_info",
      "leader_aggregator_endpoint", "helper_aggregator_endpoint", "time_precision",
      "min_batch_size", "batch_mode", "extensions", "vdaf", "dp_strategy", "sensitivity_rule");

  /** Validates the parts; every problem is an IllegalArgumentException naming the field. */
  public TaskParameters {
    Objects.requireNonNull(taskId, "task_id");
    Objects.requireNonNull(configuration, "task configuration");
    Objects.requireNonNull(variant, "vdaf");
    Objects.requireNonNull(dpStrategy, "dp_strategy");
    Objects.requireNonNull(sensitivityRule, "sensitivity_rule");
    if (configuration.vdafType() != variant.algorithm().id()
        || !Arrays.equals(configuration.vdafConfiguration().toByteArray(),
            variant.vdafConfiguration())) {
      throw new IllegalArgumentException("vdaf: the task configuration does not name "
          + variant.describe());
    }
    for (TaskExtension e : configuration.extensions()) {
      if (e.extensionType() == TaskExtension.TASK_INTERVAL) {
        if (e.asTaskInterval().isEmpty()) {
          throw new IllegalArgumentException("extensions: task_interval is not a well-formed"
              + " Interval");
        }
      } else if (e.extensionType() == DpBinding.EXTENSION_TYPE) {
        if (!e.equals(DpBinding.extension(variant, dpStrategy, sensitivityRule))) {
          throw new IllegalArgumentException("extensions: the dp_binding extension does not carry"
              + " the digest of this task's VDAF and DP settings");
        }
      } else {
        throw new IllegalArgumentException("extensions: unsupported task extension type "
            + e.extensionType());
      }
    }
  }

  /** Returns the public parameters of an aggregator's task. */
  public static TaskParameters of(TaskDefinition task) {
    return new TaskParameters(task.taskId(), task.configuration(), task.variant(),
        task.dpStrategy(), task.sensitivityRule());
  }

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
  public static TaskParameters read(java.nio.file.Path file) throws java.io.IOException {
    return fromJson(TaskFile.readObject(file), "client", Set.of());
  }

  /**
   * Returns the parameters as JSON fields in the task file's format: the task_interval extension
   * in seconds (start as RFC 3339), the DP strategy in the readable shape ({@code "epsilon":
   * "1/2"}).
   */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("task_id", taskId.toBase64Url());
    n.put("task_info", new String(configuration.taskInfo().toByteArray(), StandardCharsets.UTF_8));
    n.put("leader_aggregator_endpoint", configuration.leaderAggregatorEndpoint());
    n.put("helper_aggregator_endpoint", configuration.helperAggregatorEndpoint());
    n.put("time_precision", configuration.timePrecision());
    n.put("min_batch_size", configuration.minBatchSize());
    n.put("batch_mode", configuration.batchMode() == org.priodp.aggregator.dap.BatchMode.TIME_INTERVAL
        ? "time_interval" : "leader_selected");
    var ext = n.putArray("extensions");
    for (TaskExtension e : configuration.extensions()) {
      ObjectNode o = ext.addObject();
      if (e.extensionType() == TaskExtension.TASK_INTERVAL) {
        Interval i = e.asTaskInterval().orElseThrow();
        long p = configuration.timePrecision();
        o.put("type", "task_interval");
        o.put("start", Instant.ofEpochSecond(Math.multiplyExact(i.start().value(), p)).toString());
        o.put("duration", Math.multiplyExact(i.duration().value(), p));
      } else {
        o.put("type", "dp_binding");
      }
    }
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
