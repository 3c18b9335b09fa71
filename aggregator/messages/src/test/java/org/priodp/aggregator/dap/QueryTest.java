package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class QueryTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void encodesAndStrictlyDecodesBothModes() {
    assertEquals("020000", HEX.formatHex(new Query.LeaderSelected().encode()));
    assertEquals(new Query.LeaderSelected(), Query.decode(HEX.parseHex("020000")));
    Query ti = new Query.TimeInterval(Interval.of(5, 6));
    assertEquals(ti, Query.decode(ti.encode()));
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> Query.decode(HEX.parseHex("02000100")));
    assertEquals("query.config", e.field());
    e = assertThrows(DapDecodeException.class, () -> Query.decode(HEX.parseHex("010000")));
    assertEquals("query.config.batch_interval.start", e.field());
  }
}
