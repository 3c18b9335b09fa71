package org.priodp.vdaf.dp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.HardenedDiscreteLaplace;
import org.priodp.noise.Rational;
import org.priodp.vdaf.Prio3Variant;

/**
 * The stated guarantee of one release: hand-computed deltas for the fixed-work discrete Laplace,
 * the exact samplers' plain statements, powers of two rounded up.
 */
class StatedGuaranteeTest {
  private static final Prio3Variant HISTOGRAM_10 = new Prio3Variant.Histogram(10, 3);

  @Test
  void theFixedWorkLaplaceIsEpsilonDeltaWithDeltaOnePlusEToTheEpsilonTimesNDelta() {
    Prio3DpMechanism m = Prio3DpMechanism.of(HISTOGRAM_10,
        DpStrategy.PureDpDiscreteLaplace.parse("1")).withHardenedSampler();
    StatedGuarantee g = StatedGuarantee.of(m);
    Rational perDraw = ((HardenedDiscreteLaplace) m.sampler().orElseThrow()).delta();
    assertTrue(perDraw.compareTo(HardenedDiscreteLaplace.DEFAULT_DELTA) <= 0);
    assertEquals(perDraw.multiply(Rational.of(10)), g.totalVariation());
    assertEquals("fixed-work discrete Laplace", g.sampler());
    // (1 + e) * 10 * delta_draw (just under 2^-64) = 37.18... * 2^-64.01: log2 = -58.79...,
    // printed rounded up
    Rational delta = g.delta();
    Rational e = Rational.parse("2.718281828459045235360287");
    Rational tv = g.totalVariation();
    assertTrue(delta.compareTo(Rational.ONE.add(e).multiply(tv)) > 0);
    assertTrue(delta.compareTo(Rational.ONE.add(Rational.parse("2.7182818284590452353603"))
        .multiply(tv)) < 0);
    assertEquals("(1, 2^-58.7)-DP", g.text());
    assertEquals("(1, 2^-58.7)-DP per report: epsilon = 1 with the fixed-work discrete Laplace"
        + " sampler, the 10 draws of each aggregator within total variation 2^-60.6 of the exact"
        + " noise", g.explain());
    // epsilon = 1/2: (1 + e^0.5) * 10 * 2^-64 = 26.48... * 2^-64 -> 2^-59.27...
    assertEquals("(1/2, 2^-59.2)-DP", StatedGuarantee.of(Prio3DpMechanism.of(HISTOGRAM_10,
        DpStrategy.PureDpDiscreteLaplace.parse("1/2")).withHardenedSampler()).text());
  }

  @Test
  void theExactSamplersStateTheirBudgetAlone() {
    StatedGuarantee laplace = StatedGuarantee.of(Prio3DpMechanism.of(HISTOGRAM_10,
        DpStrategy.PureDpDiscreteLaplace.parse("1")));
    assertEquals("1-DP", laplace.text());
    assertEquals(Rational.ZERO, laplace.delta());
    assertEquals("exact discrete Laplace", laplace.sampler());
    StatedGuarantee gauss = StatedGuarantee.of(Prio3DpMechanism.of(HISTOGRAM_10,
        DpStrategy.ZCdpDiscreteGaussian.parse("1/2")));
    assertEquals("1/2-zCDP", gauss.text());
    assertEquals("exact discrete Gaussian", gauss.sampler());
    assertThrows(IllegalStateException.class, gauss::delta);
    StatedGuarantee hardenedGauss = StatedGuarantee.of(Prio3DpMechanism.of(HISTOGRAM_10,
        DpStrategy.ZCdpDiscreteGaussian.parse("1/2")).withHardenedSampler());
    assertEquals("fixed-work discrete Gaussian", hardenedGauss.sampler());
    assertTrue(hardenedGauss.totalVariation().signum() > 0);
    assertEquals("1/2-zCDP up to total variation "
        + StatedGuarantee.powerOfTwo(hardenedGauss.totalVariation()), hardenedGauss.text());
    StatedGuarantee none = StatedGuarantee.of(Prio3DpMechanism.of(HISTOGRAM_10,
        new DpStrategy.NoDifferentialPrivacy()));
    assertEquals("none", none.text());
    assertEquals("no differential privacy: the task adds no noise", none.explain());
    assertEquals("1/2-zCDP up to total variation 2^-60", new StatedGuarantee(
        Optional.of(new Budget.ZCdp(Rational.parse("1/2"))), "fixed-work discrete Gaussian",
        Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(60)), 16).text());
  }

  @Test
  void powersOfTwoAreRoundedUp() {
    assertEquals("2^-64", StatedGuarantee.powerOfTwo(HardenedDiscreteLaplace.DEFAULT_DELTA));
    // 3 * 2^-64: log2 = -62.415
    assertEquals("2^-62.4", StatedGuarantee.powerOfTwo(
        Rational.of(BigInteger.valueOf(3), BigInteger.ONE.shiftLeft(64))));
    // 2^-64 * (1 + 2^-40) is above 2^-64: never printed as 2^-64
    assertEquals("2^-63.9", StatedGuarantee.powerOfTwo(Rational.of(
        BigInteger.ONE.shiftLeft(40).add(BigInteger.ONE), BigInteger.ONE.shiftLeft(104))));
    assertEquals("2^3", StatedGuarantee.powerOfTwo(Rational.of(8)));
    assertEquals("2^-0.4", StatedGuarantee.powerOfTwo(Rational.parse("3/4")));
    assertEquals("0", StatedGuarantee.powerOfTwo(Rational.ZERO));
  }
}
