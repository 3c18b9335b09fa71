package org.priodp.conformance.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.noise.DiscreteGaussian;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.NoiseSampler;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

/**
 * Goodness of fit of the exact samplers against their exact PMFs: G-tests on 10^6 samples with
 * fixed, printed seeds. A correct sampler fails with probability 1e-6 per test; each negative
 * control (a slightly wrong sampler) must fail.
 */
class GoodnessOfFitTest {
  static final int N = 1_000_000;
  static final double REJECT_BELOW = 1e-6;

  static GoodnessOfFit fit(String what, NoiseSampler sampler, LongToDoubleFunction cdf) {
    String seed = Integer.toHexString(what.hashCode());
    SeededRandomSource rnd = SeededRandomSource.fromHex(seed.length() % 2 == 0 ? seed : "0" + seed);
    long[] samples = new long[N];
    sampler.fill(samples, rnd);
    GoodnessOfFit r = GoodnessOfFit.test(samples, cdf, 200);
    System.out.printf("%s: seed=%s G=%.1f df=%d p=%.3g%n", what, rnd.seedHex(), r.g(), r.degreesOfFreedom(), r.pValue());
    return r;
  }

  @ParameterizedTest
  @ValueSource(strings = {"1/2", "2", "100", "1000000", "7/3"})
  void discreteLaplaceFits(String scale) {
    Rational t = Rational.parse(scale);
    GoodnessOfFit r = fit("laplace " + scale, DiscreteLaplace.of(t), ExactCdf.laplace(t));
    assertTrue(r.pValue() > REJECT_BELOW, r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2", "100", "1000000"})
  void hardenedDiscreteLaplaceFits(String scale) {
    Rational t = Rational.parse(scale);
    GoodnessOfFit r = fit("hardened " + scale, DiscreteLaplace.of(t).hardened(), ExactCdf.laplace(t));
    assertTrue(r.pValue() > REJECT_BELOW, r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "25", "10000", "1/3"})
  void discreteGaussianFits(String sigma2) {
    Rational s = Rational.parse(sigma2);
    GoodnessOfFit r = fit("gaussian " + sigma2, DiscreteGaussian.of(s), ExactCdf.gaussian(s));
    assertTrue(r.pValue() > REJECT_BELOW, r.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "25", "10000", "1/3"})
  void hardenedDiscreteGaussianFits(String sigma2) {
    Rational s = Rational.parse(sigma2);
    GoodnessOfFit r = fit("hardened gaussian " + sigma2, DiscreteGaussian.of(s).hardened(), ExactCdf.gaussian(s));
    assertTrue(r.pValue() > REJECT_BELOW, r.toString());
  }

  // ------------------------------------------------------------------ negative controls

  @Test
  void catchesALaplaceWithAFivePercentLargerScale() {
    GoodnessOfFit r = fit("laplace 2.1 as 2", DiscreteLaplace.of(Rational.parse("2.1")),
        ExactCdf.laplace(Rational.of(2)));
    assertTrue(r.pValue() < REJECT_BELOW, r.toString());
  }

  @Test
  void catchesAHardenedLaplaceWithAFivePercentLargerScale() {
    GoodnessOfFit r = fit("hardened 105 as 100", DiscreteLaplace.of(Rational.of(105)).hardened(),
        ExactCdf.laplace(Rational.of(100)));
    assertTrue(r.pValue() < REJECT_BELOW, r.toString());
  }

  @Test
  void catchesAGaussianWithAFourPercentLargerVariance() {
    GoodnessOfFit r = fit("gaussian 26 as 25", DiscreteGaussian.of(Rational.of(26)),
        ExactCdf.gaussian(Rational.of(25)));
    assertTrue(r.pValue() < REJECT_BELOW, r.toString());
  }

  @Test
  void catchesAHardenedGaussianWithAFourPercentLargerVariance() {
    GoodnessOfFit r = fit("hardened gaussian 10400 as 10000", DiscreteGaussian.of(Rational.of(10_400)).hardened(),
        ExactCdf.gaussian(Rational.of(10_000)));
    assertTrue(r.pValue() < REJECT_BELOW, r.toString());
  }
}
