package org.priodp.noise.compress.requantization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;

class RequantizationChannelTest {

  private static final LloydMaxQuantizer IN3 = LloydMaxQuantizer.of(0, 1, 2);
  private static final LloydMaxQuantizer OUT2 = LloydMaxQuantizer.of(0.5, 1.5);

  @Test
  void exactRatioAndEpsilonOfAHandMadeChannel() {
    RequantizationChannel c = RequantizationChannel.of(IN3, OUT2, new long[][] {{6, 2}, {4, 4}, {3, 5}}, 8);
    assertEquals(Rational.of(5, 2), c.maxRatio()); // column 1: 5/2; column 0: 6/3
    assertEquals(Math.log(2.5), c.epsilon(), 1e-15);
    assertTrue(c.epsilon() >= Math.log(2.5));
    assertEquals(Rational.of(3, 8), c.probability(2, 0));
  }

  /**
   * A ratio of 2^60/(2^60 - 1) has ln about 8.7e-19: ln of its double (1.0) is 0, so the old
   * epsilon() reported 1e-323 and understated it. The value is now never below the truth and
   * within 8 ulps of it, for ratios from 1 + 2^-61 to 2^61.
   */
  @Test
  void epsilonNeverUnderstatesEvenForRatiosNearOne() {
    BigInteger half = BigInteger.ONE.shiftLeft(60);
    RequantizationChannel c = RequantizationChannel.of(LloydMaxQuantizer.of(0, 1), OUT2,
        new long[][] {{(1L << 60) + 1, (1L << 60) - 1}, {1L << 60, 1L << 60}}, 1L << 61);
    assertEquals(Rational.of(half, half.subtract(BigInteger.ONE)), c.maxRatio());
    checkUpperBound(c.maxRatio().numerator(), c.maxRatio().denominator(), c.epsilon());
    long[][] cases = {{3, 2}, {2, 1}, {5, 2}, {3, 1}, {1000, 999}, {(1L << 61) + 1, 1L << 61}, {1L << 61, 1},
        {(1L << 61) - 1, (1L << 61) - 2}, {7, 3}};
    for (long[] nd : cases) {
      BigInteger n = BigInteger.valueOf(nd[0]);
      BigInteger d = BigInteger.valueOf(nd[1]);
      checkUpperBound(n, d, RequantizationChannel.lnUpperBound(n, d));
    }
    assertEquals(0.0, RequantizationChannel.lnUpperBound(BigInteger.TEN, BigInteger.TEN));
  }

  private static void checkUpperBound(BigInteger n, BigInteger d, double got) {
    BigDecimal truth = ln(n, d);
    BigDecimal g = new BigDecimal(got);
    assertTrue(g.compareTo(truth) >= 0, "ln(" + n + "/" + d + ") = " + truth + " but epsilon() = " + got);
    BigDecimal slack = truth.multiply(BigDecimal.valueOf(8 * Math.ulp(1.0)));
    assertTrue(g.subtract(truth).compareTo(slack) <= 0, "ln(" + n + "/" + d + ") = " + truth + ", epsilon() = " + got);
  }

  /** ln(n/d) to 60 digits: k ln 2 + 2 atanh((m - 1)/(m + 1)) with m = n/(d 2^k) in [1, 2). */
  static BigDecimal ln(BigInteger n, BigInteger d) {
    MathContext mc = new MathContext(60);
    int k = n.bitLength() - d.bitLength();
    if (n.compareTo(d.shiftLeft(Math.max(k, 0))) < 0) {
      k--;
    }
    BigDecimal m = new BigDecimal(n).divide(new BigDecimal(d.shiftLeft(Math.max(k, 0))), mc);
    BigDecimal ln2 = atanh2(BigDecimal.ONE.divide(BigDecimal.valueOf(3), mc), mc);
    BigDecimal y = m.subtract(BigDecimal.ONE).divide(m.add(BigDecimal.ONE), mc);
    return ln2.multiply(BigDecimal.valueOf(k)).add(atanh2(y, mc), mc);
  }

  /** 2 atanh(y) = 2 (y + y^3/3 + y^5/5 + ...), |y| <= 1/3. */
  private static BigDecimal atanh2(BigDecimal y, MathContext mc) {
    BigDecimal sum = BigDecimal.ZERO;
    BigDecimal pow = y;
    BigDecimal y2 = y.multiply(y, mc);
    for (int j = 1; j < 400; j += 2) {
      sum = sum.add(pow.divide(BigDecimal.valueOf(j), mc), mc);
      pow = pow.multiply(y2, mc);
    }
    return sum.multiply(BigDecimal.valueOf(2), mc);
  }

