package org.priodp.aggregator.dap.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;

class CodeTableTest {
  private enum Sample {
    ONE(1),
    TWO(2),
    ALSO_TWO(2);

    final int code;

    Sample(int code) {
      this.code = code;
    }
  }

  @Test
  void findsEachConstantByItsCode() {
    assertEquals(BatchMode.TIME_INTERVAL, BatchMode.fromCode(1, "m"));
    assertEquals(BatchMode.LEADER_SELECTED, BatchMode.fromCode(2, "m"));
    assertEquals("leader_selected", BatchMode.LEADER_SELECTED.specName());
  }

  @Test
  void namesTheFieldAndTellsReservedFromUnknownCodes() {
    DapDecodeException reserved = assertThrows(DapDecodeException.class,
        () -> BatchMode.fromCode(0, "query.batch_mode"));
    assertEquals("query.batch_mode", reserved.field());
    assertEquals(DapError.INVALID_MESSAGE, reserved.error());
    assertEquals("query.batch_mode: reserved BatchMode 0", reserved.getMessage());
    DapDecodeException unknown = assertThrows(DapDecodeException.class,
        () -> BatchMode.fromCode(3, "query.batch_mode"));
    assertEquals("query.batch_mode: unknown BatchMode 3", unknown.getMessage());
  }

  @Test
  void refusesTwoConstantsWithOneCode() {
    assertThrows(IllegalStateException.class,
        () -> CodeTable.of(Sample.values(), s -> s.code, "Sample"));
    Sample[] distinct = {Sample.ONE, Sample.TWO};
    assertEquals(Sample.TWO, CodeTable.of(distinct, s -> s.code, "Sample").fromCode(2, "f"));
  }
}
