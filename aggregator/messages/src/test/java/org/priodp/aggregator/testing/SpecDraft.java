package org.priodp.aggregator.testing;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a peer written from a DAP draft's text needs to know of its version, copied from each
 * draft and never from the project's {@code DapVersion}: the version tag of the VDAF application
 * context and of the HPKE info strings ("Client Behavior", "Upload Request", "Input Share
 * Decryption", "Aggregate Share Encryption"), the {@code ReportError} enum as the draft writes it
 * ("Basic Type Definitions") and the least length of {@code TaskConfiguration.task_info} ("Task
 * Configuration"). Interop tests run their peer at each draft against aggregators provisioned with
 * the matching version, so that what the peer sends and expects is independent evidence.
 */
public enum SpecDraft {
  /** draft-ietf-ppm-dap-18: {@code opaque task_info<1..2^8-1>}. */
  DAP_18("dap-18", 1, """
      enum {
        reserved(0),
        batch_collected(1),
        report_replayed(2),
        report_dropped(3),
        hpke_unknown_config_id(4),
        hpke_decrypt_error(5),
        vdaf_verify_error(6),
        task_expired(7),
        invalid_message(8),
        report_too_early(9),
        task_not_started(10),
        outdated_config(11),
        (255)
      } ReportError;"""),
  /** draft-ietf-ppm-dap-19: {@code opaque task_info<0..2^8-1>}. */
  DAP_19("dap-19", 0, """
      enum {
        reserved(0),
        batch_collected(1),
        report_replayed(2),
        report_dropped(3),
        hpke_unknown_config_id(4),
        hpke_decrypt_error(5),
        vdaf_verify_error(6),
        invalid_message(7),
        report_too_early(8),
        unknown_verification_key_id(9),
        unsupported_extension(10),
        (255)
      } ReportError;""");

  private final String tag;
  private final int taskInfoFloor;
  private final Map<String, Integer> reportErrors = new LinkedHashMap<>();

  SpecDraft(String tag, int taskInfoFloor, String reportErrorEnum) {
    this.tag = tag;
    this.taskInfoFloor = taskInfoFloor;
    Matcher m = Pattern.compile("([a-z_]+)\\((\\d+)\\)").matcher(reportErrorEnum);
    while (m.find()) {
      reportErrors.put(m.group(1), Integer.parseInt(m.group(2)));
    }
  }

  /** Returns the version tag, {@code "dap-18"} or {@code "dap-19"}. */
  public String tag() {
    return tag;
  }

  /** Returns the other draft. */
  public SpecDraft other() {
    return this == DAP_18 ? DAP_19 : DAP_18;
  }

  /** Returns the code point of the named report error in this draft. */
  public int code(String reportError) {
    Integer c = reportErrors.get(reportError);
    if (c == null || c == 0) {
      throw new IllegalArgumentException(tag + " has no report error " + reportError);
    }
    return c;
  }

  /** Returns whether this draft has the named report error. */
  public boolean has(String reportError) {
    return reportErrors.containsKey(reportError) && !"reserved".equals(reportError);
  }

  /** Returns the name of a code point in this draft (for messages), or "unregistered(N)". */
  public String name(int code) {
    return reportErrors.entrySet().stream().filter(e -> e.getValue() == code)
        .map(Map.Entry::getKey).findFirst().orElse("unregistered(" + code + ")");
  }

  /** Returns the least length of task_info. */
  public int taskInfoFloor() {
    return taskInfoFloor;
  }

  /**
   * Returns {@code opaque task_info<floor..2^8-1>} encoded; a task_info this draft does not allow
   * is an IllegalArgumentException, as a peer of the draft would refuse to provision it.
   */
  public byte[] taskInfo(byte[] info) {
    if (info.length < taskInfoFloor || info.length > 255) {
      throw new IllegalArgumentException("task_info of " + info.length + " bytes: " + tag
          + " allows " + taskInfoFloor + "..255");
    }
    return new SpecTls().opaque8(info).bytes();
  }

  /** Returns the VDAF application context {@code "dap-NN" || task_id}. */
  public byte[] vdafContext(byte[] taskId) {
    return new SpecTls().raw(tag.getBytes(StandardCharsets.US_ASCII)).raw(taskId).bytes();
  }

  /** Returns {@code "dap-NN input share" || 0x01 || server_role} (2 Leader, 3 Helper). */
  public byte[] inputShareInfo(int serverRole) {
    return new SpecTls().raw((tag + " input share").getBytes(StandardCharsets.US_ASCII)).u8(1)
        .u8(serverRole).bytes();
  }

  /** Returns {@code "dap-NN aggregate share" || server_role || 0x00} (2 Leader, 3 Helper). */
  public byte[] aggregateShareInfo(int serverRole) {
    return new SpecTls().raw((tag + " aggregate share").getBytes(StandardCharsets.US_ASCII))
        .u8(serverRole).u8(0).bytes();
  }
}
