package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.CodeTable;

/**
 * Why one report failed in the upload or aggregation interaction, {@code enum { reserved(0),
 * batch_collected(1), report_replayed(2), report_dropped(3), hpke_unknown_config_id(4),
 * hpke_decrypt_error(5), vdaf_verify_error(6), task_expired(7), invalid_message(8),
 * report_too_early(9), task_not_started(10), outdated_config(11), (255) } ReportError} (DAP-18
 * "Basic Type Definitions" and the "DAP Report Error Identifiers" registry). {@code reserved(0)} is
 * not an error and, like every unregistered code, is rejected when decoding.
 */
public enum ReportError {
  BATCH_COLLECTED(1),
  REPORT_REPLAYED(2),
  REPORT_DROPPED(3),
  HPKE_UNKNOWN_CONFIG_ID(4),
  HPKE_DECRYPT_ERROR(5),
  VDAF_VERIFY_ERROR(6),
  TASK_EXPIRED(7),
  INVALID_MESSAGE(8),
  REPORT_TOO_EARLY(9),
  TASK_NOT_STARTED(10),
  OUTDATED_CONFIG(11);

  private static final CodeTable<ReportError> CODES =
      CodeTable.of(values(), ReportError::code, "ReportError", 0);

  private final int code;

  ReportError(int code) {
    this.code = code;
  }

  /** Returns the uint8 code point. */
  public int code() {
    return code;
  }

  /** Returns the registry name, e.g. {@code report_replayed}. */
  public String specName() {
    return CodeTable.specName(this);
  }

  /**
   * Returns the error with this code point or throws {@link DapDecodeException} naming the field
   * for {@code reserved(0)} and unregistered codes.
   */
  public static ReportError fromCode(int code, String field) {
    return CODES.fromCode(code, field);
  }
}
