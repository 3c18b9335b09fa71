package org.priodp.aggregator.task;

import java.util.Arrays;
import java.util.Objects;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The public parameters of a task (DAP-19 "Task Configuration"), what a Client needs to build
 * reports and, with the DP settings, what a Collector needs to decode: the task ID, the DAP
 * version the task speaks, the {@link TaskConfiguration} exactly as it goes into the InputShareAad and AggregateShareAad, the
 * Prio3 variant it names, and the DP strategy and sensitivity rule. No secret. Construction
 * checks that the configuration names the variant and that every extension is one prio-dp
 * implements (a dp_binding extension must carry the digest of these DP settings).
 *
 * @param taskId the task ID
 * @param dapVersion the DAP draft the task speaks, fixed for the task's life
 * @param configuration the task configuration as provisioned
 * @param variant the Prio3 variant the configuration names
 * @param dpStrategy the DP strategy both aggregators apply
 * @param sensitivityRule the sensitivity rule of the strategy
 * @param attributionCodePoints the code points of the DAP attribution extensions in this
 *     deployment ({@link AttributionCodePoints#DEFAULTS} unless set)
 */
public record TaskParameters(TaskId taskId, DapVersion dapVersion, TaskConfiguration configuration,
    Prio3Variant variant, DpStrategy dpStrategy, SensitivityRule sensitivityRule,
    AttributionCodePoints attributionCodePoints) {

  /** Returns the parameters with the default attribution code points. */
  public TaskParameters(TaskId taskId, DapVersion dapVersion, TaskConfiguration configuration,
      Prio3Variant variant, DpStrategy dpStrategy, SensitivityRule sensitivityRule) {
    this(taskId, dapVersion, configuration, variant, dpStrategy, sensitivityRule,
        AttributionCodePoints.DEFAULTS);
  }

  /** Validates the parts; every problem is an IllegalArgumentException naming the field. */
  public TaskParameters {
    Objects.requireNonNull(taskId, "task_id");
    Objects.requireNonNull(dapVersion, "dap_version");
    Objects.requireNonNull(configuration, "task configuration").checkFor(dapVersion);
    Objects.requireNonNull(variant, "vdaf");
    Objects.requireNonNull(dpStrategy, "dp_strategy");
    Objects.requireNonNull(sensitivityRule, "sensitivity_rule");
    Objects.requireNonNull(attributionCodePoints, "attribution_code_points");
    configuration = configuration.withCollectorSelectedCode(
        attributionCodePoints.collectorSelected());
    if (configuration.vdafType() != variant.algorithm().id()
        || !Arrays.equals(configuration.vdafConfiguration().toByteArray(),
            variant.vdafConfiguration())) {
      throw new IllegalArgumentException("vdaf: the task configuration does not name "
          + variant.describe());
    }
    checkExtensions(configuration, variant, dpStrategy, sensitivityRule, attributionCodePoints);
  }

  /** Returns the task's attribution settings: the code points and the two task extensions' values. */
  public AttributionSettings attribution() {
    return AttributionSettings.of(configuration, attributionCodePoints);
  }

  /**
   * Checks a task's extensions (DAP-19 "Task Configuration", "Task Extensions"): each is one
   * prio-dp implements, a task_interval is a well-formed Interval, a dp_binding extension
   * carries the digest of these DP settings, and a collector_identity or budget_source extension
   * (under the deployment's code points) holds a valid value. Throws IllegalArgumentException
   * naming the field.
   */
  public static void checkExtensions(TaskConfiguration configuration, Prio3Variant variant,
      DpStrategy dpStrategy, SensitivityRule sensitivityRule, AttributionCodePoints codePoints) {
    AttributionSettings.of(configuration, codePoints);
    for (TaskExtension e : configuration.extensions()) {
      if (AttributionSettings.isAttributionExtension(e.extensionType(), codePoints)) {
        continue;
      }
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
            + e.extensionType() + " (prio-dp implements task_interval (1), dp_binding ("
            + DpBinding.EXTENSION_TYPE + "), collector_identity (" + codePoints.collectorIdentity()
            + ") and budget_source (" + codePoints.budgetSource() + "))");
      }
    }
  }
}
