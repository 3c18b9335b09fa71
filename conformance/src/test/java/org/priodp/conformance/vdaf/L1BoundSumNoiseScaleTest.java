package org.priodp.conformance.vdaf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.conformance.audit.ExactCdf;
import org.priodp.conformance.audit.GoodnessOfFit;
import org.priodp.field.FieldVector;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * The noise scale of Prio3L1BoundSum(length 10, max_value 240) through the adapter's path
 * ({@code Prio3DpMechanism.addNoiseToAggShare}, the fixed-work samplers the aggregators use by
 * default, and the exact ones): the noise an aggregator adds to a zero aggregate share, lifted
 * coordinate by coordinate, fits the distribution calibrated to the sensitivity docs/PRIVACY.md
 * derives (L1 = 2 max_value = 480, squared L2 = 2 max_value^2 = 115200), written here from that
 * derivation and not read from the code: discrete Laplace with scale 480 / epsilon, discrete
 * Gaussian with sigma^2 = 115200 / (2 rho). G-tests on {@link #SAMPLES} draws with fixed, printed
 * seeds; a correct mechanism fails with probability 1e-6 per test. The negative controls,
 * mechanisms calibrated to twice the privacy parameter (half the noise), must fail the same test.
 */
class L1BoundSumNoiseScaleTest {
  static final int LENGTH = 10;
  static final BigInteger MAX_VALUE = BigInteger.valueOf(240);
  static final int SAMPLES = 200_000; // 20 000 noised shares of 10 coordinates
  static final double REJECT_BELOW = 1e-6;

  static final Prio3Variant.L1BoundSum VARIANT = new Prio3Variant.L1BoundSum(LENGTH, MAX_VALUE, 9);

  /** L1 = 2 max_value: max_value at one coordinate replaced by max_value at another. */
  static final BigInteger L1 = MAX_VALUE.shiftLeft(1);

  /** Squared L2 = 2 max_value^2, the same witness. */
  static final BigInteger L2_SQUARED = MAX_VALUE.pow(2).shiftLeft(1);

  /** Draws SAMPLES noise values by noising zero aggregate shares with {@code m}. */
  static long[] noise(String what, Prio3DpMechanism m) {
    String seed = String.format("%08x", what.hashCode());
    SeededRandomSource rnd = SeededRandomSource.fromHex(seed);
    System.out.println(what + ": seed=" + rnd.seedHex() + " (" + m.describeSettings() + ")");
    long[] out = new long[SAMPLES];
    FieldVector zero = FieldVector.zeros(VARIANT.field(), LENGTH);
    for (int s = 0; s < SAMPLES / LENGTH; s++) {
      FieldVector noised = m.addNoiseToAggShare(zero, rnd);
      for (int i = 0; i < LENGTH; i++) {
        out[s * LENGTH + i] = noised.getSigned(i).longValueExact();
      }
    }
    return out;
  }

  static GoodnessOfFit fit(String what, Prio3DpMechanism m, LongToDoubleFunction cdf) {
    GoodnessOfFit r = GoodnessOfFit.test(noise(what, m), cdf, 200);
    System.out.printf("%s: G=%.1f df=%d p=%.3g%n", what, r.g(), r.degreesOfFreedom(), r.pValue());
    return r;
  }

  static Prio3DpMechanism mechanism(DpStrategy strategy, boolean hardened) {
    Prio3DpMechanism m = Prio3DpMechanism.of(VARIANT, strategy);
    return hardened ? m.withHardenedSampler() : m;
  }

  static LongToDoubleFunction laplace(Rational epsilon) {
    return ExactCdf.laplace(Rational.of(L1).divide(epsilon));
  }

  static LongToDoubleFunction gaussian(Rational rho) {
    return ExactCdf.gaussian(Rational.of(L2_SQUARED).divide(rho.multiply(Rational.of(2))));
  }

  @Test
  void theSensitivityIsTheDerivedOne() {
    assertEquals(L1, VARIANT.sensitivity(org.priodp.vdaf.dp.SensitivityRule.PRIODP).l1());
    assertEquals(L2_SQUARED, VARIANT.sensitivity(org.priodp.vdaf.dp.SensitivityRule.PRIODP).l2Squared());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void discreteLaplaceHasScaleTwiceMaxValueOverEpsilon(boolean hardened) {
    Rational epsilon = Rational.of(1);
    GoodnessOfFit r = fit("L1BoundSum laplace eps=1 hardened=" + hardened,
        mechanism(DpStrategy.PureDpDiscreteLaplace.parse("1"), hardened), laplace(epsilon));
    assertTrue(r.pValue() > REJECT_BELOW, r.toString());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void discreteGaussianHasSigma2TwiceMaxValueSquaredOverTwoRho(boolean hardened) {
    Rational rho = Rational.parse("1/2");
    GoodnessOfFit r = fit("L1BoundSum gaussian rho=1/2 hardened=" + hardened,
        mechanism(DpStrategy.ZCdpDiscreteGaussian.parse("1/2"), hardened), gaussian(rho));
    assertTrue(r.pValue() > REJECT_BELOW, r.toString());
  }

  /** Negative control: Laplace noise calibrated to epsilon 2 (scale 240) fails the epsilon-1 test. */
  @Test
  void laplaceCalibratedToTwiceEpsilonIsCaught() {
    GoodnessOfFit r = fit("L1BoundSum laplace eps=2 tested as eps=1",
        mechanism(DpStrategy.PureDpDiscreteLaplace.parse("2"), true), laplace(Rational.of(1)));
    assertTrue(r.pValue() < REJECT_BELOW, r.toString());
  }

  /** Negative control: Gaussian noise calibrated to rho 1 (sigma^2 57600) fails the rho-1/2 test. */
  @Test
  void gaussianCalibratedToTwiceRhoIsCaught() {
    GoodnessOfFit r = fit("L1BoundSum gaussian rho=1 tested as rho=1/2",
        mechanism(DpStrategy.ZCdpDiscreteGaussian.parse("1"), true), gaussian(Rational.parse("1/2")));
    assertTrue(r.pValue() < REJECT_BELOW, r.toString());
  }
}
