package org.priodp.vdaf.dp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.noise.Budget;
import org.priodp.noise.DiscreteGaussian;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.HardenedDiscreteLaplace;
import org.priodp.noise.Rational;
import org.priodp.vdaf.Prio3Variant;

/** The strategies: exact scales from the sensitivity, and rejection of bad budgets. */
class DpStrategyTest {
  private static final Sensitivity SUMVEC = Sensitivity.of(Prio3Variant.SumVec.of(4, BigInteger.valueOf(255), 2));

  @Test
  void laplaceScaleIsL1OverEpsilon() {
    DpStrategy s = DpStrategy.PureDpDiscreteLaplace.parse("0.3");
    DiscreteLaplace dl = (DiscreteLaplace) s.sampler(SUMVEC).orElseThrow();
    assertEquals(Rational.of(10200, 3), dl.scale()); // 1020 / (3/10)
    DiscreteLaplace h = (DiscreteLaplace) DpStrategy.PureDpDiscreteLaplace.parse("1/2")
        .sampler(Sensitivity.of(new Prio3Variant.Histogram(4, 2))).orElseThrow();
    assertEquals(Rational.of(4), h.scale());
    assertEquals("PureDpDiscreteLaplace(epsilon=3/10)", s.describe());
  }

  @Test
  void gaussianSigma2IsL2SquaredOverTwoRho() {
    DpStrategy s = DpStrategy.ZCdpDiscreteGaussian.parse("1/2");
    DiscreteGaussian dg = (DiscreteGaussian) s.sampler(SUMVEC).orElseThrow();
    assertEquals(Rational.of(260100), dg.sigma2()); // 260100 / (2 * 1/2)
    DiscreteGaussian h = (DiscreteGaussian) DpStrategy.ZCdpDiscreteGaussian.parse("0.1")
        .sampler(Sensitivity.of(new Prio3Variant.Histogram(4, 2))).orElseThrow();
    assertEquals(Rational.of(10), h.sigma2()); // 2 / 0.2
  }

