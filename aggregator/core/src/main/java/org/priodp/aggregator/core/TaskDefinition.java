package org.priodp.aggregator.core;

import java.util.Arrays;
import java.util.Objects;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.DpBinding;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * One task as this aggregator serves it (DAP-18 "Task Configuration"): the task ID, this
 * aggregator's role, the agreed {@link TaskConfiguration}, the Prio3 variant it names, the DP
 * strategy and sensitivity rule, the Collector's HPKE configuration and the Leader's bearer token.
 * Construction checks that the configuration's vdaf_type and vdaf_configuration match the variant,
 * that every task extension is one this aggregator implements (DAP-18 "Task Extensions": a
 * participant MUST NOT take part in a task with an unrecognized extension), that an opt-in
 * {@link DpBinding} extension carries the digest of this task's DP settings, and that the
 * Collector's HPKE configuration can actually be sealed to (supported suite, a valid public key
 * that is not a low-order point), so that a task that could never release a share stops startup
 * instead of failing after noise was drawn. Immutable.
 */
public final class TaskDefinition {
  private final TaskId taskId;
  private final Role role;
  private final TaskConfiguration configuration;
  private final Prio3Variant variant;
  private final DpStrategy dpStrategy;
  private final SensitivityRule sensitivityRule;
  private final Prio3DpMechanism mechanism; // null: a report-budget strategy (mechanismAt)
  private final boolean hardenedSampler;
  private final HpkeConfig collectorHpkeConfig;
  private final AuthToken authToken;
  private final java.util.SortedMap<Integer, org.priodp.aggregator.dap.ByteString> vdafVerifyKeys;
  private final java.util.Optional<AuthToken> collectorAuthToken;
  private final DapVersion dapVersion;
  private final PrivacySettings privacy;
  private final org.priodp.aggregator.task.AttributionSettings attribution;

  /**
   * Validates the parts, noising with the exact discrete Laplace or Gaussian sampler; every
   * problem is an IllegalArgumentException naming the field.
   */
  public TaskDefinition(TaskId taskId, Role role, TaskConfiguration configuration,
      Prio3Variant variant, DpStrategy dpStrategy, SensitivityRule sensitivityRule,
      HpkeConfig collectorHpkeConfig, AuthToken authToken) {
    this(taskId, role, configuration, variant, dpStrategy, sensitivityRule, collectorHpkeConfig,
        authToken, false);
  }

  /**
   * Validates the parts; with {@code hardenedSampler} the noise (discrete Laplace or Gaussian) is
   * drawn by the fixed-work sampler ({@link Prio3DpMechanism#withHardenedSampler()}). Every
   * problem is an IllegalArgumentException naming the field.
   */
  public TaskDefinition(TaskId taskId, Role role, TaskConfiguration configuration,
      Prio3Variant variant, DpStrategy dpStrategy, SensitivityRule sensitivityRule,
      HpkeConfig collectorHpkeConfig, AuthToken authToken, boolean hardenedSampler) {
    this(taskId, role, configuration, variant, dpStrategy, sensitivityRule, collectorHpkeConfig,
        authToken, hardenedSampler, org.priodp.aggregator.task.AttributionCodePoints.DEFAULTS);
  }

