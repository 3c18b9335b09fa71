package org.priodp.field.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LongBytesTest {
  private static final long[] EDGES = {
    0, 1, 2, 28, 783, 0xFFFFFFFFL, 1L << 32, Long.MAX_VALUE, Long.MIN_VALUE, -1L, -2L,
    0xFFFFFFFFFFFFFFE4L, 0xFFFFFFFF00000001L
  };

  private static BigInteger unsigned(long v) {
    return new BigInteger(Long.toUnsignedString(v));
  }

  private static long expectedHigh(long a, long b) {
    return unsigned(a).multiply(unsigned(b)).shiftRight(64).longValue();
  }

  /**
   * Both unsigned multiply-high paths (the one this JVM runs and the portable Java 17 form)
   * against BigInteger, on every pair of edge words and on seeded random pairs.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2})
  void unsignedMultiplyHighMatchesBigInteger(long base) {
    long seed = Long.getLong("priodp.seed", 0x4D55_4C00L + base);
    System.out.println(
        "LongBytesTest: seed=0x" + Long.toHexString(seed) + ", path "
            + (LongBytes.intrinsic() ? "intrinsic" : "portable") + " on Java "
            + Runtime.version().feature());
    for (long a : EDGES) {
      for (long b : EDGES) {
        check(a, b, seed);
      }
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = 0; i < 200_000; i++) {
      long a = rnd.nextInt(4) == 0 ? EDGES[rnd.nextInt(EDGES.length)] : rnd.nextLong();
      long b = rnd.nextInt(4) == 0 ? EDGES[rnd.nextInt(EDGES.length)] : rnd.nextLong();
      check(a, b, seed);
    }
  }

  private static void check(long a, long b, long seed) {
    long want = expectedHigh(a, b);
    String at = Long.toUnsignedString(a) + " * " + Long.toUnsignedString(b) + " (seed=0x"
        + Long.toHexString(seed) + ")";
    assertEquals(want, LongBytes.unsignedMultiplyHigh(a, b), "chosen path: " + at);
    assertEquals(want, LongBytes.portableUnsignedMultiplyHigh(a, b), "portable: " + at);
  }

  @ParameterizedTest(name = "Java {0}")
  @ValueSource(ints = {18})
  void theIntrinsicIsChosenExactlyWhenTheJdkHasIt(int firstRelease) {
    assertEquals(Runtime.version().feature() >= firstRelease, LongBytes.intrinsic());
  }
}
