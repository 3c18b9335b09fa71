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
}