  /**
   * Validates the parts as above, reading the task extensions of the DAP attribution draft under
   * the deployment's code points ({@link #attribution()}).
   */
  public TaskDefinition(TaskId taskId, Role role, TaskConfiguration configuration,
      Prio3Variant variant, DpStrategy dpStrategy, SensitivityRule sensitivityRule,
      HpkeConfig collectorHpkeConfig, AuthToken authToken, boolean hardenedSampler,
      org.priodp.aggregator.task.AttributionCodePoints attributionCodePoints) {
    this.vdafVerifyKeys = java.util.Collections.emptySortedMap();
    this.collectorAuthToken = java.util.Optional.empty();
    this.dapVersion = DapVersion.latest();
    this.privacy = PrivacySettings.DEFAULT;
    this.taskId = Objects.requireNonNull(taskId, "task_id");
    this.role = Objects.requireNonNull(role, "role");
    if (role != Role.LEADER && role != Role.HELPER) {
      throw new IllegalArgumentException("role: must be leader or helper, not " + role);
    }
    this.configuration = Objects.requireNonNull(configuration, "task configuration")
        .withCollectorSelectedCode(Objects.requireNonNull(attributionCodePoints,
            "attribution_code_points").collectorSelected());
    this.variant = Objects.requireNonNull(variant, "vdaf");
    this.dpStrategy = Objects.requireNonNull(dpStrategy, "dp_strategy");
    this.sensitivityRule = Objects.requireNonNull(sensitivityRule, "sensitivity_rule");
    this.collectorHpkeConfig = Objects.requireNonNull(collectorHpkeConfig, "collector_hpke_config");
    this.authToken = Objects.requireNonNull(authToken, "auth_token");
    if (configuration.vdafType() != variant.algorithm().id()) {
      throw new IllegalArgumentException("vdaf: the task configuration names VDAF type "
          + configuration.vdafType() + ", the variant is " + variant.algorithm().specName());
    }
    if (!Arrays.equals(configuration.vdafConfiguration().toByteArray(),
        variant.vdafConfiguration())) {
      throw new IllegalArgumentException("vdaf: vdaf_configuration does not encode the variant's"
          + " parameters");
    }
    if (!collectorHpkeConfig.isSupported()) {
      throw new IllegalArgumentException("collector_hpke_config: unsupported ("
          + collectorHpkeConfig.unsupportedReason().orElseThrow() + ")");
    }
    checkCanSeal(collectorHpkeConfig, role);
    TaskParameters.checkExtensions(configuration, variant, dpStrategy, sensitivityRule,
        attributionCodePoints);
    this.attribution = org.priodp.aggregator.task.AttributionSettings.of(configuration,
        attributionCodePoints);
    this.hardenedSampler = hardenedSampler;
    if (dpStrategy.budgetFromReports()) {
      // attribution draft section 5: the noise depends on each release's epsilon (mechanismAt);
      // the fixed-work sampler's range is checked at release
      this.mechanism = null;
      return;
    }
    Prio3DpMechanism exact = Prio3DpMechanism.of(variant, dpStrategy, sensitivityRule);
    if (hardenedSampler) {
      try {
        this.mechanism = exact.withHardenedSampler();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("noise_sampler: " + e.getMessage(), e);
      }
    } else {
      this.mechanism = exact;
    }
  }

  private TaskDefinition(TaskDefinition t,
      java.util.SortedMap<Integer, org.priodp.aggregator.dap.ByteString> keys,
      java.util.Optional<AuthToken> collectorAuthToken, DapVersion dapVersion,
      PrivacySettings privacy) {
    this.privacy = privacy;
    this.collectorAuthToken = collectorAuthToken;
    this.dapVersion = dapVersion;
    this.taskId = t.taskId;
    this.role = t.role;
    this.configuration = t.configuration;
    this.variant = t.variant;
    this.dpStrategy = t.dpStrategy;
    this.sensitivityRule = t.sensitivityRule;
    this.mechanism = t.mechanism;
    this.hardenedSampler = t.hardenedSampler;
    this.collectorHpkeConfig = t.collectorHpkeConfig;
    this.authToken = t.authToken;
    this.vdafVerifyKeys = keys;
    this.attribution = t.attribution;
  }

  /**
   * Returns this task with the VDAF verification keys by verification_key_id (DAP-18 "Task
   * Configuration": {@code vdaf_verify_key}, the key named by {@code
   * AggregationJobInitReq.verification_key_id}); each key must have the Prio3 verify key size
   * ({@link org.priodp.vdaf.Prio3#VERIFY_KEY_SIZE}, the XofTurboShake128 seed size) and each id
   * fit a uint8. An empty map means the task cannot aggregate.
   */
  public TaskDefinition withVdafVerifyKeys(java.util.Map<Integer, byte[]> keys) {
    java.util.TreeMap<Integer, org.priodp.aggregator.dap.ByteString> m = new java.util.TreeMap<>();
    for (var e : keys.entrySet()) {
      int id = e.getKey();
      if (id < 0 || id > 0xff) {
        throw new IllegalArgumentException("vdaf_verify_keys: key id " + id
            + " is not a uint8 verification_key_id");
      }
      byte[] k = Objects.requireNonNull(e.getValue(), "vdaf_verify_key");
      if (k.length != org.priodp.vdaf.Prio3.VERIFY_KEY_SIZE) {
        throw new IllegalArgumentException("vdaf_verify_key" + (keys.size() > 1 ? "s." + id : "")
            + ": " + k.length + " bytes, Prio3 needs " + org.priodp.vdaf.Prio3.VERIFY_KEY_SIZE);
      }
      m.put(id, org.priodp.aggregator.dap.ByteString.copyOf(k));
    }
    return new TaskDefinition(this, java.util.Collections.unmodifiableSortedMap(m),
        collectorAuthToken, dapVersion, privacy);
  }

