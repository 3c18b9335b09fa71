package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.CodeTable;

/**
 * The kind of a Helper's per-report verification response, {@code enum { continue(0), finish(1),
 * reject(2), (255) } VerifyRespType} (DAP-18 "Helper Initialization").
 */
public enum VerifyRespType {
  CONTINUE(0),
  FINISH(1),
  REJECT(2);

  private static final CodeTable<VerifyRespType> CODES =
      CodeTable.of(values(), VerifyRespType::code, "VerifyRespType");

  private final int code;

  VerifyRespType(int code) {
    this.code = code;
  }

  /** Returns the uint8 code point. */
  public int code() {
    return code;
  }

  /** Returns the spec name, e.g. {@code continue}. */
  public String specName() {
    return CodeTable.specName(this);
  }

  /** Returns the type with this code point or throws {@link DapDecodeException} naming the field. */
  public static VerifyRespType fromCode(int code, String field) {
    return CODES.fromCode(code, field);
  }
}
