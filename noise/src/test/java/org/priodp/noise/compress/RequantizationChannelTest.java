package org.priodp.noise.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
