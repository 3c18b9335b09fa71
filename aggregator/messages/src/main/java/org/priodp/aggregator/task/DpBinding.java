package org.priodp.aggregator.task;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.field.Field64;
import org.priodp.noise.Rational;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * Binds a task's differential-privacy settings to its {@link TaskConfiguration} (DAP-18 "Task
 * Configuration Agreement and Consistency", "Task Extensions"), opt-in per task: a task extension
 * of the unregistered (private) type {@value #EXTENSION_TYPE} whose data is the SHA-256 digest of
 * a canonical encoding of the VDAF, its parameters, the DP strategy with its exact budget, and the
 * sensitivity rule. A task lists it in its task file like any other extension; then it is part of
 * the TaskConfiguration in the {@code AggregateShareAad}, so a Collector (or peer) that configured
 * the task with other DP settings, or without them, fails to open the share instead of silently
 * mixing privacy levels, and a DAP peer that does not know the extension refuses the task, as
 * DAP-18 requires for unrecognized task extensions. A task without it is plain DAP-18: any
 * conforming Collector opens its shares.
 *
 * <p>The digested encoding (version 1), in TLS presentation language:
 * <pre>
 * struct {
 *   opaque label&lt;1..255&gt;;          // "prio-dp dp-binding v1"
 *   uint32 vdaf_type;                  // Prio3 algorithm id
 *   opaque vdaf_configuration&lt;0..2^16-1&gt;; // Prio3Variant.vdafConfiguration()
 *   uint8 field;                       // 0 Field64, 1 Field128
 *   uint8 proofs;
 *   uint8 strategy;                    // 0 none, 1 PureDpDiscreteLaplace, 2 ZCdpDiscreteGaussian,
 *                                      // 3 ReportBudgetDiscreteLaplace, 4 ReportBudgetDiscreteGaussian
 *   opaque numerator&lt;0..2^16-1&gt;;    // epsilon, rho or (4) delta, unsigned big-endian, empty for none and 3
 *   opaque denominator&lt;0..2^16-1&gt;;  // in lowest terms
 *   uint8 sensitivity_rule;            // 0 prio-dp, 1 Janus-compatible
 * } DpBindingV1;
 * </pre>
 */
public final class DpBinding {
  /** The task extension type carrying the digest (unregistered; from the top of the uint16 space). */
  public static final int EXTENSION_TYPE = 0xFF00;

  /** The label that starts the digested encoding. */
  public static final String LABEL = "prio-dp dp-binding v1";

  private DpBinding() {
  }

  /** Returns the SHA-256 digest of the DpBindingV1 encoding of these settings. */
  public static byte[] digest(Prio3Variant variant, DpStrategy strategy, SensitivityRule rule) {
    DapWriter w = new DapWriter();
    w.vector(1, 1, 0xff, LABEL.getBytes(StandardCharsets.US_ASCII))
        .u32(variant.algorithm().id())
        .vector(2, 0, 0xffff, variant.vdafConfiguration())
        .u8(variant.field() == Field64.FIELD ? 0 : 1)
        .u8(variant.proofs());
    w.u8(strategy.bindingCode());
    Rational budget = strategy.bindingParameter().orElse(null);
    w.vector(2, 0, 0xffff, budget == null ? new byte[0] : unsigned(budget.numerator()))
        .vector(2, 0, 0xffff, budget == null ? new byte[0] : unsigned(budget.denominator()))
        .u8(rule == SensitivityRule.PRIODP ? 0 : 1);
    try {
      return MessageDigest.getInstance("SHA-256").digest(w.toByteArray());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }

  private static byte[] unsigned(BigInteger v) {
    byte[] b = v.toByteArray();
    if (b.length > 1 && b[0] == 0) {
      return java.util.Arrays.copyOfRange(b, 1, b.length);
    }
    return b;
  }

  /** Returns the binding extension for these settings. */
  public static TaskExtension extension(Prio3Variant variant, DpStrategy strategy,
      SensitivityRule rule) {
    return new TaskExtension(EXTENSION_TYPE, digest(variant, strategy, rule));
  }

  /**
   * Returns the configuration with the binding extension added (extensions stay in increasing
   * order): how a task that opts in, and its Collector with its own view of the settings, build
   * the TaskConfiguration. Throws IllegalArgumentException if the configuration already carries a
   * different binding.
   */
  public static TaskConfiguration bind(TaskConfiguration config, Prio3Variant variant,
      DpStrategy strategy, SensitivityRule rule) {
    TaskExtension binding = extension(variant, strategy, rule);
    List<TaskExtension> ext = new ArrayList<>();
    for (TaskExtension e : config.extensions()) {
      if (e.extensionType() == EXTENSION_TYPE) {
        if (!e.equals(binding)) {
          throw new IllegalArgumentException("extensions: the task already carries a DP binding"
              + " for different DP settings");
        }
        continue;
      }
      ext.add(e);
    }
    ext.add(binding);
    ext.sort(Comparator.comparingInt(TaskExtension::extensionType));
    return new TaskConfiguration(config.taskInfo(), config.leaderAggregatorEndpoint(),
        config.helperAggregatorEndpoint(), config.timePrecision(), config.minBatchSize(),
        config.batchMode(), config.batchConfig(), config.vdafType(), config.vdafConfiguration(),
        ext, config.batchModeCode());
  }
}
