package org.priodp.aggregator.dap;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The DAP draft a task speaks, and the one place that answers every question whose answer
 * differs between the drafts prio-dp serves: the version tag of the VDAF application context and
 * of the HPKE info strings, the ReportError code points, the task_info length floor, and which
 * report error a failure gets (draft-ietf-ppm-dap-18 and -19; the differences are listed in
 * {@code shared/specs/dap-18-to-19.md}). A task's version is fixed when it is provisioned; the
 * Client, the Collector and both Aggregators of a task must use the same one.
 */
public enum DapVersion {
  /** draft-ietf-ppm-dap-18. */
  DAP_18("dap-18"),
  /** draft-ietf-ppm-dap-19, the version of new tasks. */
  DAP_19("dap-19");

  private final String tag;
  private final byte[] tagBytes;

  DapVersion(String tag) {
    this.tag = tag;
    this.tagBytes = tag.getBytes(StandardCharsets.US_ASCII);
  }

  /** Returns the version new tasks speak unless they say otherwise: DAP-19. */
  public static DapVersion latest() {
    return DAP_19;
  }

  /**
   * Returns the version with this tag ({@code dap-18} or {@code dap-19}, case-insensitive);
   * anything else is an IllegalArgumentException listing the tags prio-dp speaks.
   */
  public static DapVersion fromTag(String tag) {
    Objects.requireNonNull(tag, "dap_version");
    for (DapVersion v : values()) {
      if (v.tag.equals(tag.toLowerCase(Locale.ROOT))) {
        return v;
      }
    }
    throw new IllegalArgumentException("dap_version: \"" + tag + "\" is not one prio-dp speaks"
        + " (dap-18, dap-19)");
  }

  /** Returns the version tag, {@code dap-18} or {@code dap-19}, as it appears in the draft. */
  public String tag() {
    return tag;
  }

  /**
   * Returns the VDAF application context {@code "dap-NN" || task_id} (DAP-19 "Client Behavior",
   * "Leader Initialization", "Helper Initialization"; the same with "dap-18" in DAP-18).
   */
  public byte[] vdafContext(TaskId taskId) {
    byte[] out = Arrays.copyOf(tagBytes, tagBytes.length + TaskId.LENGTH);
    System.arraycopy(taskId.bytes(), 0, out, tagBytes.length, TaskId.LENGTH);
    return out;
  }

  /**
   * Returns the HPKE info of an input share, {@code "dap-NN input share" || 0x01 || server_role}
   * (DAP-19 "Upload Request", "Input Share Decryption"); the server is the Leader or the Helper.
   */
  public byte[] inputShareInfo(Role serverRole) {
    if (serverRole != Role.LEADER && serverRole != Role.HELPER) {
      throw new IllegalArgumentException("input shares are sealed to the Leader or the Helper, not "
          + serverRole);
    }
    return info(" input share", Role.CLIENT, serverRole);
  }

  /**
   * Returns the HPKE info of an aggregate share, {@code "dap-NN aggregate share" || server_role ||
   * 0x00} (DAP-19 "Aggregate Share Encryption"); the server is the Leader or the Helper.
   */
  public byte[] aggregateShareInfo(Role serverRole) {
    if (serverRole != Role.LEADER && serverRole != Role.HELPER) {
      throw new IllegalArgumentException("aggregate shares are sealed by the Leader or the Helper,"
          + " not " + serverRole);
    }
    return info(" aggregate share", serverRole, Role.COLLECTOR);
  }

  private byte[] info(String label, Role sender, Role receiver) {
    byte[] l = (tag + label).getBytes(StandardCharsets.US_ASCII);
    byte[] info = Arrays.copyOf(l, l.length + 2);
    info[l.length] = (byte) sender.code();
    info[l.length + 1] = (byte) receiver.code();
    return info;
  }

  /**
   * Returns the least length of {@code TaskConfiguration.task_info}: 1 in DAP-18
   * ({@code opaque task_info<1..2^8-1>}), 0 in DAP-19 ({@code <0..2^8-1>}).
   */
  public int taskInfoMinLength() {
    return this == DAP_18 ? 1 : 0;
  }

