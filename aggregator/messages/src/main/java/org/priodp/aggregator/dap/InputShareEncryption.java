package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSealed;
import org.priodp.aggregator.hpke.HpkeSuite;

/**
 * Seals and opens input shares as DAP-19 (and DAP-18) "Upload Request" ("Client Behavior") and
 * "Input Share Decryption" define: {@code enc, payload = SealBase(pk, "dap-NN input share" ||
 * 0x01 || server_role, input_share_aad, plaintext_input_share)}, where 0x01 is the Client's Role (the
 * sender), "dap-NN" the task's {@link DapVersion} tag, {@code server_role} the recipient's Role (0x02 Leader, 0x03 Helper), the AAD the encoded
 * {@link InputShareAad} and the plaintext the encoded {@link PlaintextInputShare}; the resulting
 * {@link HpkeCiphertext} carries the Aggregator's config_id.
 *
 * <p>{@link #open} separates its two failures so that an Aggregator can pick the report error:
 * {@link HpkeException} (unknown config or failed decryption; the report error is the
 * version's, see {@link DapVersion#aggregationUnknownHpkeConfig()}) and
 * {@link DapDecodeException} (a plaintext that is not a PlaintextInputShare, which this project
 * reports as {@code invalid_message}, as for an input share the VDAF cannot decode).
 */
public final class InputShareEncryption {
  private InputShareEncryption() {
  }

  private static Hpke hpkeFor(HpkeConfig config) {
    HpkeSuite suite = config.suite().orElseThrow(() -> new IllegalArgumentException(
        "HPKE config " + config.id().value() + ": " + config.unsupportedReason().orElseThrow()));
    return new Hpke(suite);
  }

  /**
   * Seals a plaintext input share to an Aggregator (the Client's step); unsupported suites throw
   * IllegalArgumentException.
   */
  public static HpkeCiphertext seal(DapVersion version, HpkeConfig aggregatorConfig,
      Role serverRole, InputShareAad aad, PlaintextInputShare plaintext) throws HpkeException {
    Objects.requireNonNull(aggregatorConfig, "aggregatorConfig");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(aad, "aad");
    Objects.requireNonNull(plaintext, "plaintext");
    HpkeSealed sealed = hpkeFor(aggregatorConfig).seal(aggregatorConfig.publicKey().toByteArray(),
        version.inputShareInfo(serverRole), aad.encode(), plaintext.encode());
    return new HpkeCiphertext(aggregatorConfig.id(), sealed.enc(), sealed.ciphertext());
  }

  /**
   * Opens an input share as the Aggregator in {@code serverRole} (OpenBase) and decodes it.
   *
   * @throws HpkeException if the ciphertext names another config id or does not open
   * @throws DapDecodeException if the plaintext is not a well-formed PlaintextInputShare
   */
  public static PlaintextInputShare open(DapVersion version, HpkeConfig aggregatorConfig,
      HpkeKeyPair aggregatorKey, Role serverRole, InputShareAad aad, HpkeCiphertext ciphertext) throws HpkeException {
    Objects.requireNonNull(aggregatorConfig, "aggregatorConfig");
    Objects.requireNonNull(aad, "aad");
    Objects.requireNonNull(ciphertext, "ciphertext");
    if (!ciphertext.configId().equals(aggregatorConfig.id())) {
      throw new HpkeException("ciphertext is for HPKE config " + ciphertext.configId().value()
          + ", not " + aggregatorConfig.id().value(), null);
    }
    byte[] plaintext = hpkeFor(aggregatorConfig).open(aggregatorKey, ciphertext.enc().toByteArray(),
        version.inputShareInfo(serverRole), aad.encode(), ciphertext.payload().toByteArray());
    return PlaintextInputShare.decode(plaintext);
  }
}