  @Test
  void fromDoublesRenormalisesRowsExactly() {
    double[][] q = {{0.7, 0.3000001}, {0.5, 0.5}, {1e-13, 1e-14}};
    RequantizationChannel c = RequantizationChannel.fromDoubles(IN3, OUT2, q);
    for (int i = 0; i < 3; i++) {
      assertEquals(c.denominator(), c.numerator(i, 0) + c.numerator(i, 1));
    }
    assertEquals(1L << RequantizationChannel.DENOMINATOR_BITS, c.denominator());
    assertEquals(0.7 / 1.0000001, c.toDoubles()[0][0], 1e-15);
  }

  @Test
  void constantRowsGiveEpsilonZero() {
    RequantizationChannel c = RequantizationChannel.fromDoubles(IN3, OUT2, new double[][] {{0.25, 0.75}, {0.25, 0.75}, {0.25, 0.75}});
    assertEquals(Rational.ONE, c.maxRatio());
    assertEquals(0.0, c.epsilon());
  }

  @Test
  void unusedOutputIsDroppedAndZeroAgainstPositiveIsRejected() {
    RequantizationChannel c = RequantizationChannel.fromDoubles(IN3, OUT2, new double[][] {{1, 1e-15}, {1, 0}, {1, 0}});
    assertEquals(0, c.numerator(0, 1));
    assertEquals(Rational.ONE, c.maxRatio());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RequantizationChannel.of(IN3, OUT2, new long[][] {{1, 1}, {2, 0}, {1, 1}}, 2));
    assertTrue(e.getMessage().contains("infinite"), e.getMessage());
  }

  @Test
  void rejectsRowsThatDoNotSumToTheDenominator() {
    assertThrows(IllegalArgumentException.class, () -> RequantizationChannel.of(IN3, OUT2, new long[][] {{1, 1}, {1, 1}, {1, 2}}, 2));
    assertThrows(IllegalArgumentException.class, () -> RequantizationChannel.of(IN3, OUT2, new long[][] {{3, -1}, {1, 1}, {1, 1}}, 2));
    assertThrows(IllegalArgumentException.class, () -> RequantizationChannel.of(IN3, OUT2, new long[][] {{1, 1}, {1, 1}}, 2));
  }

  @Test
  void distortionIsTheExpectedSquaredError() {
    RequantizationChannel d = RequantizationChannel.of(IN3, OUT2, new long[][] {{3, 1}, {2, 2}, {1, 3}}, 4);
    // rows 0 and 2: 3/4 * 1/4 + 1/4 * 9/4 = 3/4; row 1: 1/4.
    assertEquals(1.75 / 3, d.distortion(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}), 1e-15);
    assertEquals(0.75, d.worstCaseDistortion(DistributionFamily.of(java.util.List.of(new double[] {1, 0, 0}, new double[] {0, 1, 0}))), 1e-15);
  }

  /** The sampler's empirical output distribution matches each row (G-test at z = 3.09, p ~ 0.001). */
  @Test
  void samplerMatchesRowsByGTest() {
    RequantizationChannel c = RequantizationFixtures.designer(2).design(3.0).channel();
    RandomSource rnd = RequantizationFixtures.seeded(20261121);
    int n = 20_000;
    double[][] q = c.toDoubles();
    for (int i : new int[] {0, 7, 15}) {
      long[] counts = new long[c.outputSize()];
      for (int s = 0; s < n; s++) {
        counts[c.sample(i, rnd)]++;
      }
      double g = RequantizationFixtures.gStatistic(counts, q[i]);
      double crit = RequantizationFixtures.chiSquareQuantile(c.outputSize() - 1, 3.09);
      System.out.println("row " + i + " G = " + g + " (critical " + crit + ")");
      assertTrue(g < crit, "row " + i + ": G = " + g + " >= " + crit);
      // Negative control: the same counts against another row must be rejected.
      double wrong = RequantizationFixtures.gStatistic(counts, q[i == 0 ? 15 : 0]);
      assertTrue(wrong > crit, "negative control: G = " + wrong + " should exceed " + crit);
    }
  }

  @Test
  void randomizeQuantizesTheReadingFirst() {
    RequantizationChannel c = RequantizationChannel.of(IN3, OUT2, new long[][] {{3, 1}, {2, 2}, {1, 3}}, 4);
    RandomSource a = RequantizationFixtures.seeded(5);
    RandomSource b = RequantizationFixtures.seeded(5);
    for (int s = 0; s < 100; s++) {
      assertEquals(c.sample(0, b), c.randomize(-3.0, a));
      assertEquals(c.sample(2, b), c.randomize(1.7, a));
    }
    RandomSource rnd = a;
    assertThrows(IllegalArgumentException.class, () -> c.sample(3, rnd));
  }
}
