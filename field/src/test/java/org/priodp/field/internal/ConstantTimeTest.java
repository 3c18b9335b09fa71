package org.priodp.field.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ConstantTimeTest {
  private static final long[] EDGES = {0, 1, -1, 2, Long.MAX_VALUE, Long.MIN_VALUE, 0xFFFFFFFF00000001L, 42};

  private static long value(SplittableRandom rnd, int i) {
    return i < 64 ? EDGES[i % EDGES.length] : rnd.nextInt(4) == 0 ? EDGES[rnd.nextInt(EDGES.length)] : rnd.nextLong();
  }

  @Test
  void comparisonsCarriesAndSelectionMatchTheBranchingOnes() {
    long seed = Long.getLong("priodp.seed", 0xC7L);
    System.out.println("ConstantTimeTest: seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = 0; i < 200_000; i++) {
      long x = i < 64 ? EDGES[i / EDGES.length] : value(rnd, i);
      long y = value(rnd, i);
      String at = x + ", " + y + " (seed=0x" + Long.toHexString(seed) + ")";
      assertEquals(Long.compareUnsigned(x, y) < 0 ? 1 : 0, ConstantTime.lessThan(x, y), at);
      long s = x + y;
      assertEquals(Long.compareUnsigned(s, x) < 0 ? 1 : 0, ConstantTime.carry(x, y, s), at);
      assertEquals(x, ConstantTime.select(1, x, y), at);
      assertEquals(y, ConstantTime.select(0, x, y), at);
      long xl = value(rnd, i);
      long yl = rnd.nextInt(3) == 0 ? xl : value(rnd, i);
      long yh = rnd.nextInt(3) == 0 ? x : y;
      int c = Long.compareUnsigned(x, yh);
      long want = c < 0 || (c == 0 && Long.compareUnsigned(xl, yl) < 0) ? 1 : 0;
      assertEquals(want, ConstantTime.lessThan(x, xl, yh, yl), at + " " + xl + " " + yl);
    }
  }
}
