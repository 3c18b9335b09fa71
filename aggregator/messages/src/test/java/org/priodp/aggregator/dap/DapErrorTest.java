package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DapErrorTest {
  @Test
  void hasTheElevenSpecTypesWithUrns() {
    assertEquals(11, DapError.values().length);
    assertEquals("urn:ietf:params:ppm:dap:error:invalidMessage", DapError.INVALID_MESSAGE.urn());
    assertEquals("urn:ietf:params:ppm:dap:error:unrecognizedAggregationJob",
        DapError.UNRECOGNIZED_AGGREGATION_JOB.urn());
    for (DapError e : DapError.values()) {
      assertEquals(e, DapError.fromType(e.urn()));
      assertEquals(e, DapError.fromType(e.type()));
    }
    assertThrows(IllegalArgumentException.class, () -> DapError.fromType("nope"));
  }
}
