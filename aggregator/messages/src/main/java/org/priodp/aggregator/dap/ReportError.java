package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.CodeTable;

/**
 * Why one report failed in the upload or aggregation interaction: the union of the {@code
 * ReportError} enums of the DAP versions prio-dp speaks, with each version's code point (DAP-18
 * and DAP-19 "Basic Type Definitions" and the "DAP Report Error Identifiers" registry). DAP-18:
 * {@code reserved(0), batch_collected(1), report_replayed(2), report_dropped(3),
 * hpke_unknown_config_id(4), hpke_decrypt_error(5), vdaf_verify_error(6), task_expired(7),
 * invalid_message(8), report_too_early(9), task_not_started(10), outdated_config(11)}. DAP-19:
 * {@code reserved(0), batch_collected(1), report_replayed(2), report_dropped(3),
 * hpke_unknown_config_id(4), hpke_decrypt_error(5), vdaf_verify_error(6), invalid_message(7),
 * report_too_early(8), unknown_verification_key_id(9), unsupported_extension(10)}. The codes
 * differ, so encoding and decoding always go through a {@link DapVersion}. {@code reserved(0)} is
 * not an error and, like every code a version does not register, is rejected when decoding.
 */
public enum ReportError {
  BATCH_COLLECTED(1, 1),
  REPORT_REPLAYED(2, 2),
  REPORT_DROPPED(3, 3),
  HPKE_UNKNOWN_CONFIG_ID(4, 4),
  HPKE_DECRYPT_ERROR(5, 5),
  VDAF_VERIFY_ERROR(6, 6),
  TASK_EXPIRED(7, -1),
  INVALID_MESSAGE(8, 7),
  REPORT_TOO_EARLY(9, 8),
  TASK_NOT_STARTED(10, -1),
  OUTDATED_CONFIG(11, -1),
  UNKNOWN_VERIFICATION_KEY_ID(-1, 9),
  UNSUPPORTED_EXTENSION(-1, 10);

  private static final CodeTable<ReportError> DAP_18_CODES = CodeTable.of(
      java.util.Arrays.stream(values()).filter(e -> e.dap18 >= 0).toArray(ReportError[]::new),
      e -> e.dap18, "DAP-18 ReportError", 0);
  private static final CodeTable<ReportError> DAP_19_CODES = CodeTable.of(
      java.util.Arrays.stream(values()).filter(e -> e.dap19 >= 0).toArray(ReportError[]::new),
      e -> e.dap19, "DAP-19 ReportError", 0);

  private final int dap18;
  private final int dap19;

  ReportError(int dap18, int dap19) {
    this.dap18 = dap18;
    this.dap19 = dap19;
  }

  /** Returns the code point in {@code version}, or -1 if that version has no such error. */
  int code(DapVersion version) {
    return version == DapVersion.DAP_18 ? dap18 : dap19;
  }

  /** Returns the registry name, e.g. {@code report_replayed}. */
  public String specName() {
    return CodeTable.specName(this);
  }

  static ReportError fromCode(DapVersion version, int code, String field) {
    return (version == DapVersion.DAP_18 ? DAP_18_CODES : DAP_19_CODES).fromCode(code, field);
  }
}
