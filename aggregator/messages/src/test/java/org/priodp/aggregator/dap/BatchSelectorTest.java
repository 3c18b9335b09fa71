package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class BatchSelectorTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void encodesBothModes() {
    BatchSelector ti = new BatchSelector.TimeInterval(Interval.of(1, 2));
    assertEquals("01" + "0010" + "0000000000000001" + "0000000000000002", HEX.formatHex(ti.encode()));
    BatchId id = new BatchId(Samples.bytes(32, 4));
    BatchSelector ls = new BatchSelector.LeaderSelected(id);
    assertEquals("02" + "0020" + HEX.formatHex(id.encode()), HEX.formatHex(ls.encode()));
    assertEquals(ti, BatchSelector.decode(ti.encode()));
    assertEquals(ls, BatchSelector.decode(ls.encode()));
  }

  @Test
  void checksConsistencyWithTheQuery() {
    Query q = new Query.TimeInterval(Interval.of(100, 10));
    assertTrue(new BatchSelector.TimeInterval(Interval.of(100, 10)).isConsistentWith(q));
    assertTrue(new BatchSelector.TimeInterval(Interval.of(105, 5)).isConsistentWith(q));
    assertFalse(new BatchSelector.TimeInterval(Interval.of(105, 6)).isConsistentWith(q));
    assertFalse(new BatchSelector.TimeInterval(Interval.of(99, 2)).isConsistentWith(q));
    BatchSelector ls = new BatchSelector.LeaderSelected(new BatchId(new byte[32]));
    assertFalse(ls.isConsistentWith(q));
    assertTrue(ls.isConsistentWith(new Query.LeaderSelected()));
  }

  @Test
  void rejectsAnEmptyConfig() {
    DapDecodeException e = assertThrows(DapDecodeException.class,
        () -> BatchSelector.decode(HEX.parseHex("020000")));
    assertTrue(e.field().startsWith("batch_selector.config"), e.field());
  }

  /**
   * draft-ietf-ppm-dap-attribution-00 section 4.2: the BatchSelector config of collector_selected
   * is the leader-selected one, {@code BatchID batch_id} (32 bytes), after the uint8 batch_mode
   * and the uint16 config length; written here byte by byte.
   */
  @Test
  void collectorSelectedCarriesTheBatchId() {
    byte[] id = new byte[32];
    id[0] = 7;
    id[31] = 9;
    String wire = "fa" + "0020" + "07" + "00".repeat(30) + "09";
    BatchSelector s = new BatchSelector.CollectorSelected(new BatchId(id), 0xfa);
    assertEquals(wire, HexFormat.of().formatHex(s.encode()));
    assertEquals(s, BatchSelector.decode(HexFormat.of().parseHex(wire)));
    assertEquals(new BatchSelector.CollectorSelected(new BatchId(id), 0x80),
        BatchSelector.decode(HexFormat.of().parseHex("80" + wire.substring(2)), 0x80));
    assertTrue(s.isConsistentWith(new Query.CollectorSelected()));
    assertFalse(s.isConsistentWith(new Query.LeaderSelected()));
    assertFalse(new BatchSelector.LeaderSelected(new BatchId(id))
        .isConsistentWith(new Query.CollectorSelected()));
    assertThrows(DapDecodeException.class,
        () -> BatchSelector.decode(HexFormat.of().parseHex("fa0000")));
  }
}
