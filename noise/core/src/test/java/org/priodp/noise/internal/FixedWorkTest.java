package org.priodp.noise.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FixedWorkTest {
  private static final long[] EDGES = {0, 1, -1, 2, Long.MAX_VALUE, Long.MIN_VALUE, 0xFFFFFFFFL};

  private static BigInteger unsigned(long x) {
    return new BigInteger(Long.toUnsignedString(x));
  }

  @Test
  void comparisonAndProductMatchTheirReferences() {
    long seed = Long.getLong("priodp.seed", 0xF1EDL);
    System.out.println("FixedWorkTest: seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = 0; i < 100_000; i++) {
      long x = i < 49 ? EDGES[i / 7] : rnd.nextLong();
      long y = i < 49 ? EDGES[i % 7] : rnd.nextInt(4) == 0 ? x : rnd.nextLong();
      String at = x + ", " + y + " (seed=0x" + Long.toHexString(seed) + ")";
      assertEquals(Long.compareUnsigned(x, y) < 0 ? 1 : 0, FixedWork.lessThan(x, y), at);
      assertEquals(unsigned(x).multiply(unsigned(y)).shiftRight(64).longValue(),
          FixedWork.unsignedMultiplyHigh(x, y), at);
    }
  }

  @Test
  void weightIsTheSmallestIntegerAtOrAboveTheBound() {
    BigInteger two64 = BigInteger.ONE.shiftLeft(64);
    for (long others : new long[] {1, 2, 15, 99_999}) {
      for (long[] x : new long[][] {{1, 10}, {1, 1}, {5, 2}, {20, 1}}) {
        BigInteger w = FixedWork.weightAtLeast(BigInteger.valueOf(x[0]), BigInteger.valueOf(x[1]), others);
        // W (L + others) >= 2^64 > (W - 1)(L + others) with L = 2^128/(E + 4)
        BigInteger e4 = FixedPointExp.expNeg(BigInteger.valueOf(x[0]), BigInteger.valueOf(x[1]), 128)
            .add(BigInteger.valueOf(FixedPointExp.ERROR_ULPS));
        BigInteger denom = BigInteger.ONE.shiftLeft(128).add(BigInteger.valueOf(others).multiply(e4));
        assertTrue(w.multiply(denom).compareTo(two64.multiply(e4)) >= 0, others + " " + x[0] + "/" + x[1]);
        assertTrue(w.subtract(BigInteger.ONE).multiply(denom).compareTo(two64.multiply(e4)) < 0);
      }
    }
  }
}
