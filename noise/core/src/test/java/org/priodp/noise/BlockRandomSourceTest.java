package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BlockRandomSourceTest {

  @Test
  void nextLongIsNextBits64AlignedOrNot() {
    RandomSource a = new SeededRandomSource(new byte[] {7}, 64);
    RandomSource b = new SeededRandomSource(new byte[] {7}, 64);
    for (int i = 0; i < 100; i++) {
      int k = i % 7 == 0 ? 3 : 0; // sometimes leave the stream off a word boundary
      assertEquals(a.nextBits(k), b.nextBits(k));
      assertEquals(a.nextBits(64), b.nextLong(), "draw " + i);
      assertEquals(a.bitsConsumed(), b.bitsConsumed());
    }
  }
}