  /**
   * Returns this Leader task with the bearer token the Collector presents (DAP-18 "Request
   * Authentication"); a Helper task has none, so this refuses one.
   */
  public TaskDefinition withCollectorAuthToken(AuthToken token) {
    Objects.requireNonNull(token, "collector_auth_token");
    if (role != Role.LEADER) {
      throw new IllegalArgumentException("collector_auth_token: only a Leader task has one");
    }
    return new TaskDefinition(this, vdafVerifyKeys, java.util.Optional.of(token), dapVersion,
        privacy);
  }

  /**
   * Returns this task speaking {@code version} (a task speaks {@link DapVersion#latest()}, DAP-19,
   * unless provisioned otherwise); the configuration must satisfy that version's rules (DAP-18
   * needs a non-empty task_info).
   */
  public TaskDefinition withDapVersion(DapVersion version) {
    Objects.requireNonNull(version, "dap_version");
    configuration.checkFor(version);
    return new TaskDefinition(this, vdafVerifyKeys, collectorAuthToken, version, privacy);
  }

  /**
   * Returns this task with a privacy unit and budget cap (issue 25): a task without noise may
   * have no cap, a zCDP task no epsilon cap (a pure-DP task's releases are charged to a rho cap
   * as epsilon^2 / 2).
   *
   * @throws IllegalArgumentException naming privacy_budget otherwise
   */
  public TaskDefinition withPrivacy(PrivacySettings settings) {
    Objects.requireNonNull(settings, "privacy settings");
    // a report-budget strategy's releases are all of one kind: that of its strategy at any epsilon
    settings.checkFits(!addsNoise() ? java.util.Optional.empty()
        : dpStrategy.forRelease(org.priodp.noise.Rational.ONE).budget());
    return new TaskDefinition(this, vdafVerifyKeys, collectorAuthToken, dapVersion, settings);
  }

  /** Returns the task's privacy unit and budget cap ({@link PrivacySettings#DEFAULT} unless set). */
  public PrivacySettings privacy() {
    return privacy;
  }

  /**
   * Returns the canonical text of the task's DP settings (issue 25, item 4): the strategy and its
   * parameters, the sensitivity rule, the sampler, the privacy unit and the budget, one
   * "field=value" line each ({@link PrivacySettings#canonicalText}).
   */
  public String dpSettingsText() {
    java.util.Map<String, String> f = new java.util.LinkedHashMap<>();
    f.put("dp_strategy", dpStrategy.name());
    new java.util.TreeMap<>(dpStrategy.parameters()).forEach((k, v) -> f.put("dp_strategy." + k, v));
    f.put("sensitivity_rule", sensitivityRule.spelling());
    f.put("noise_sampler", !addsNoise() ? "none" : hardenedSampler ? "hardened" : "exact");
    f.putAll(privacy.fields());
    return PrivacySettings.canonicalText(f);
  }

  /**
   * Returns the DAP draft the task speaks: every version-dependent string, code point and error
   * choice of the task comes from it.
   */
  public DapVersion dapVersion() {
    return dapVersion;
  }

  /** Returns the bearer token the Collector presents to this Leader (empty for a Helper task). */
  public java.util.Optional<AuthToken> collectorAuthToken() {
    return collectorAuthToken;
  }

  /** Returns the VDAF verification key with this verification_key_id, if the task has one. */
  public java.util.Optional<byte[]> vdafVerifyKey(int verificationKeyId) {
    var k = vdafVerifyKeys.get(verificationKeyId);
    return k == null ? java.util.Optional.empty() : java.util.Optional.of(k.toByteArray());
  }

  /** Returns the ids of the task's VDAF verification keys, sorted. */
  public java.util.Set<Integer> vdafVerifyKeyIds() {
    return vdafVerifyKeys.keySet();
  }

  /** Returns whether the task has a VDAF verification key, without which it cannot aggregate. */
  public boolean canAggregate() {
    return !vdafVerifyKeys.isEmpty();
  }

  /**
   * Seals a probe message to the Collector's key (DAP-18 "Aggregate Share Encryption"), so an
   * unusable key (wrong length, not a curve point, a low-order X25519 point whose shared secret
   * is all zero, RFC 9180 section 7.1.4) is found at load and never after noise is drawn.
   */
  private static void checkCanSeal(HpkeConfig config, Role role) {
    try {
      org.priodp.aggregator.hpke.Hpke hpke = new org.priodp.aggregator.hpke.Hpke(
          config.suite().orElseThrow());
      hpke.seal(config.publicKey().toByteArray(), DapVersion.latest().aggregateShareInfo(role),
          new byte[0], new byte[1]);
    } catch (HpkeException | RuntimeException e) {
      throw new IllegalArgumentException("collector_hpke_config: cannot seal to this public key ("
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")", e);
    }
  }

