package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSealed;
import org.priodp.aggregator.hpke.HpkeSuite;

/**
 * Seals and opens aggregate shares as DAP-19 (and DAP-18) "Aggregate Share Encryption" defines:
 * RFC 9180 SealBase to the Collector's HpkeConfig with info {@code "dap-NN aggregate share" ||
 * server_role || 0x00} (the task's {@link DapVersion} tag, the server's Role byte, then the
 * Collector's Role 0x00) and the encoded
 * {@link AggregateShareAad} as associated data, producing an {@link HpkeCiphertext} whose
 * config_id is the Collector's.
 */
public final class AggregateShareEncryption {
  private AggregateShareEncryption() {
  }

  private static Hpke hpkeFor(HpkeConfig config) {
    HpkeSuite suite = config.suite().orElseThrow(() -> new IllegalArgumentException(
        "HPKE config " + config.id().value() + ": " + config.unsupportedReason().orElseThrow()));
    return new Hpke(suite);
  }

  /** Seals an encoded aggregate share to the Collector; unsupported suites throw IllegalArgumentException. */
  public static HpkeCiphertext seal(DapVersion version, HpkeConfig collectorConfig, Role serverRole,
      AggregateShareAad aad, byte[] aggShare) throws HpkeException {
    Objects.requireNonNull(collectorConfig, "collectorConfig");
    Objects.requireNonNull(aad, "aad");
    Objects.requireNonNull(aggShare, "aggShare");
    HpkeSealed sealed = hpkeFor(collectorConfig).seal(collectorConfig.publicKey().toByteArray(),
        version.aggregateShareInfo(serverRole), aad.encode(), aggShare);
    return new HpkeCiphertext(collectorConfig.id(), sealed.enc(), sealed.ciphertext());
  }

  /** Opens an aggregate share as the Collector (OpenBase); a config id mismatch also fails. */
  public static byte[] open(DapVersion version, HpkeConfig collectorConfig,
      HpkeKeyPair collectorKey, Role serverRole,
      AggregateShareAad aad, HpkeCiphertext ciphertext) throws HpkeException {
    Objects.requireNonNull(collectorConfig, "collectorConfig");
    Objects.requireNonNull(ciphertext, "ciphertext");
    if (!ciphertext.configId().equals(collectorConfig.id())) {
      throw new HpkeException("ciphertext is for HPKE config " + ciphertext.configId().value()
          + ", not " + collectorConfig.id().value(), null);
    }
    return hpkeFor(collectorConfig).open(collectorKey, ciphertext.enc().toByteArray(),
        version.aggregateShareInfo(serverRole), aad.encode(), ciphertext.payload().toByteArray());
  }
}
