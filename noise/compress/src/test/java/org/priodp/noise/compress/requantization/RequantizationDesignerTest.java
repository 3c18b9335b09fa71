package org.priodp.noise.compress.requantization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.priodp.noise.Rational;

class RequantizationDesignerTest {

  /** Checks Eq. (1) on the exact matrix: Q(j|x) * den <= Q(j|x~) * num for e^eps = num/den. */
  private static void assertRatioHolds(RequantizationChannel c, Rational bound) {
    for (int j = 0; j < c.outputSize(); j++) {
      for (int x = 0; x < c.inputSize(); x++) {
        for (int y = 0; y < c.inputSize(); y++) {
          BigInteger lhs = BigInteger.valueOf(c.numerator(x, j)).multiply(bound.denominator());
          BigInteger rhs = BigInteger.valueOf(c.numerator(y, j)).multiply(bound.numerator());
          assertTrue(lhs.compareTo(rhs) <= 0, "Q(" + j + "|" + x + ") / Q(" + j + "|" + y + ") exceeds " + bound);
        }
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"4, 2.0", "3, 3.0", "2, 3.0", "1, 6.0"})
  void designedChannelMeetsItsReportedEpsilonAndDistortion(int bits, double delta) {
    RequantizationDesign d = RequantizationFixtures.designer(bits).design(delta);
    RequantizationChannel c = d.channel();
    assertRatioHolds(c, c.maxRatio());
    // The reported epsilon is ln(maxRatio) rounded up: exp(eps) >= maxRatio.
    assertTrue(new java.math.BigDecimal(Math.exp(d.guaranteedEpsilon())).compareTo(
        new java.math.BigDecimal(c.maxRatio().numerator()).divide(new java.math.BigDecimal(c.maxRatio().denominator()),
            java.math.MathContext.DECIMAL64)) >= 0);
    // The exact channel is within rounding of the bisection target, and within the LP tolerance of delta.
    assertEquals(d.targetEpsilon(), d.guaranteedEpsilon(), 1e-6);
    assertEquals(d.lpDistortion(), d.channelDistortion(), 1e-9);
    assertTrue(d.channelDistortion() <= delta * (1 + 1e-9), d.channelDistortion() + " > " + delta);
    // Bisection: a slightly smaller epsilon cannot meet delta.
    double below = Math.exp(d.targetEpsilon() - 2 * RequantizationDesigner.EPSILON_TOLERANCE);
    assertTrue(RequantizationFixtures.designer(bits).minimizeDistortion(below).worstCaseDistortion() > delta);
  }

  @Test
  void lpMatchesAnIndependentSolverOnTheFullProgram() {
    // scipy 1.17 linprog (HiGHS) on the uncompressed program (8)-(11) with all 3840 ratio
    // constraints and all 153 family members, 16 -> 4 levels: 9.016267246286430 at e^1 and
    // 6.646449920074908 at e^2.
    RequantizationDesigner d = RequantizationFixtures.designer(2);
    assertEquals(9.016267246286430, d.minimizeDistortion(Math.E).worstCaseDistortion(), 1e-8);
    assertEquals(6.646449920074908, d.minimizeDistortion(Math.exp(2)).worstCaseDistortion(), 1e-8);
  }

  @Test
  void minimumEpsilonDoesNotIncreaseWithDistortion() {
    double[] deltas = {2, 3, 4, 6, 8, 10};
    for (int bits = 4; bits >= 1; bits--) {
      RequantizationDesigner d = RequantizationFixtures.designer(bits);
      double prev = Double.POSITIVE_INFINITY;
      for (double delta : deltas) {
        if (delta <= d.minimumDistortion()) {
          continue;
        }
        double eps = d.design(delta).guaranteedEpsilon();
        System.out.println("bits " + bits + " delta " + delta + " epsilon " + eps);
        assertTrue(eps <= prev + 1e-6, "bits " + bits + ": epsilon rose from " + prev + " to " + eps + " at delta " + delta);
        prev = eps;
      }
    }
  }

  @Test
  void halfTheBitsCostsLittleEpsilonAtSmallDistortion() {
    // Paper Sec. 4: for small distortion the achievable epsilons of the ratios are close.
    double full = RequantizationFixtures.designer(4).design(3.0).guaranteedEpsilon();
    double half = RequantizationFixtures.designer(2).design(3.0).guaranteedEpsilon();
    System.out.println("delta 3: rho 1 -> " + full + ", rho 0.5 -> " + half);
    assertTrue(Math.abs(half - full) < 0.15, full + " vs " + half);
  }

  @Test
  void sweepAgreesWithSeparateDesigns() {
    RequantizationDesigner d = RequantizationFixtures.designer(3);
    double[] deltas = {0.2, 1, 2.5, 5, 9, 12};
    List<RequantizationDesign> all = d.designAll(deltas);
    assertEquals(null, all.get(0)); // below the smallest achievable 0.33
    for (int i = 1; i < deltas.length; i++) {
      RequantizationDesign one = d.design(deltas[i]);
      assertEquals(one.guaranteedEpsilon(), all.get(i).guaranteedEpsilon(), 2 * RequantizationDesigner.EPSILON_TOLERANCE);
      assertTrue(all.get(i).channelDistortion() <= deltas[i] * (1 + 1e-9));
    }
  }

  @Test
  void largeDistortionNeedsNoPrivacyLoss() {
    RequantizationDesign d = RequantizationFixtures.designer(2).design(50);
    assertEquals(0.0, d.targetEpsilon());
    assertEquals(Rational.ONE, d.channel().maxRatio());
    assertEquals(0.0, d.guaranteedEpsilon());
  }

  @Test
  void infeasibleDistortionReportsTheSmallestAchievable() {
    RequantizationDesigner d = RequantizationFixtures.designer(2);
    assertEquals(1.4876857873613, d.minimumDistortion(), 1e-9);
    InfeasibleDistortionException e = assertThrows(InfeasibleDistortionException.class, () -> d.design(1.0));
    assertEquals(d.minimumDistortion(), e.smallestAchievable());
    assertTrue(e.getMessage().contains("smallest achievable worst-case distortion is 1.48768"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> d.design(0));
    assertThrows(IllegalArgumentException.class, () -> d.design(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> d.minimizeDistortion(0.5));
  }

  @Test
  void rejectsMismatchedAlphabets() {
    assertThrows(IllegalArgumentException.class,
        () -> RequantizationDesigner.of(RequantizationFixtures.output(1), RequantizationFixtures.output(2),
            DistributionFamily.of(List.of(new double[] {0.5, 0.5}))));
    assertThrows(IllegalArgumentException.class,
        () -> RequantizationDesigner.of(RequantizationFixtures.INPUT, RequantizationFixtures.output(2),
            DistributionFamily.of(List.of(new double[] {0.5, 0.5}))));
  }
}
