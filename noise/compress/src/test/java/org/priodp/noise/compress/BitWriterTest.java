package org.priodp.noise.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BitWriterTest {

  @Test
  void writesMostSignificantBitFirstAndPadsWithZeros() {
    BitWriter w = new BitWriter();
    w.writeBit(1);
    w.writeBits(0b0110, 4);
    w.writeZeros(2);
    w.writeBit(1);
    w.writeBits(0b101, 3);
    assertEquals(11, w.bitLength());
    assertArrayEquals(new byte[] {(byte) 0b10110001, (byte) 0b10100000}, w.toByteArray());
  }

  @Test
  void growsAndTakesFullWords() {
    BitWriter w = new BitWriter();
    for (int i = 0; i < 100; i++) {
      w.writeBits(-1L, 64);
      w.writeBits(0, 0);
    }
    assertEquals(6400, w.bitLength());
    byte[] b = w.toByteArray();
    assertEquals(800, b.length);
    for (byte x : b) {
      assertEquals((byte) 0xff, x);
    }
    assertThrows(IllegalArgumentException.class, () -> w.writeBits(0, 65));
    assertThrows(IllegalArgumentException.class, () -> w.writeZeros(-1));
  }
}
