package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.CodeTable;

/**
 * The batch modes and their one-byte code points (DAP-18 "Batch Modes", BatchMode enum, and the
 * "DAP Batch Mode Identifiers" registry); {@code reserved(0)} is not a mode and is rejected.
 * {@link #COLLECTOR_SELECTED} is the attribution draft's collector_selected mode
 * (draft-ietf-ppm-dap-attribution-00 section 4), whose code point is still TBD: each task names it
 * (its AttributionCodePoints), so decoders take that code; {@link #code()} is prio-dp's default,
 * {@link #DEFAULT_COLLECTOR_SELECTED}.
 */
public enum BatchMode {
  TIME_INTERVAL(1),
  LEADER_SELECTED(2),
  COLLECTOR_SELECTED(0xFA);

  /** prio-dp's default code point of collector_selected (the draft's "0xTBD"). */
  public static final int DEFAULT_COLLECTOR_SELECTED = 0xFA;

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

  /**
   * Returns the mode with this code point, collector_selected under its default code, or throws
   * {@link DapDecodeException} naming the field.
   */
  public static BatchMode fromCode(int code, String field) {
    return fromCode(code, DEFAULT_COLLECTOR_SELECTED, field);
  }

  /**
   * Returns the mode with this code point where collector_selected is {@code collectorSelected}
   * (the task's code point; draft-ietf-ppm-dap-attribution-00 section 4), or throws {@link
   * DapDecodeException} naming the field.
   */
  public static BatchMode fromCode(int code, int collectorSelected, String field) {
    if (code == collectorSelected) {
      return COLLECTOR_SELECTED;
    }
    BatchMode mode = CODES.fromCode(code, field);
    if (mode == COLLECTOR_SELECTED) {
      throw new DapDecodeException(field, "unknown BatchMode " + code);
    }
    return mode;
  }

  /** Returns this mode's code point where collector_selected is {@code collectorSelected}. */
  public int code(int collectorSelected) {
    return this == COLLECTOR_SELECTED ? collectorSelected : code;
  }
}
