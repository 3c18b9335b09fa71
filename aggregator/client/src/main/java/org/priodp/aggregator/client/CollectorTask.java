package org.priodp.aggregator.client;

import java.util.Arrays;
import java.util.Objects;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskParameters;

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
 */
public record CollectorTask(TaskParameters parameters, AuthToken collectorAuthToken,
    HpkeConfig hpkeConfig, HpkeKeyPair hpkeKey) {

  /** Validates that the key pair is the configuration's and that the suite is supported. */
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
  }

  @Override
  public String toString() {
    return "CollectorTask[" + parameters.taskId() + ", " + hpkeConfig.id() + ", ***]";
  }
}
