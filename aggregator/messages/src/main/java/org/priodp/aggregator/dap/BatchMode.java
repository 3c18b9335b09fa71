package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.CodeTable;

/**
 * The batch modes and their one-byte code points (DAP-18 "Batch Modes", BatchMode enum, and the
 * "DAP Batch Mode Identifiers" registry); {@code reserved(0)} is not a mode and is rejected.
 */
public enum BatchMode {
  TIME_INTERVAL(1),
  LEADER_SELECTED(2);

  private static final CodeTable<BatchMode> CODES =
      CodeTable.of(values(), BatchMode::code, "BatchMode", 0);

  private final int code;

  BatchMode(int code) {
    this.code = code;
  }

  /** Returns the uint8 code point. */
  public int code() {
    return code;
  }

  /** Returns the registry name, e.g. {@code time_interval}. */
  public String specName() {
    return CodeTable.specName(this);
  }

  /** Returns the mode with this code point or throws {@link DapDecodeException} naming the field. */
  public static BatchMode fromCode(int code, String field) {
    return CODES.fromCode(code, field);
  }
}