  /**
   * Returns the uint8 code point of a report error in this version's {@code ReportError} enum
   * (DAP-18 and DAP-19 "Basic Type Definitions"; DAP-19 renumbered invalid_message and
   * report_too_early and reused 9 and 10).
   *
   * @throws IllegalArgumentException if this version has no such error
   */
  public int code(ReportError error) {
    int code = error.code(this);
    if (code < 0) {
      throw new IllegalArgumentException(error.specName() + " is not a report error of " + tag);
    }
    return code;
  }

  /**
   * Returns the report error with this code point in this version.
   *
   * @throws DapDecodeException naming {@code field} for {@code reserved(0)} and unregistered codes
   */
  public ReportError reportError(int code, String field) {
    return ReportError.fromCode(this, code, field);
  }

  /** Returns whether this version has the report error (DAP-19 dropped three and added two). */
  public boolean has(ReportError error) {
    return error.code(this) >= 0;
  }

  /**
   * Returns the error of an upload whose Leader share names an HPKE config the Leader does not
   * have: {@code outdated_config} (DAP-18) or {@code hpke_unknown_config_id} (DAP-19 "Leader
   * Behavior" of upload). Either way the Client refreshes its configs and retries once.
   */
  public ReportError uploadUnknownHpkeConfig() {
    return this == DAP_18 ? ReportError.OUTDATED_CONFIG : ReportError.HPKE_UNKNOWN_CONFIG_ID;
  }

  /**
   * Returns the error of a report share in an aggregation job whose HPKE config the Aggregator
   * does not have: {@code hpke_decrypt_error} (DAP-18) or {@code hpke_unknown_config_id} (DAP-19
   * "Input Share Decryption").
   */
  public ReportError aggregationUnknownHpkeConfig() {
    return this == DAP_18 ? ReportError.HPKE_DECRYPT_ERROR : ReportError.HPKE_UNKNOWN_CONFIG_ID;
  }

  /**
   * Returns the error of an input share whose time lies before the task_interval in aggregation:
   * {@code task_not_started} (DAP-18) or {@code report_dropped} (DAP-19 "Input Share
   * Validation", step 3).
   */
  public ReportError beforeTaskInterval() {
    return this == DAP_18 ? ReportError.TASK_NOT_STARTED : ReportError.REPORT_DROPPED;
  }

  /**
   * Returns the error of an input share whose time lies at or after the end of the task_interval
   * in aggregation: {@code task_expired} (DAP-18) or {@code report_dropped} (DAP-19).
   */
  public ReportError afterTaskInterval() {
    return this == DAP_18 ? ReportError.TASK_EXPIRED : ReportError.REPORT_DROPPED;
  }

  /**
   * Returns the per-report error of an upload whose report extensions break a rule (DAP-19
   * "Leader Behavior" of upload): an unrecognized extension gets {@code unsupported_extension},
   * a repeated one (or one out of order) {@code invalid_message}. DAP-18 lets the Leader abort the
   * whole upload with a problem document instead; prio-dp keeps the failure per report there too,
   * with {@code invalid_message}, DAP-18's nearest report error, so one bad report never fails the
   * others of its upload.
   */
  public ReportError uploadExtensionError(ReportExtension.Failure failure) {
    Objects.requireNonNull(failure, "failure");
    if (this == DAP_19 && failure == ReportExtension.Failure.UNRECOGNIZED) {
      return ReportError.UNSUPPORTED_EXTENSION;
    }
    return ReportError.INVALID_MESSAGE;
  }

  /**
   * Returns the per-report error of every report of an aggregation job whose verification_key_id
   * the Helper does not have: {@code unknown_verification_key_id} in DAP-19 ("Helper
   * Initialization"); empty in DAP-18, which has no such error, so the Helper refuses the whole
   * job with {@code invalidMessage}.
   */
  public Optional<ReportError> unknownVerificationKeyId() {
    return this == DAP_18 ? Optional.empty()
        : Optional.of(ReportError.UNKNOWN_VERIFICATION_KEY_ID);
  }

  /**
   * Returns whether the Leader may place a report the Helper rejected with this error in a later
   * aggregation job (DAP-19 "Leader Initialization": report_too_early and
   * unknown_verification_key_id; DAP-18: report_too_early only).
   */
  public boolean mayRetry(ReportError error) {
    return error == ReportError.REPORT_TOO_EARLY
        || (this == DAP_19 && error == ReportError.UNKNOWN_VERIFICATION_KEY_ID);
  }
}
