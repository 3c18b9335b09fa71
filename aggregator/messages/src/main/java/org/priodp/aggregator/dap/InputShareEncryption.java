package org.priodp.aggregator.dap;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSealed;
import org.priodp.aggregator.hpke.HpkeSuite;

/**
 * Seals and opens input shares as DAP-18 "Upload Request" ("Client Behavior") and "Input Share
 * Decryption" define: {@code enc, payload = SealBase(pk, "dap-18 input share" || 0x01 ||
 * server_role, input_share_aad, plaintext_input_share)}, where 0x01 is the Client's Role (the
 * sender), {@code server_role} the recipient's Role (0x02 Leader, 0x03 Helper), the AAD the encoded
 * {@link InputShareAad} and the plaintext the encoded {@link PlaintextInputShare}; the resulting
 * {@link HpkeCiphertext} carries the Aggregator's config_id.
 *
 * <p>{@link #open} separates its two failures so that an Aggregator can pick the report error:
 * {@link HpkeException} (unknown config or failed decryption: {@code hpke_decrypt_error}) and
 * {@link DapDecodeException} (a plaintext that is not a PlaintextInputShare, which this project
 * reports as {@code invalid_message}, as for an input share the VDAF cannot decode).
 */
public final class InputShareEncryption {
  /** The ASCII label that starts the info string. */
  public static final String LABEL = "dap-18 input share";

  private InputShareEncryption() {
  }

  /** Returns {@code "dap-18 input share" || 0x01 || server_role}; the server is Leader or Helper. */
  public static byte[] info(Role serverRole) {
    if (serverRole != Role.LEADER && serverRole != Role.HELPER) {
      throw new IllegalArgumentException("input shares are sealed to the Leader or the Helper, not " + serverRole);
    }
    byte[] label = LABEL.getBytes(StandardCharsets.US_ASCII);
    byte[] info = new byte[label.length + 2];
    System.arraycopy(label, 0, info, 0, label.length);
    info[label.length] = (byte) Role.CLIENT.code();
    info[label.length + 1] = (byte) serverRole.code();
    return info;
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
  public static HpkeCiphertext seal(HpkeConfig aggregatorConfig, Role serverRole, InputShareAad aad,
      PlaintextInputShare plaintext) throws HpkeException {
    Objects.requireNonNull(aggregatorConfig, "aggregatorConfig");
    Objects.requireNonNull(aad, "aad");
    Objects.requireNonNull(plaintext, "plaintext");
    HpkeSealed sealed = hpkeFor(aggregatorConfig).seal(aggregatorConfig.publicKey().toByteArray(),
        info(serverRole), aad.encode(), plaintext.encode());
    return new HpkeCiphertext(aggregatorConfig.id(), sealed.enc(), sealed.ciphertext());
  }

  /**
   * Opens an input share as the Aggregator in {@code serverRole} (DAP-18 OpenBase) and decodes it.
   *
   * @throws HpkeException if the ciphertext names another config id or does not open
   * @throws DapDecodeException if the plaintext is not a well-formed PlaintextInputShare
   */
  public static PlaintextInputShare open(HpkeConfig aggregatorConfig, HpkeKeyPair aggregatorKey,
      Role serverRole, InputShareAad aad, HpkeCiphertext ciphertext) throws HpkeException {
    Objects.requireNonNull(aggregatorConfig, "aggregatorConfig");
    Objects.requireNonNull(aad, "aad");
    Objects.requireNonNull(ciphertext, "ciphertext");
    if (!ciphertext.configId().equals(aggregatorConfig.id())) {
      throw new HpkeException("ciphertext is for HPKE config " + ciphertext.configId().value()
          + ", not " + aggregatorConfig.id().value(), null);
    }
    byte[] plaintext = hpkeFor(aggregatorConfig).open(aggregatorKey, ciphertext.enc().toByteArray(),
        info(serverRole), aad.encode(), ciphertext.payload().toByteArray());
    return PlaintextInputShare.decode(plaintext);
  }
}
