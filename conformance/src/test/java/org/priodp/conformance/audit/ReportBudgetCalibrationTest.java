package org.priodp.conformance.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.priodp.field.FieldVector;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * The noise of the attribution draft's report-budget strategies (draft-ietf-ppm-dap-attribution-00,
 * sections 3 and 5) is calibrated to the release epsilon: at min_dp_budget = 0.5 the noise a
 * Prio3Histogram share receives (10^6 coordinates drawn through {@link
 * Prio3DpMechanism#addNoiseToAggShare}, hardened sampler, fixed printed seeds) passes a G-test
 * against discrete Laplace with scale L1 / 0.5 = 4 and, for the Gaussian, against the discrete
 * Gaussian whose zCDP gives (0.5, 10^-9)-DP (sigma^2 = L2^2 / (2 rho), rho computed here
 * independently with 60-digit BigDecimal arithmetic). Negative controls: the same tests on noise
 * calibrated to epsilon 1.0 must fail.
 */
class ReportBudgetCalibrationTest {
  private static final Prio3Variant HISTOGRAM = new Prio3Variant.Histogram(1000, 32);
  private static final int SHARES = 1000; // 1000 shares of 1000 coordinates: 10^6 draws
  private static final Rational HALF = Rational.of(1, 2);
  private static final Rational DELTA = Rational.of(1, 1_000_000_000);

  /** Draws 10^6 noise values through the mechanism of a release at {@code epsilon}. */
  private static long[] noise(String what, DpStrategy open, Rational epsilon) {
    Prio3DpMechanism m = Prio3DpMechanism.of(HISTOGRAM, open.forRelease(epsilon)).withHardenedSampler();
    String seed = Integer.toHexString(what.hashCode());
    SeededRandomSource rnd = SeededRandomSource.fromHex(seed.length() % 2 == 0 ? seed : "0" + seed);
    System.out.printf("%s: %s, seed=%s%n", what, m.describeNoise(), rnd.seedHex());
    byte[] zero = FieldVector.zeros(HISTOGRAM.field(), HISTOGRAM.outputLength()).encode();
    long[] out = new long[SHARES * HISTOGRAM.outputLength()];
    int k = 0;
    for (int s = 0; s < SHARES; s++) {
      FieldVector noised = FieldVector.decode(HISTOGRAM.field(), m.addNoiseToAggShare(zero, rnd),
          HISTOGRAM.outputLength());
      for (int i = 0; i < noised.length(); i++) {
        out[k++] = noised.getSigned(i).longValueExact();
      }
    }
    return out;
  }

  private static GoodnessOfFit fit(String what, long[] samples, LongToDoubleFunction cdf) {
    GoodnessOfFit r = GoodnessOfFit.test(samples, cdf, 200);
    System.out.printf("%s: G=%.1f df=%d p=%.3g%n", what, r.g(), r.degreesOfFreedom(), r.pValue());
    return r;
  }

  /** The expected Laplace scale at epsilon 0.5: Histogram's L1 sensitivity 2 over 0.5. */
  private static final Rational LAPLACE_SCALE = Rational.of(4);

  @Test
  void laplaceAtHalfMatchesScaleSensitivityOverHalf() {
    long[] z = noise("report-budget laplace at 0.5", new DpStrategy.ReportBudgetDiscreteLaplace(), HALF);
    GoodnessOfFit r = fit("laplace at 0.5 vs scale 4", z, ExactCdf.laplace(LAPLACE_SCALE));
    assertTrue(r.pValue() > GoodnessOfFitTest.REJECT_BELOW, r.toString());
  }

  @Test
  void laplaceCalibratedToEpsilonOneFailsTheSameTest() {
    long[] z = noise("report-budget laplace at 1.0", new DpStrategy.ReportBudgetDiscreteLaplace(), Rational.ONE);
    GoodnessOfFit r = fit("laplace at 1.0 vs scale 4", z, ExactCdf.laplace(LAPLACE_SCALE));
    assertTrue(r.pValue() < GoodnessOfFitTest.REJECT_BELOW, r.toString());
  }

  @Test
  void gaussianAtHalfMatchesTheSigmaOfHalfAndDelta() {
    long[] z = noise("report-budget gaussian at 0.5", new DpStrategy.ReportBudgetDiscreteGaussian(DELTA), HALF);
    GoodnessOfFit r = fit("gaussian at 0.5 vs sigma2 of (0.5, 1e-9)", z, ExactCdf.gaussian(expectedSigma2()));
    assertTrue(r.pValue() > GoodnessOfFitTest.REJECT_BELOW, r.toString());
  }

  @Test
  void gaussianCalibratedToEpsilonOneFailsTheSameTest() {
    long[] z = noise("report-budget gaussian at 1.0", new DpStrategy.ReportBudgetDiscreteGaussian(DELTA), Rational.ONE);
    GoodnessOfFit r = fit("gaussian at 1.0 vs sigma2 of (0.5, 1e-9)", z, ExactCdf.gaussian(expectedSigma2()));
    assertTrue(r.pValue() < GoodnessOfFitTest.REJECT_BELOW, r.toString());
  }

  @Test
  void theIndependentSigmaAgreesWithTheStrategyToEightDigits() {
    Rational rho = new DpStrategy.ReportBudgetDiscreteGaussian(DELTA).forRelease(HALF).rho();
    Rational sigma2 = Rational.of(2).divide(Rational.of(2).multiply(rho)); // L2^2 = 2
    BigDecimal mine = decimal(expectedSigma2());
    BigDecimal theirs = decimal(sigma2);
    assertEquals(mine.round(new MathContext(8)), theirs.round(new MathContext(8)));
  }

  /**
   * sigma^2 = L2^2 / (2 rho), L2^2 = 2 for Histogram, rho = (sqrt(L + 0.5) - sqrt(L))^2, L = ln(10^9)
   * = 9 ln 10, from a 60-digit ln 10 constant; rounded to a rational of 30 digits.
   */
  private static Rational expectedSigma2() {
    MathContext mc = new MathContext(60, RoundingMode.HALF_EVEN);
    BigDecimal ln10 = new BigDecimal("2.30258509299404568401799145468436420760110148862877297603333");
    BigDecimal l = ln10.multiply(BigDecimal.valueOf(9), mc);
    BigDecimal d = l.add(new BigDecimal("0.5")).sqrt(mc).subtract(l.sqrt(mc));
    BigDecimal rho = d.multiply(d, mc);
    BigDecimal sigma2 = BigDecimal.ONE.divide(rho, mc).round(new MathContext(30));
    return Rational.parse(sigma2.toPlainString());
  }

  private static BigDecimal decimal(Rational r) {
    return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), new MathContext(40));
  }
}
