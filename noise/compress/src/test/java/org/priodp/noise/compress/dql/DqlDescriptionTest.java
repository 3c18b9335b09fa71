package org.priodp.noise.compress.dql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DqlDescriptionTest {

  @Test
  void holdsACopyAndPrintsHex() {
    byte[] b = {(byte) 0xa5, 0x40};
    DqlDescription d = new DqlDescription(b, 10, 3);
    b[0] = 0;
    assertEquals("a540", d.hex());
    assertEquals(10.0 / 3, d.bitsPerValue(), 1e-15);
    d.bytes()[1] = 7;
    assertEquals("a540", d.hex());
    assertEquals(new DqlDescription(new byte[] {(byte) 0xa5, 0x40}, 10, 3), d);
    assertNotEquals(new DqlDescription(new byte[] {(byte) 0xa5, 0x40}, 11, 3), d);
    assertEquals(0, new DqlDescription(new byte[0], 0, 0).bitsPerValue());
  }

  @Test
  void inconsistentLengthsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> new DqlDescription(new byte[2], 17, 1));
    assertThrows(IllegalArgumentException.class, () -> new DqlDescription(new byte[2], 8, 1));
    assertThrows(IllegalArgumentException.class, () -> new DqlDescription(new byte[1], 2, 3));
    assertThrows(IllegalArgumentException.class, () -> new DqlDescription(new byte[0], 0, -1));
  }
}
