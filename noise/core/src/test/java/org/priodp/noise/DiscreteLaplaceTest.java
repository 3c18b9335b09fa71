package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * API checks of the discrete Laplace sampler. Its distribution is checked exactly in
 * {@link SamplerExactnessTest} and statistically in the conformance module (GoodnessOfFitTest,
 * PrivacyAuditTest).
 */
class DiscreteLaplaceTest {

  @Test
  void scaleFromBudgetIsSensitivityOverEpsilon() {
    DiscreteLaplace dl = DiscreteLaplace.forBudget(BigInteger.valueOf(2), Budget.PureDp.parse("0.1"));
    assertEquals(Rational.of(20), dl.scale());
    assertThrows(IllegalArgumentException.class,
        () -> DiscreteLaplace.forBudget(BigInteger.ZERO, Budget.PureDp.parse("1")));
    assertThrows(IllegalArgumentException.class, () -> DiscreteLaplace.of(Rational.ZERO));
    assertThrows(IllegalArgumentException.class, () -> DiscreteLaplace.of(Rational.of(-1)));
  }

  @Test
  void fillIsReproducibleFromTheSeedAndMatchesSample() {
    DiscreteLaplace dl = DiscreteLaplace.of(Rational.of(7, 2));
    long[] a = new long[1000];
    dl.fill(a, RandomSource.seeded(new byte[] {4}));
    RandomSource r = RandomSource.seeded(new byte[] {4});
    for (long v : a) {
      assertEquals(v, dl.sample(r));
    }
  }

  @Test
  void hugeScalesUseTheBigIntegerPath() {
    Rational scale = Rational.of(BigInteger.ONE.shiftLeft(80));
    DiscreteLaplace dl = DiscreteLaplace.of(scale);
    RandomSource r = RandomSource.seeded(new byte[] {5});
    BigInteger sumAbs = BigInteger.ZERO;
    for (int i = 0; i < 200; i++) {
      sumAbs = sumAbs.add(dl.sampleBig(r).abs());
    }
    // E|Z| is about the scale; 200 draws average within a factor 2 with overwhelming probability
    BigInteger mean = sumAbs.divide(BigInteger.valueOf(200));
    assertTrue(mean.compareTo(BigInteger.ONE.shiftLeft(79)) > 0 && mean.compareTo(BigInteger.ONE.shiftLeft(81)) < 0,
        "mean |Z| = " + mean);
  }

  @Test
  void smallScalesAreMostlyZero() {
    DiscreteLaplace dl = DiscreteLaplace.of(Rational.of(1, 100));
    RandomSource r = RandomSource.seeded(new byte[] {6});
    int zeros = 0;
    for (int i = 0; i < 1000; i++) {
      if (dl.sample(r) == 0) {
        zeros++;
      }
    }
    assertTrue(zeros > 990, "P[0] = tanh(50) ~ 1, got " + zeros + "/1000");
  }

  @Test
  void answersItsOwnAccuracyFigures() {
    DiscreteLaplace dl = DiscreteLaplace.of(Rational.of(2));
    assertEquals(Accuracy.laplaceVariance(Rational.of(2)), dl.variance());
    assertEquals(Accuracy.laplaceHalfWidth(Rational.of(2), 1, 0.95), dl.halfWidth(1, 0.95));
    assertEquals(Accuracy.laplaceHalfWidth(Rational.of(2), 2, 0.95), dl.halfWidth(2, 0.95));
    // more than two draws: the union bound n * k1(1 - alpha/n)
    assertEquals(BigInteger.valueOf(3).multiply(Accuracy.laplaceHalfWidth(Rational.of(2), 1, 1 - 0.05 / 3)),
        dl.halfWidth(3, 0.95));
    assertEquals("discrete Laplace with scale 2", dl.describe());
    assertThrows(IllegalArgumentException.class, () -> dl.halfWidth(0, 0.95));
    assertThrows(IllegalArgumentException.class, () -> dl.halfWidth(2, 1.0));
  }

  @Test
  void drawsFitALongUpToScale2To40() {
    assertTrue(DiscreteLaplace.of(Rational.of(BigInteger.ONE.shiftLeft(40))).drawsFitLong());
    assertFalse(DiscreteLaplace.of(Rational.of(BigInteger.ONE.shiftLeft(40).add(BigInteger.ONE))).drawsFitLong());
  }
}