  /**
   * Returns a TaskConfiguration for a Prio3 task whose vdaf_type and vdaf_configuration are those
   * of the variant (DAP-18 "VDAF Configuration Encodings"), with the given other fields.
   */
  public static TaskConfiguration configurationFor(Prio3Variant variant, byte[] taskInfo,
      String leaderEndpoint, String helperEndpoint, long timePrecision, long minBatchSize,
      org.priodp.aggregator.dap.BatchMode batchMode,
      java.util.List<TaskExtension> extensions) {
    return new TaskConfiguration(taskInfo, leaderEndpoint, helperEndpoint, timePrecision,
        minBatchSize, batchMode, new byte[0], variant.algorithm().id(),
        variant.vdafConfiguration(), extensions);
  }

  /** Returns the task's public parameters: what its Client and Collector know of it. */
  public TaskParameters parameters() {
    return new TaskParameters(taskId(), dapVersion, configuration(), variant(), dpStrategy(),
        sensitivityRule(), attribution.codePoints());
  }

  /**
   * Returns what the task binds of the DAP attribution draft: the deployment's code points and
   * the collector_identity and budget_source task extensions, if present.
   */
  public org.priodp.aggregator.task.AttributionSettings attribution() {
    return attribution;
  }

  /** Returns the task ID. */
  public TaskId taskId() {
    return taskId;
  }

  /** Returns this aggregator's role (Leader or Helper), which selects the HPKE info string. */
  public Role role() {
    return role;
  }

  /**
   * Returns the configuration as provisioned, with exactly the extensions the task lists: the one
   * that goes into the InputShareAad and AggregateShareAad.
   */
  public TaskConfiguration configuration() {
    return configuration;
  }

  /** Returns whether the task carries the opt-in {@link DpBinding} extension. */
  public boolean bindsDpSettings() {
    return configuration.extensions().stream()
        .anyMatch(e -> e.extensionType() == DpBinding.EXTENSION_TYPE);
  }

  /** Returns the Prio3 variant. */
  public Prio3Variant variant() {
    return variant;
  }

  /** Returns the DP strategy. */
  public DpStrategy dpStrategy() {
    return dpStrategy;
  }

  /** Returns the sensitivity rule. */
  public SensitivityRule sensitivityRule() {
    return sensitivityRule;
  }

  /**
   * Returns the noise mechanism for the variant, strategy and rule.
   *
   * @throws IllegalStateException for a report-budget strategy, whose mechanism depends on each
   *     release's epsilon: use {@link #mechanismAt}
   */
  public Prio3DpMechanism mechanism() {
    if (mechanism == null) {
      throw new IllegalStateException(dpStrategy.name() + " noises at each release's epsilon:"
          + " use mechanismAt(epsilon)");
    }
    return mechanism;
  }

  /** Returns whether the task draws its noise with the fixed-work sampler. */
  public boolean hardenedSampler() {
    return hardenedSampler;
  }

  /** Returns whether the task's releases are noised (every strategy but NoDifferentialPrivacy). */
  public boolean addsNoise() {
    return mechanism == null || mechanism.addsNoise();
  }

  /**
   * Returns the mechanism of a release whose epsilon is {@code epsilon}
   * (draft-ietf-ppm-dap-attribution-00, section 5): for a report-budget strategy the concrete
   * strategy at that epsilon ({@link DpStrategy#forRelease}) with the task's sampler; for any
   * other strategy {@link #mechanism()}, whatever the epsilon.
   *
   * @throws IllegalArgumentException if the fixed-work sampler cannot serve the scale at this
   *     epsilon (the message names the largest supported scale)
   */
  public Prio3DpMechanism mechanismAt(org.priodp.noise.Rational epsilon) {
    if (mechanism != null) {
      return mechanism;
    }
    Prio3DpMechanism m = Prio3DpMechanism.of(variant, dpStrategy.forRelease(epsilon),
        sensitivityRule);
    return hardenedSampler ? m.withHardenedSampler() : m;
  }

  /** Returns the Collector's HPKE configuration. */
  public HpkeConfig collectorHpkeConfig() {
    return collectorHpkeConfig;
  }

  /** Returns the bearer token that the Leader presents to the Helper (both roles know it). */
  public AuthToken authToken() {
    return authToken;
  }

  @Override
  public String toString() {
    return "TaskDefinition[" + taskId + ", " + role + ", " + dapVersion.tag() + ", " + variant.algorithm().specName() + ", "
        + dpStrategy.describe() + ", minBatchSize="
        + Long.toUnsignedString(configuration.minBatchSize()) + "]";
  }
}
