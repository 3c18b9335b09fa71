package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HardenedDiscreteLaplaceTest {

  @ParameterizedTest
  @ValueSource(strings = {"1/2", "2", "100", "1000000", "12345/7"})
  void everySampleConsumesTheSameRandomness(String scale) {
    HardenedDiscreteLaplace h = HardenedDiscreteLaplace.of(Rational.parse(scale));
    RandomSource r = RandomSource.seeded(new byte[] {11});
    Set<Long> values = new HashSet<>();
    long before = r.bitsConsumed();
    for (int i = 0; i < 20_000; i++) {
      values.add(h.sample(r));
      long after = r.bitsConsumed();
      assertEquals(h.bitsPerSample(), after - before, "sample " + i);
      before = after;
    }
    assertTrue(values.size() > 1, "outputs vary");
    assertEquals(80L * (h.digits() + 1) + 1, h.bitsPerSample());
  }

  @Test
  void deltaIsBelowTheDefaultBoundAndDigitsGrowWithTheScale() {
    Rational bound = HardenedDiscreteLaplace.DEFAULT_DELTA;
    int previous = 0;
    for (String s : new String[] {"1/2", "2", "100", "1000000", "1000000000000"}) {
      HardenedDiscreteLaplace h = HardenedDiscreteLaplace.of(Rational.parse(s));
      assertTrue(h.delta().compareTo(bound) <= 0, s + ": delta " + h.delta());
      assertTrue(h.digits() >= previous, s);
      previous = h.digits();
      // 2^m >= 46 t is what delta <= 2^-64 needs: e^(-2^m/t) <= 2^-66
      double t = Accuracy.toDouble(Rational.parse(s));
      assertTrue(Math.pow(2, h.digits()) >= 45 * t, s + ": digits " + h.digits());
    }
    HardenedDiscreteLaplace loose = HardenedDiscreteLaplace.of(Rational.of(100), Rational.of(1, 1000));
    HardenedDiscreteLaplace tight = HardenedDiscreteLaplace.of(Rational.of(100));
    assertTrue(loose.digits() < tight.digits());
    assertTrue(loose.delta().compareTo(Rational.of(1, 1000)) <= 0);
  }

  @Test
  void rejectsBadParameters() {
    assertThrows(IllegalArgumentException.class, () -> HardenedDiscreteLaplace.of(Rational.ZERO));
    assertThrows(IllegalArgumentException.class, () -> HardenedDiscreteLaplace.of(Rational.ONE, Rational.ONE));
    assertThrows(IllegalArgumentException.class, () -> HardenedDiscreteLaplace.of(Rational.ONE, Rational.ZERO));
    assertThrows(IllegalArgumentException.class,
        () -> HardenedDiscreteLaplace.of(Rational.ONE, Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(200))));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HardenedDiscreteLaplace.of(Rational.of(BigInteger.ONE.shiftLeft(70))));
    assertTrue(e.getMessage().contains("too large"), e.getMessage());
  }

  @Test
  void branchFreeComparisonMatchesUnsignedComparison() {
    long seed = 0xC0FFEEL;
    System.out.println("branchFreeComparison: seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] edges = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 42};
    for (int i = 0; i < 200_000; i++) {
      long xh = i < 36 ? edges[i % 6] : rnd.nextLong();
      long yh = i < 36 ? edges[i / 6] : (rnd.nextInt(4) == 0 ? xh : rnd.nextLong());
      long xl = rnd.nextInt(8) == 0 ? edges[rnd.nextInt(6)] : rnd.nextLong();
      long yl = rnd.nextInt(4) == 0 ? xl : rnd.nextLong();
      int c = Long.compareUnsigned(xh, yh);
      long want = (c < 0 || (c == 0 && Long.compareUnsigned(xl, yl) < 0)) ? 1 : 0;
      assertEquals(want, HardenedDiscreteLaplace.lessThan(xh, xl, yh, yl),
          "(" + xh + "," + xl + ") < (" + yh + "," + yl + ")");
    }
  }

  @Test
  void answersTheExactLaplaceAccuracyFigures() {
    HardenedDiscreteLaplace h = HardenedDiscreteLaplace.of(Rational.of(4));
    DiscreteLaplace exact = DiscreteLaplace.of(Rational.of(4));
    assertEquals(exact.variance(), h.variance());
    assertEquals(exact.halfWidth(2, 0.95), h.halfWidth(2, 0.95));
    assertEquals(exact.halfWidth(5, 0.95), h.halfWidth(5, 0.95));
    assertTrue(h.drawsFitLong());
    assertTrue(h.describe().startsWith("fixed-work discrete Laplace with scale 4 (total variation <= 2^-"),
        h.describe());
  }
}
