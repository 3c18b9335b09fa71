package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class IntervalTest {
  @Test
  void encodesStartThenDurationAsUint64() {
    Interval i = Interval.of(123456789, 11);
    assertEquals("00000000075bcd15000000000000000b", HexFormat.of().formatHex(i.encode()));
    assertEquals(i, Interval.decode(i.encode()));
    assertEquals(new Time(123456800), i.end());
  }

  @Test
  void detectsOverflowAndContainment() {
    Interval max = Interval.of(-2L, 1);
    assertTrue(max.isWellFormed());
    assertEquals(new Time(-1L), max.end());
    Interval over = Interval.of(-1L, 2);
    assertFalse(over.isWellFormed());
    assertThrows(IllegalStateException.class, over::end);
    assertTrue(Interval.of(1659544, 10).isWithin(Interval.of(1659540, 100)));
    assertFalse(Interval.of(1659539, 10).isWithin(Interval.of(1659540, 100)));
    assertFalse(Interval.of(1659631, 10).isWithin(Interval.of(1659540, 100)));
    assertTrue(new Time(-1L).compareTo(new Time(1)) > 0, "times compare unsigned");
  }
}
