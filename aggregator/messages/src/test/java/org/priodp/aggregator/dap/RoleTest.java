package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RoleTest {
  @Test
  void usesTheSpecCodePoints() {
    assertEquals(0, Role.COLLECTOR.code());
    assertEquals(1, Role.CLIENT.code());
    assertEquals(2, Role.LEADER.code());
    assertEquals(3, Role.HELPER.code());
    assertEquals(Role.HELPER, Role.fromCode(3, "role"));
    assertThrows(DapDecodeException.class, () -> Role.fromCode(4, "role"));
  }
}
