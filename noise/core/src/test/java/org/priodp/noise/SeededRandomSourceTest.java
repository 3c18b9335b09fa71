package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SeededRandomSourceTest {

  @Test
  void sameSeedSameBitsDifferentSeedDifferentBits() {
    RandomSource a = SeededRandomSource.fromHex("00ff");
    RandomSource b = SeededRandomSource.fromHex("00ff");
    RandomSource c = SeededRandomSource.fromHex("00fe");
    boolean differ = false;
    for (int i = 0; i < 10_000; i++) {
      long x = a.nextLong();
      assertEquals(x, b.nextLong());
      differ |= x != c.nextLong();
    }
    assertTrue(differ);
    assertEquals("00ff", SeededRandomSource.fromHex(" 00FF ").seedHex());
  }

  @Test
  void mixedWidthReadsSeeTheSameBitStream() {
    long seed = 0x5EED5L;
    System.out.println("mixedWidthReadsSeeTheSameBitStream: seed=0x" + Long.toHexString(seed));
    SplittableRandom widths = new SplittableRandom(seed);
    RandomSource bulk = RandomSource.seeded(new byte[] {9});
    RandomSource bits = RandomSource.seeded(new byte[] {9});
    long total = 0;
    for (int i = 0; i < 20_000; i++) {
      int k = widths.nextInt(65);
      long v = bulk.nextBits(k);
      long expect = 0;
      for (int j = 0; j < k; j++) {
        expect |= (long) bits.nextBit() << j;
      }
      assertEquals(expect, v, "read " + i + " of " + k + " bits (seed=0x" + Long.toHexString(seed) + ")");
      total += k;
    }
    assertEquals(total, bulk.bitsConsumed());
    assertEquals(total, bits.bitsConsumed());
  }

  @Test
  void bitsAreBalanced() {
    RandomSource r = RandomSource.seeded(new byte[0]);
    int n = 1 << 22;
    long ones = 0;
    for (int i = 0; i < n / 64; i++) {
      ones += Long.bitCount(r.nextLong());
    }
    // 6 standard deviations of Bin(n, 1/2)
    assertTrue(Math.abs(ones - n / 2.0) < 6 * Math.sqrt(n / 4.0), "ones=" + ones + " of " + n);
  }

  @Test
  void rejectsBadInput() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SeededRandomSource.fromHex("abc"));
    assertTrue(e.getMessage().contains("even number of hex digits"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SeededRandomSource.fromHex("zz"));
    RandomSource r = RandomSource.seeded(new byte[] {1});
    assertThrows(IllegalArgumentException.class, () -> r.nextBits(65));
    assertThrows(IllegalArgumentException.class, () -> r.nextBits(-1));
    assertEquals(0, r.nextBits(0));
    assertNotEquals(r.nextLong(), RandomSource.seeded(new byte[] {2}).nextLong());
  }

  @Test
  void blockSizeAndFirstBlockOnlyMoveThroughTheSameKeystream() {
    byte[] seed = {4, 2};
    RandomSource whole = new SeededRandomSource(seed);
    long[] words = new long[64];
    for (int i = 0; i < words.length; i++) {
      words[i] = whole.nextLong();
    }
    RandomSource small = new SeededRandomSource(seed, 16);
    for (long w : words) {
      assertEquals(w, small.nextLong());
    }
    for (int block = 0; block < 32; block++) {
      RandomSource jump = new SeededRandomSource(seed, block, 16);
      assertEquals(words[2 * block], jump.nextLong());
      assertEquals(words[2 * block + 1], jump.nextLong());
    }
    assertThrows(IllegalArgumentException.class, () -> new SeededRandomSource(seed, -1, 16));
    assertThrows(IllegalArgumentException.class, () -> new SeededRandomSource(seed, 0, 12));
  }

  @Test
  void seekerJumpsToAnyBlockWithTheSameBits() {
    byte[] seed = {1, 2, 3};
    SeededRandomSource.Seeker seeker = SeededRandomSource.seeker(seed);
    for (long first : new long[] {0, 1, 17, 1L << 40}) {
      RandomSource ref = new SeededRandomSource(seed, first, 64);
      RandomSource got = seeker.at(first, 3);
      for (int w = 0; w < 20; w++) {
        assertEquals(ref.nextLong(), got.nextLong(), "block " + first);
      }
    }
    assertThrows(IllegalArgumentException.class, () -> seeker.at(-1, 1));
    assertThrows(IllegalArgumentException.class, () -> seeker.at(0, 0));
  }
}
