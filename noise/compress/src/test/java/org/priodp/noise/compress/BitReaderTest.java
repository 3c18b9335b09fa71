package org.priodp.noise.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BitReaderTest {

  @Test
  void readsWhatTheWriterWrote() {
    BitReader r = new BitReader(new byte[] {(byte) 0b10110001, (byte) 0b10100000});
    assertEquals(1, r.readBit());
    assertEquals(0b0110, r.readBits(4));
    assertEquals(2, r.readZerosThenOne(10));
    assertEquals(0b101, r.readBits(3));
    assertEquals(11, r.position());
    assertEquals(5, r.remaining());
    assertTrue(r.restIsZero());
    assertEquals(0, r.readBits(5));
    assertThrows(IllegalArgumentException.class, r::readBit);
  }

  @Test
  void truncationAndMalformedPrefixesFailClearly() {
    BitReader r = new BitReader(new byte[] {0x01});
    assertFalse(r.restIsZero());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.readBits(9));
    assertTrue(e.getMessage().startsWith("truncated description"), e.getMessage());
    BitReader zeros = new BitReader(new byte[4]);
    assertThrows(IllegalArgumentException.class, () -> zeros.readZerosThenOne(10));
    assertThrows(IllegalArgumentException.class, () -> new BitReader(new byte[1]).readBits(65));
    assertEquals(-1L, new BitReader(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1}).readBits(64));
  }
}
