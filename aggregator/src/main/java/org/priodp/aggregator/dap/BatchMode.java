package org.priodp.aggregator.dap;

/**
 * The batch modes and their one-byte code points (DAP-18 "Batch Modes", BatchMode enum, and the
 * "DAP Batch Mode Identifiers" registry); {@code reserved(0)} is not a mode and is rejected.
 */
public enum BatchMode {
  TIME_INTERVAL(1, "time_interval"),
  LEADER_SELECTED(2, "leader_selected");

  private final int code;
  private final String specName;

  BatchMode(int code, String specName) {
    this.code = code;
    this.specName = specName;
  }

  /** Returns the uint8 code point. */
  public int code() {
    return code;
  }

  /** Returns the registry name, e.g. {@code time_interval}. */
  public String specName() {
    return specName;
  }

  /** Returns the mode with this code point or throws {@link DapDecodeException} naming the field. */
  public static BatchMode fromCode(int code, String field) {
    for (BatchMode m : values()) {
      if (m.code == code) {
        return m;
      }
    }
    throw new DapDecodeException(field, "unknown BatchMode " + code);
  }
}
