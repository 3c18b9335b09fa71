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
import org.priodp.noise.internal.FixedPointExp;

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
    assertEquals(h.uniformBits() + 1L, h.bitsPerSample());
    assertTrue(h.bitsPerSample() <= 128, "fixed bits: " + h.bitsPerSample());
  }

  @Test
  void deltaIsBelowTheDefaultBoundAndDigitsGrowWithTheScale() {
    Rational bound = HardenedDiscreteLaplace.DEFAULT_DELTA;
    int previous = 0;
    for (String s : new String[] {"1/2", "2", "100", "1000000", "1000000000000", "50000000000000"}) {
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

  /**
   * The true cutoff for delta 2^-64, by bisection over integer scales (exact rationals): every
   * scale up to MAX_SCALE is accepted, MAX_SCALE + 1 is refused with a message naming MAX_SCALE.
   */
  @Test
  void theLargestScaleIsFoundByBisection() {
    BigInteger lo = BigInteger.valueOf(50_000_000_000_000L); // the cutoff the docs used to state
    BigInteger hi = BigInteger.valueOf(200_000_000_000_000L);
    assertTrue(accepts(lo));
    assertTrue(!accepts(hi));
    while (hi.subtract(lo).compareTo(BigInteger.ONE) > 0) {
      BigInteger mid = lo.add(hi).shiftRight(1);
      if (accepts(mid)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    System.out.println("largest scale for delta 2^-64: " + lo + " (" + HardenedDiscreteLaplace.of(Rational.of(lo)) + ")");
    assertEquals(HardenedDiscreteLaplace.MAX_SCALE, Rational.of(lo));
    assertTrue(accepts(lo) && !accepts(lo.add(BigInteger.ONE)));
    // monotone below it: a sweep of scales all accepted
    for (BigInteger t = BigInteger.ONE; t.compareTo(lo) < 0; t = t.multiply(BigInteger.valueOf(7))) {
      assertTrue(accepts(t), "scale " + t);
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HardenedDiscreteLaplace.of(HardenedDiscreteLaplace.MAX_SCALE.add(Rational.ONE)));
    assertTrue(e.getMessage().contains("the largest supported integer scale is 98388942814359"), e.getMessage());
  }

  private static boolean accepts(BigInteger scale) {
    try {
      HardenedDiscreteLaplace.of(Rational.of(scale));
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
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

  @Test
  void theDefaultBoundGivesTheDocumentedDigitsAndBits() {
    String[][] want = {{"2", "7", "71"}, {"100", "13", "77"}, {"1000000", "26", "90"}};
    for (String[] w : want) {
      HardenedDiscreteLaplace h = HardenedDiscreteLaplace.of(Rational.parse(w[0]));
      assertEquals(Integer.parseInt(w[1]), h.digits(), w[0]);
      assertEquals(Integer.parseInt(w[2]), h.uniformBits(), w[0]);
    }
  }

  @Test
  void deltaIsTheDocumentedFormulaAndOneBitFewerWouldBreakTheBound() {
    for (String s : new String[] {"1/2", "2", "100", "1000000", "12345/7"}) {
      Rational t = Rational.parse(s);
      HardenedDiscreteLaplace h = HardenedDiscreteLaplace.of(t);
      Rational tail = HardenedDiscreteLaplace.tailBound(t.numerator(), t.denominator(), h.digits());
      assertEquals(HardenedDiscreteLaplace.delta(tail, h.digits(), h.uniformBits()), h.delta(), s);
      if (h.uniformBits() > 64) {
        Rational fewer = HardenedDiscreteLaplace.delta(tail, h.digits(), h.uniformBits() - 1);
        assertTrue(fewer.compareTo(HardenedDiscreteLaplace.DEFAULT_DELTA) > 0, s + ": B is minimal");
      }
      Rational shallower = HardenedDiscreteLaplace.tailBound(t.numerator(), t.denominator(), h.digits() - 1);
      assertTrue(shallower.compareTo(HardenedDiscreteLaplace.DEFAULT_DELTA) >= 0, s + ": m is minimal");
    }
  }

  /**
   * The sampler against the exact inversion, with U chosen by the test: for random U and for U
   * on both sides of thresholds c r^k (the grid points next to them), |Z| must be the largest k
   * with U < c r^k, computed with 320-bit integer arithmetic, and the sign must be the sign bit.
   * Only points within 2^-110 of a threshold (closer than the proven fixed-point error allows
   * deciding, 2^-120 or less, plus margin) would be excused; none occurs in practice.
   */
  @ParameterizedTest
  @ValueSource(strings = {"1/2", "2", "100", "1000000", "12345/7", "1000000000000"})
  void agreesWithTheExactInversionForChosenUniforms(String scale) {
    Rational t = Rational.parse(scale);
    checkInversion(HardenedDiscreteLaplace.of(t), t, 0x5EED0000L + scale.hashCode());
  }

  /** The negative control: the same check catches a sampler built for a scale 1% off. */
  @Test
  void theInversionCheckCatchesAScaleOnePercentOff() {
    Rational t = Rational.of(100);
    HardenedDiscreteLaplace wrong = HardenedDiscreteLaplace.of(Rational.of(101));
    AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
        () -> checkInversion(wrong, t, 0x5EEDL));
    System.out.println("negative control caught: " + e.getMessage());
  }

  private static final int EXACT_BITS = 320;

  static void checkInversion(HardenedDiscreteLaplace h, Rational t, long seed) {
    System.out.println("checkInversion " + h + " against scale " + t + ": seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    int bits = h.uniformBits();
    long top = (1L << h.digits()) - 1;
    BigInteger a = t.numerator();
    BigInteger b = t.denominator();
    BigInteger one = BigInteger.ONE.shiftLeft(EXACT_BITS);
    BigInteger c = one.shiftLeft(EXACT_BITS + 1).divide(one.add(FixedPointExp.expNeg(b, a, EXACT_BITS)));
    java.util.function.LongFunction<BigInteger> threshold = k -> // c r^k in units of 2^-320
        c.multiply(FixedPointExp.expNeg(b.multiply(BigInteger.valueOf(k)), a, EXACT_BITS)).shiftRight(EXACT_BITS);
    BigInteger slack = BigInteger.ONE.shiftLeft(EXACT_BITS - 110);
    for (int n = 0; n < 600; n++) {
      BigInteger u;
      if (n < 200) {
        u = new BigInteger(bits, new java.util.Random(rnd.nextLong()));
      } else {
        // the grid points just below and just above a threshold
        long k = n < 400 ? 1 + (n - 200) / 2 % Math.max(1, Math.min(top, 100)) : 1 + rnd.nextLong(Math.max(1, top));
        BigInteger below = threshold.apply(k).shiftRight(EXACT_BITS - bits);
        u = (n % 2 == 0 ? below : below.add(BigInteger.ONE)).min(BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE));
      }
      int sign = rnd.nextInt(2);
      long z = h.sample(new Scripted(u, bits, sign));
      long g = Math.abs(z);
      assertTrue(z == 0 || (z < 0) == (sign == 1), "sign of " + z + " for sign bit " + sign);
      BigInteger uu = u.shiftLeft(EXACT_BITS - bits); // U in units of 2^-320
      // exact: U < c r^g (g >= 1), and U >= c r^(g + 1) unless g is the top value
      if (g >= 1) {
        BigInteger tg = threshold.apply(g);
        assertTrue(uu.compareTo(tg) < 0 || uu.subtract(tg).abs().compareTo(slack) < 0,
            "u=" + u + " gave |Z|=" + g + " but U >= c r^" + g);
      }
      if (g < top) {
        BigInteger tn = threshold.apply(g + 1);
        assertTrue(uu.compareTo(tn) >= 0 || uu.subtract(tn).abs().compareTo(slack) < 0,
            "u=" + u + " gave |Z|=" + g + " but U < c r^" + (g + 1));
      }
    }
  }

  /** A source that hands the sampler a chosen B-bit uniform u and sign bit, as it reads them. */
  static final class Scripted implements RandomSource {
    private final long first;
    private final long rest;
    private int calls;

    Scripted(BigInteger u, int bits, int sign) {
      this.first = u.shiftRight(bits - 64).longValue();
      this.rest = (u.longValue() & ((1L << (bits - 64)) - 1)) << 1 | sign;
    }

    @Override
    public int nextBit() {
      throw new UnsupportedOperationException();
    }

    @Override
    public long nextBits(int k) {
      if (calls++ != 1) {
        throw new IllegalStateException("expected nextLong, then nextBits");
      }
      return rest;
    }

    @Override
    public long nextLong() {
      if (calls++ != 0) {
        throw new IllegalStateException("expected nextLong first");
      }
      return first;
    }

    @Override
    public long bitsConsumed() {
      return 0;
    }
  }
}
