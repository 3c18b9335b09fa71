package org.priodp.aggregator.client;

import java.util.Arrays;
import java.util.Objects;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * What the Collector of a task holds (DAP-18 "Collecting Results"): the public task parameters,
 * the bearer token it presents to the Leader ("Request Authentication") and its HPKE
 * configuration with the private key that opens the aggregate shares ("Aggregate Share
 * Encryption"). Its file form (collector.json) is read and written by the cli module's
 * {@code CollectorTaskFile}. Construction checks that the private key belongs to the
 * configuration's public key.
 *
 * @param parameters the public task parameters
 * @param collectorAuthToken the token the Collector presents to the Leader
 * @param hpkeConfig the Collector's HPKE configuration, as the aggregators have it
 * @param hpkeKey the Collector's HPKE key pair
 * @param hardenedSampler whether the aggregators draw with the fixed-work sampler (collector.json's
 *     {@code noise_sampler}), which the Collector needs only to state the guarantee exactly
 */
public record CollectorTask(TaskParameters parameters, AuthToken collectorAuthToken,
    HpkeConfig hpkeConfig, HpkeKeyPair hpkeKey, boolean hardenedSampler) {

  /**
   * Returns the task with the aggregators' default sampler: the fixed-work one where the task's
   * strategy has one that supports its scale (docs/DAP.md "Timing-hardened noise"), else exact.
   */
  public CollectorTask(TaskParameters parameters, AuthToken collectorAuthToken,
      HpkeConfig hpkeConfig, HpkeKeyPair hpkeKey) {
    this(parameters, collectorAuthToken, hpkeConfig, hpkeKey, hardenedByDefault(parameters));
  }

  private static boolean hardenedByDefault(TaskParameters p) {
    Objects.requireNonNull(p, "parameters");
    if (!p.dpStrategy().hasHardenedSampler()) {
      return false;
    }
    if (p.dpStrategy().budgetFromReports()) {
      return true; // as the aggregators: the scale of each release is checked at the release
    }
    try {
      Prio3DpMechanism.of(p.variant(), p.dpStrategy(), p.sensitivityRule()).withHardenedSampler();
      return true;
    } catch (IllegalArgumentException e) {
      return false; // a scale beyond the fixed-work sampler's range: the exact sampler
    }
  }

  /**
   * Validates that the key pair is the configuration's, that the suite is supported and that a
   * fixed-work sampler exists for the task's strategy and scale if one is named.
   */
  public CollectorTask {
    Objects.requireNonNull(parameters, "parameters");
    Objects.requireNonNull(collectorAuthToken, "collector_auth_token");
    Objects.requireNonNull(hpkeConfig, "collector_hpke_config");
    Objects.requireNonNull(hpkeKey, "collector_hpke_private_key");
    if (!hpkeConfig.isSupported()) {
      throw new IllegalArgumentException("collector_hpke_config: unsupported ("
          + hpkeConfig.unsupportedReason().orElseThrow() + ")");
    }
    if (hpkeKey.kem() != hpkeConfig.kem().orElseThrow()
        || !Arrays.equals(hpkeKey.publicKey(), hpkeConfig.publicKey().toByteArray())) {
      throw new IllegalArgumentException("collector_hpke_private_key: not the private key of"
          + " collector_hpke_config's public key");
    }
    if (hardenedSampler && !parameters.dpStrategy().budgetFromReports()) {
      // a report-budget strategy's scale is that of each release, checked at the release
      try {
        Prio3DpMechanism.of(parameters.variant(), parameters.dpStrategy(),
            parameters.sensitivityRule()).withHardenedSampler();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("noise_sampler: hardened: " + e.getMessage(), e);
      }
    }
  }

  /**
   * Returns the mechanism the aggregators noise with, as this file states it: the task's strategy
   * and sensitivity rule with the fixed-work or the exact sampler.
   */
  public Prio3DpMechanism mechanism() {
    return mechanism(java.util.Optional.empty());
  }

  /**
   * Returns the mechanism the aggregators noise a release with when its collection job carries
   * {@code minDpBudget} (draft-ietf-ppm-dap-attribution-00, section 5): for a strategy that takes
   * epsilon from the reports, the strategy at that epsilon; otherwise {@link #mechanism()}.
   *
   * @throws IllegalArgumentException for a report-budget strategy without a minimum
   */
  public Prio3DpMechanism mechanism(
      java.util.Optional<org.priodp.aggregator.task.MicroEpsilon> minDpBudget) {
    org.priodp.vdaf.dp.DpStrategy s = parameters.dpStrategy();
    if (s.budgetFromReports()) {
      s = s.forRelease(minDpBudget.orElseThrow(() -> new IllegalArgumentException(
          parameters.dpStrategy().name() + " takes epsilon from the reports: give a"
              + " min_dp_budget")).epsilon());
    }
    Prio3DpMechanism m = Prio3DpMechanism.of(parameters.variant(), s,
        parameters.sensitivityRule());
    return hardenedSampler ? m.withHardenedSampler() : m;
  }

  @Override
  public String toString() {
    return "CollectorTask[" + parameters.taskId() + ", " + hpkeConfig.id() + ", ***]";
  }
}
