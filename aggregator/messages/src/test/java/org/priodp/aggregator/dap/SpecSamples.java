package org.priodp.aggregator.dap;

import static org.priodp.aggregator.dap.CodecChecks.hex;

import java.util.List;

/**
 * Messages of the new DAP-18 codec tests, each paired with its encoding written out by hand from
 * the spec's struct definitions (not produced by the codec under test).
 */
final class SpecSamples {
  private SpecSamples() {
  }

  static final String ID_A = "000102030405060708090a0b0c0d0e0f";
  static final String ID_B = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

  /** ReportMetadata{report_id, time = 20000000, public_extensions = []}. */
  static String metadataHex(String id) {
    return id + "0000000001312d00" + "0000";
  }

  static ReportMetadata metadata(String id) {
    return ReportMetadata.of(new ReportId(hex(id)), 20000000);
  }

  /** The spec's upload example shape: public_share 0a0b, leader config 1, helper config 2. */
  static final String LEADER_CT_HEX = "01" + "0004 0f0e0d0c" + "00000004 0b0a0908";
  static final String HELPER_CT_HEX = "02" + "0004 0c0d0e0f" + "00000004 08000a0b";

  static HpkeCiphertext leaderCt() {
    return new HpkeCiphertext(new HpkeConfigId(1), hex("0f0e0d0c"), hex("0b0a0908"));
  }

  static HpkeCiphertext helperCt() {
    return new HpkeCiphertext(new HpkeConfigId(2), hex("0c0d0e0f"), hex("08000a0b"));
  }

  /** Report (62 bytes): metadata, public_share<0..2^32-1> = 0a0b, leader and helper ciphertexts. */
  static String reportHex(String id) {
    return metadataHex(id) + "00000002 0a0b" + LEADER_CT_HEX + HELPER_CT_HEX;
  }

  static Report report(String id) {
    return new Report(metadata(id), hex("0a0b"), leaderCt(), helperCt());
  }

  /** ReportShare (47 bytes): metadata, public_share = 0a0b, the helper's ciphertext. */
  static String reportShareHex(String id) {
    return metadataHex(id) + "00000002 0a0b" + HELPER_CT_HEX;
  }

  static ReportShare reportShare(String id) {
    return new ReportShare(metadata(id), hex("0a0b"), helperCt());
  }

  /**
   * A minimal TaskConfiguration: task_info<1..2^8-1> "t", endpoints "a" and "b", time_precision 1,
   * min_batch_size 10, leader_selected, empty batch_config, vdaf_type 1 (Prio3Count), empty
   * vdaf_configuration, no extensions.
   */
  static final String TASK_CONFIG_HEX = "01 74" + "0001 61" + "0001 62" + "0000000000000001"
      + "000000000000000a" + "02" + "0000" + "00000001" + "0000" + "0000";

  static TaskConfiguration taskConfiguration() {
    return new TaskConfiguration(hex("74"), "a", "b", 1, 10, BatchMode.LEADER_SELECTED, new byte[0],
        1, new byte[0], List.of());
  }

  /** The spec example's batch ID 1f 1e ... 00. */
  static final String BATCH_ID = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100";

  /** A ping-pong initialize(0) message with verifier_share<0..2^32-1> = abcd (7 bytes). */
  static final String PING_INIT_HEX = "00 00000002 abcd";

  /** VerifyInit (58 bytes): the report share, payload<1..2^32-1> = the initialize message. */
  static String verifyInitHex(String id) {
    return reportShareHex(id) + "00000007" + PING_INIT_HEX;
  }

  static VerifyInit verifyInit(String id) {
    return new VerifyInit(reportShare(id), hex(PING_INIT_HEX));
  }
}
