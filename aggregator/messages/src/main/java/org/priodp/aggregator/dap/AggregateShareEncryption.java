package org.priodp.aggregator.dap;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSealed;
import org.priodp.aggregator.hpke.HpkeSuite;

/**
 * Seals and opens aggregate shares as DAP-18 "Aggregate Share Encryption" defines: RFC 9180
 * SealBase to the Collector's HpkeConfig with info {@code "dap-18 aggregate share" || server_role
 * || 0x00} (the server's Role byte, then the Collector's Role 0x00) and the encoded
 * {@link AggregateShareAad} as associated data, producing an {@link HpkeCiphertext} whose
 * config_id is the Collector's.
 */
public final class AggregateShareEncryption {
  /** The ASCII label that starts the info string. */
  public static final String LABEL = "dap-18 aggregate share";

  private AggregateShareEncryption() {
  }

  /** Returns {@code "dap-18 aggregate share" || server_role || 0x00}; the server is Leader or Helper. */
  public static byte[] info(Role serverRole) {
    if (serverRole != Role.LEADER && serverRole != Role.HELPER) {
      throw new IllegalArgumentException("aggregate shares are sealed by the Leader or the Helper, not " + serverRole);
    }
    byte[] label = LABEL.getBytes(StandardCharsets.US_ASCII);
    byte[] info = new byte[label.length + 2];
    System.arraycopy(label, 0, info, 0, label.length);
    info[label.length] = (byte) serverRole.code();
    info[label.length + 1] = (byte) Role.COLLECTOR.code();
    return info;
  }

  private static Hpke hpkeFor(HpkeConfig config) {
    HpkeSuite suite = config.suite().orElseThrow(() -> new IllegalArgumentException(
        "HPKE config " + config.id().value() + ": " + config.unsupportedReason().orElseThrow()));
    return new Hpke(suite);
  }

  /** Seals an encoded aggregate share to the Collector; unsupported suites throw IllegalArgumentException. */
  public static HpkeCiphertext seal(HpkeConfig collectorConfig, Role serverRole,
      AggregateShareAad aad, byte[] aggShare) throws HpkeException {
    Objects.requireNonNull(collectorConfig, "collectorConfig");
    Objects.requireNonNull(aad, "aad");
    Objects.requireNonNull(aggShare, "aggShare");
    HpkeSealed sealed = hpkeFor(collectorConfig).seal(collectorConfig.publicKey().toByteArray(),
        info(serverRole), aad.encode(), aggShare);
    return new HpkeCiphertext(collectorConfig.id(), sealed.enc(), sealed.ciphertext());
  }

  /** Opens an aggregate share as the Collector (DAP-18 OpenBase); a config id mismatch also fails. */
  public static byte[] open(HpkeConfig collectorConfig, HpkeKeyPair collectorKey, Role serverRole,
      AggregateShareAad aad, HpkeCiphertext ciphertext) throws HpkeException {
    Objects.requireNonNull(collectorConfig, "collectorConfig");
    Objects.requireNonNull(ciphertext, "ciphertext");
    if (!ciphertext.configId().equals(collectorConfig.id())) {
      throw new HpkeException("ciphertext is for HPKE config " + ciphertext.configId().value()
          + ", not " + collectorConfig.id().value(), null);
    }
    return hpkeFor(collectorConfig).open(collectorKey, ciphertext.enc().toByteArray(),
        info(serverRole), aad.encode(), ciphertext.payload().toByteArray());
  }
}