  @Test
  void noDifferentialPrivacyHasNoSampler() {
    assertTrue(new DpStrategy.NoDifferentialPrivacy().sampler(SUMVEC).isEmpty());
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "0.0", "abc", "NaN", "Infinity", "1/0", ""})
  void rejectsBadBudgets(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DpStrategy.PureDpDiscreteLaplace.parse(text));
    assertTrue(e.getMessage().contains("epsilon"), e.getMessage());
    IllegalArgumentException r = assertThrows(IllegalArgumentException.class,
        () -> DpStrategy.ZCdpDiscreteGaussian.parse(text));
    assertTrue(r.getMessage().contains("rho"), r.getMessage());
  }

  @Test
  void rejectsNonPositiveRationals() {
    assertThrows(IllegalArgumentException.class, () -> new DpStrategy.PureDpDiscreteLaplace(Rational.ZERO));
    assertThrows(IllegalArgumentException.class, () -> new DpStrategy.ZCdpDiscreteGaussian(Rational.of(-1)));
    assertThrows(NullPointerException.class, () -> new DpStrategy.PureDpDiscreteLaplace(null));
  }

  @Test
  void eachStrategyAnswersItsBudgetAndBindingCode() {
    DpStrategy none = new DpStrategy.NoDifferentialPrivacy();
    DpStrategy laplace = DpStrategy.PureDpDiscreteLaplace.parse("1/2");
    DpStrategy gaussian = DpStrategy.ZCdpDiscreteGaussian.parse("0.25");
    assertTrue(none.budget().isEmpty());
    assertEquals(new Budget.PureDp(Rational.of(1, 2)), laplace.budget().orElseThrow());
    assertEquals(new Budget.ZCdp(Rational.of(1, 4)), gaussian.budget().orElseThrow());
    assertEquals(0, none.bindingCode());
    assertEquals(1, laplace.bindingCode());
    assertEquals(2, gaussian.bindingCode());
  }

  @Test
  void bothNoisingStrategiesHaveAFixedWorkSampler() {
    HardenedDiscreteLaplace h = DpStrategy.PureDpDiscreteLaplace.parse("1/2").hardenedSampler(SUMVEC);
    assertEquals(Rational.of(2040), h.scale());
    org.priodp.noise.HardenedDiscreteGaussian g = DpStrategy.ZCdpDiscreteGaussian.parse("1").hardenedSampler(SUMVEC);
    assertEquals(DpStrategy.ZCdpDiscreteGaussian.parse("1").gaussian(SUMVEC).sigma2(), g.sigma2());
    assertEquals(g.delta(), g.totalVariationPerDraw());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new DpStrategy.NoDifferentialPrivacy().hardenedSampler(SUMVEC));
    assertTrue(e.getMessage().contains("noising strategies only"), e.getMessage());
    // beyond the Gaussian's range the refusal names the largest sigma^2
    e = assertThrows(IllegalArgumentException.class,
        () -> DpStrategy.ZCdpDiscreteGaussian.parse("1e-30").hardenedSampler(SUMVEC));
    assertTrue(e.getMessage().contains("largest supported sigma^2 is 1000000000000000000"), e.getMessage());
  }

  @Test
  void eachStrategyAnswersItsNameParametersAndGuarantee() {
    DpStrategy none = new DpStrategy.NoDifferentialPrivacy();
    DpStrategy laplace = DpStrategy.PureDpDiscreteLaplace.parse("0.5");
    DpStrategy gaussian = DpStrategy.ZCdpDiscreteGaussian.parse("1/8");
    assertEquals("NoDifferentialPrivacy", none.name());
    assertEquals("PureDpDiscreteLaplace", laplace.name());
    assertEquals("ZCdpDiscreteGaussian", gaussian.name());
    assertEquals(Map.of(), none.parameters());
    assertEquals(Map.of("epsilon", "1/2"), laplace.parameters());
    assertEquals(Map.of("rho", "1/8"), gaussian.parameters());
    assertEquals(Map.of("epsilon", "3"), DpStrategy.PureDpDiscreteLaplace.parse("3").parameters());
    assertEquals("none", none.guarantee());
    assertEquals("pure DP", laplace.guarantee());
    assertEquals("zCDP", gaussian.guarantee());
    assertEquals(Optional.empty(), none.describeBudget());
    assertEquals(Optional.of("epsilon = 1/2"), laplace.describeBudget());
    assertEquals(Optional.of("rho = 1/8"), gaussian.describeBudget());
    // the name and parameters describe the strategy exactly: they read back to an equal one
    assertEquals(laplace, DpStrategy.PureDpDiscreteLaplace.parse(laplace.parameters().get("epsilon")));
    assertEquals(gaussian, DpStrategy.ZCdpDiscreteGaussian.parse(gaussian.parameters().get("rho")));
    assertEquals(none.name(), none.describe());
    // the budget text agrees with budget(): present exactly when there is a budget
    for (DpStrategy s : new DpStrategy[] {none, laplace, gaussian}) {
      assertEquals(s.budget().isPresent(), s.describeBudget().isPresent(), s.describe());
      assertEquals(s.budget().isPresent(), !s.parameters().isEmpty(), s.describe());
    }
  }

  @Test
  void hasHardenedSamplerSaysWhetherHardenedSamplerCanAnswer() {
    assertTrue(DpStrategy.PureDpDiscreteLaplace.parse("1/2").hasHardenedSampler());
    assertFalse(new DpStrategy.NoDifferentialPrivacy().hasHardenedSampler());
    assertTrue(DpStrategy.ZCdpDiscreteGaussian.parse("1").hasHardenedSampler());
    for (DpStrategy s : new DpStrategy[] {new DpStrategy.NoDifferentialPrivacy(),
        DpStrategy.PureDpDiscreteLaplace.parse("1/2"), DpStrategy.ZCdpDiscreteGaussian.parse("1")}) {
      if (s.hasHardenedSampler()) {
        s.hardenedSampler(SUMVEC);
      } else {
        assertThrows(IllegalArgumentException.class, () -> s.hardenedSampler(SUMVEC), s.describe());
      }
    }
  }

  // ------------------------------------------------------------------ report budgets (attribution draft)

  @Test
  void reportBudgetLaplaceIsPureDpAtTheReleaseEpsilon() {
    DpStrategy open = new DpStrategy.ReportBudgetDiscreteLaplace();
    assertTrue(open.budgetFromReports());
    assertTrue(open.budget().isEmpty());
    DpStrategy at = open.forRelease(Rational.of(1, 2));
    assertEquals(new DpStrategy.PureDpDiscreteLaplace(Rational.of(1, 2)), at);
    DiscreteLaplace dl = (DiscreteLaplace) at.sampler(SUMVEC).orElseThrow();
    assertEquals(Rational.of(2040), dl.scale()); // 1020 / (1/2)
    assertThrows(IllegalArgumentException.class, () -> open.sampler(SUMVEC));
    assertThrows(IllegalArgumentException.class, () -> open.hardenedSampler(SUMVEC));
    assertEquals(3, open.bindingCode());
    assertTrue(open.bindingParameter().isEmpty());
  }

  @Test
  void reportBudgetGaussianIsZcdpAtTheConvertedRho() {
    DpStrategy.ReportBudgetDiscreteGaussian open =
        DpStrategy.ReportBudgetDiscreteGaussian.parse("1/1000000000");
    DpStrategy.ZCdpDiscreteGaussian at = open.forRelease(Rational.of(1, 2));
    assertEquals(org.priodp.noise.ledger.ZCdpConversion.rhoFor(Rational.of(1, 2),
        Rational.of(1, 1_000_000_000)), at.rho());
    assertEquals(Optional.of(Rational.of(1, 1_000_000_000)), open.bindingParameter());
    assertEquals(Map.of("delta", "1/1000000000"), open.parameters());
    assertEquals(4, open.bindingCode());
    assertThrows(IllegalArgumentException.class, () -> open.sampler(SUMVEC));
    assertThrows(IllegalArgumentException.class, () -> DpStrategy.ReportBudgetDiscreteGaussian.parse("1"));
    assertThrows(IllegalArgumentException.class, () -> DpStrategy.ReportBudgetDiscreteGaussian.parse("0"));
  }

  @Test
  void fixedStrategiesIgnoreTheReleaseEpsilon() {
    DpStrategy s = DpStrategy.PureDpDiscreteLaplace.parse("1");
    assertFalse(s.budgetFromReports());
    assertEquals(s, s.forRelease(Rational.of(1, 2)));
  }
}
