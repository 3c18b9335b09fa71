package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * API checks of the discrete Gaussian sampler; its distribution is checked in
 * {@link SamplerExactnessTest} and by the conformance module's GoodnessOfFitTest.
 */
class DiscreteGaussianTest {

  @Test
  void sigma2FromBudgetIsL2SquaredOverTwoRho() {
    DiscreteGaussian dg = DiscreteGaussian.forBudget(BigInteger.valueOf(2), Budget.ZCdp.parse("1/4"));
    assertEquals(Rational.of(4), dg.sigma2());
    assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.of(Rational.ZERO));
    assertThrows(IllegalArgumentException.class,
        () -> DiscreteGaussian.forBudget(BigInteger.ZERO, Budget.ZCdp.parse("1")));
  }

  @Test
  void longAndBigIntegerEntryPointsAgree() {
    DiscreteGaussian dg = DiscreteGaussian.of(Rational.of(25));
    RandomSource a = RandomSource.seeded(new byte[] {7});
    RandomSource b = RandomSource.seeded(new byte[] {7});
    for (int i = 0; i < 1000; i++) {
      assertEquals(BigInteger.valueOf(dg.sample(a)), dg.sampleBig(b));
    }
  }

  @Test
  void hugeVarianceUsesTheBigIntegerPath() {
    DiscreteGaussian dg = DiscreteGaussian.of(Rational.of(BigInteger.ONE.shiftLeft(100)));
    RandomSource r = RandomSource.seeded(new byte[] {8});
    BigInteger sumSq = BigInteger.ZERO;
    int n = 300;
    for (int i = 0; i < n; i++) {
      BigInteger z = dg.sampleBig(r);
      sumSq = sumSq.add(z.multiply(z));
    }
    // E[Z^2] <= sigma^2 = 2^100; the mean of 300 squares lies within [2^99, 2^101] w.h.p.
    BigInteger meanSq = sumSq.divide(BigInteger.valueOf(n));
    assertTrue(meanSq.bitLength() >= 99 && meanSq.bitLength() <= 101, "mean square has " + meanSq.bitLength() + " bits");
  }

  @Test
  void answersItsOwnAccuracyFigures() {
    DiscreteGaussian dg = DiscreteGaussian.of(Rational.of(9));
    assertEquals(9.0, dg.variance());
    assertEquals(Accuracy.gaussianHalfWidth(Rational.of(9), 2, 0.95), dg.halfWidth(2, 0.95));
    assertEquals(BigInteger.valueOf(4).multiply(Accuracy.gaussianHalfWidth(Rational.of(9), 1, 1 - 0.05 / 4)),
        dg.halfWidth(4, 0.95));
    assertEquals("discrete Gaussian with sigma^2 9", dg.describe());
    assertTrue(dg.drawsFitLong());
    assertFalse(DiscreteGaussian.of(Rational.of(BigInteger.ONE.shiftLeft(81))).drawsFitLong());
  }
}
