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

  /**
   * draft-ietf-ppm-dap-attribution-00 section 4.2: {@code struct { BatchMode batch_mode; opaque
   * config<0..2^16-1>; } Query} with batch_mode the deployment's collector_selected code and an
   * empty config, written here byte by byte.
   */
  @Test
  void collectorSelectedIsItsCodeAndAnEmptyConfig() {
    assertEquals("fa0000", HEX.formatHex(new Query.CollectorSelected().encode()));
    assertEquals(new Query.CollectorSelected(), Query.decode(HEX.parseHex("fa0000")));
    // another deployment's code point: 0x33 decodes only where 0x33 is collector_selected
    assertEquals("330000", HEX.formatHex(new Query.CollectorSelected(0x33).encode()));
    assertEquals(new Query.CollectorSelected(0x33), Query.decode(HEX.parseHex("330000"), 0x33));
    DapDecodeException e = assertThrows(DapDecodeException.class,
        () -> Query.decode(HEX.parseHex("330000")));
    assertEquals("query.batch_mode", e.field());
    // under a code of 0x33, the default 0xFA is no batch mode
    assertThrows(DapDecodeException.class, () -> Query.decode(HEX.parseHex("fa0000"), 0x33));
    // the config is empty: one byte in it is invalid
    e = assertThrows(DapDecodeException.class, () -> Query.decode(HEX.parseHex("fa000100")));
    assertEquals("query.config", e.field());
    assertThrows(IllegalArgumentException.class, () -> new Query.CollectorSelected(2));
  }
}
