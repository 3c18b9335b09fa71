package org.priodp.aggregator.dap;

/**
 * The kind of a Helper's per-report verification response, {@code enum { continue(0), finish(1),
 * reject(2), (255) } VerifyRespType} (DAP-18 "Helper Initialization").
 */
public enum VerifyRespType {
  CONTINUE(0, "continue"),
  FINISH(1, "finish"),
  REJECT(2, "reject");

  private final int code;
  private final String specName;

  VerifyRespType(int code, String specName) {
    this.code = code;
    this.specName = specName;
  }

  /** Returns the uint8 code point. */
  public int code() {
    return code;
  }

  /** Returns the spec name, e.g. {@code continue}. */
  public String specName() {
    return specName;
  }

  /** Returns the type with this code point or throws {@link DapDecodeException} naming the field. */
  public static VerifyRespType fromCode(int code, String field) {
    for (VerifyRespType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    throw new DapDecodeException(field, "unknown VerifyRespType " + code);
  }
}
