package org.priodp.aggregator.dap;

/**
 * Why one report failed in the upload or aggregation interaction, {@code enum { reserved(0),
 * batch_collected(1), report_replayed(2), report_dropped(3), hpke_unknown_config_id(4),
 * hpke_decrypt_error(5), vdaf_verify_error(6), task_expired(7), invalid_message(8),
 * report_too_early(9), task_not_started(10), outdated_config(11), (255) } ReportError} (DAP-18
 * "Basic Type Definitions" and the "DAP Report Error Identifiers" registry). {@code reserved(0)} is
 * not an error and, like every unregistered code, is rejected when decoding.
 */
public enum ReportError {
  BATCH_COLLECTED(1, "batch_collected"),
  REPORT_REPLAYED(2, "report_replayed"),
  REPORT_DROPPED(3, "report_dropped"),
  HPKE_UNKNOWN_CONFIG_ID(4, "hpke_unknown_config_id"),
  HPKE_DECRYPT_ERROR(5, "hpke_decrypt_error"),
  VDAF_VERIFY_ERROR(6, "vdaf_verify_error"),
  TASK_EXPIRED(7, "task_expired"),
  INVALID_MESSAGE(8, "invalid_message"),
  REPORT_TOO_EARLY(9, "report_too_early"),
  TASK_NOT_STARTED(10, "task_not_started"),
  OUTDATED_CONFIG(11, "outdated_config");

  private final int code;
  private final String specName;

  ReportError(int code, String specName) {
    this.code = code;
    this.specName = specName;
  }

  /** Returns the uint8 code point. */
  public int code() {
    return code;
  }

  /** Returns the registry name, e.g. {@code report_replayed}. */
  public String specName() {
    return specName;
  }

  /**
   * Returns the error with this code point or throws {@link DapDecodeException} naming the field
   * for {@code reserved(0)} and unregistered codes.
   */
  public static ReportError fromCode(int code, String field) {
    for (ReportError e : values()) {
      if (e.code == code) {
        return e;
      }
    }
    throw new DapDecodeException(field, (code == 0 ? "reserved" : "unknown") + " ReportError " + code);
  }
}
