package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.CodeTable;

/** The protocol roles and their one-byte code points (DAP-18 "Basic Type Definitions", Role). */
public enum Role {
  COLLECTOR(0),
  CLIENT(1),
  LEADER(2),
  HELPER(3);

  private static final CodeTable<Role> CODES = CodeTable.of(values(), Role::code, "Role");

  private final int code;

  Role(int code) {
    this.code = code;
  }

  /** Returns the uint8 code point. */
  public int code() {
    return code;
  }

  /** Returns the role with this code point or throws {@link DapDecodeException} naming the field. */
  public static Role fromCode(int code, String field) {
    return CODES.fromCode(code, field);
  }
}
