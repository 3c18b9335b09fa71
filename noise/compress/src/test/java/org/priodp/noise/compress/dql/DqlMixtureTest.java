package org.priodp.noise.compress.dql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DqlMixtureTest {
  private static final MathContext MC = new MathContext(120);
  private static final double[] ELLS = {1.000001, 1.01, 1.05, 1.5, 2, 5, 10, 20, 1000};

  /** e^x in 120-digit arithmetic (halving until small, Taylor, squaring back). */
  private static BigDecimal exp(BigDecimal x) {
    if (x.signum() < 0) {
      return BigDecimal.ONE.divide(exp(x.negate()), MC);
    }
    int halvings = 0;
    while (x.compareTo(new BigDecimal("0.001")) > 0) {
      x = x.divide(BigDecimal.valueOf(2), MC);
      halvings++;
    }
    BigDecimal term = BigDecimal.ONE;
    BigDecimal sum = BigDecimal.ONE;
    for (int n = 1; n < 200; n++) {
      term = term.multiply(x, MC).divide(BigDecimal.valueOf(n), MC);
      sum = sum.add(term, MC);
      if (term.signum() == 0 || term.abs().compareTo(sum.ulp()) < 0) {
        break;
      }
    }
    for (int i = 0; i < halvings; i++) {
      sum = sum.multiply(sum, MC);
    }
    return sum;
  }

  /** delta_0 by Newton's method on e^d - 1 - ell d in 120 digits, from the double root. */
  private static BigDecimal delta0(double ell) {
    BigDecimal l = new BigDecimal(ell);
    BigDecimal d = new BigDecimal(DqlMixture.solveDelta0(ell));
    for (int i = 0; i < 30; i++) {
      BigDecimal e = exp(d);
      BigDecimal h = e.subtract(BigDecimal.ONE).subtract(l.multiply(d, MC), MC);
      d = d.subtract(h.divide(e.subtract(l), MC), MC);
    }
    return d;
  }

  /** The factor of equation (4), evaluated exactly as printed, in 120 digits. */
  private static BigDecimal ratio(BigDecimal delta, double ell) {
    BigDecimal l = new BigDecimal(ell);
    BigDecimal four = BigDecimal.valueOf(4);
    BigDecimal em = exp(delta.negate());
    BigDecimal em2 = em.multiply(em, MC);
    BigDecimal dl1 = delta.multiply(l, MC).add(BigDecimal.ONE);
    BigDecimal num = four.subtract(four.multiply(dl1, MC).multiply(em, MC), MC);
    BigDecimal onePlus = BigDecimal.ONE.add(em);
    BigDecimal den = onePlus.multiply(onePlus, MC)
        .multiply(BigDecimal.valueOf(2).divide(BigDecimal.ONE.add(em2), MC).subtract(dl1, MC), MC);
    return num.divide(den, MC);
  }

  private static double rel(double got, BigDecimal want) {
    if (want.signum() == 0) {
      return Math.abs(got);
    }
    return new BigDecimal(got).subtract(want).divide(want, MC).abs().doubleValue();
  }

  @Test
  void cdfPmfAndRatiosMatchA120DigitEvaluationOfEquation4() {
    for (double ell : ELLS) {
      DqlMixture m = DqlMixture.of(ell);
      BigDecimal d0 = delta0(ell);
      assertTrue(rel(m.delta0(), d0) < 1e-15, "delta0 for ell " + ell);
      int terms = m.maxLevel() + 140; // beyond: s_i < 2^-130, far below 1e-12
      BigDecimal[] r = new BigDecimal[terms + 1];
      for (int i = 1; i <= terms; i++) {
        r[i] = ratio(d0.divide(BigDecimal.valueOf(2).pow(i), MC), ell);
      }
      BigDecimal f = BigDecimal.ONE;
      BigDecimal[] cdf = new BigDecimal[m.maxLevel() + 1];
      for (int i = terms; i >= 1; i--) {
        if (i - 1 <= m.maxLevel()) {
          cdf[i - 1] = f.multiply(r[i], MC);
        }
        f = f.multiply(r[i], MC);
      }
      double worst = 0;
      for (int t = 0; t <= m.maxLevel(); t++) {
        BigDecimal p = t == 0 ? cdf[0] : cdf[t].multiply(BigDecimal.ONE.subtract(r[t]), MC);
        if (Boolean.getBoolean("dql.debug")) {
          System.out.printf("t %d cdf %.2e p %.2e surv %.2e r %.2e%n", t, rel(m.cdf(t), cdf[t]), rel(m.probability(t), p),
              rel(m.survival(t), BigDecimal.ONE.subtract(cdf[t])), t >= 1 ? rel(m.oneMinusRatio(t), BigDecimal.ONE.subtract(r[t])) : 0);
        }
        worst = Math.max(worst, rel(m.cdf(t), cdf[t]));
        worst = Math.max(worst, rel(m.probability(t), p));
        worst = Math.max(worst, rel(m.survival(t), BigDecimal.ONE.subtract(cdf[t])));
        if (t >= 1) {
          worst = Math.max(worst, rel(m.ratio(t), r[t]));
          worst = Math.max(worst, rel(m.oneMinusRatio(t), BigDecimal.ONE.subtract(r[t])));
          assertTrue(m.ratio(t) > 0 && m.ratio(t) < 1, "0 < r < 1 at ell " + ell + ", t " + t);
        }
      }
      System.out.printf("ell %-9s delta0 %.15f maxLevel %d dropped %.3g worst relative error %.2e%n",
          ell, m.delta0(), m.maxLevel(), m.droppedMass(), worst);
      assertTrue(worst < 1e-12, "ell " + ell + ": worst relative error " + worst);
    }
  }

  @Test
  void theDirectDoubleFormulaFailsTheSameCheck() {
    // negative control: equation (4) evaluated as printed in doubles cancels for small delta
    double ell = 2;
    DqlMixture m = DqlMixture.of(ell);
    double worst = 0;
    boolean above1 = false;
    for (int t = 1; t <= m.maxLevel(); t++) {
      double d = m.delta(t);
      double em = Math.exp(-d);
      double r = (4 - 4 * (d * ell + 1) * em) / ((1 + em) * (1 + em) * (2 / (1 + em * em) - d * ell - 1));
      above1 |= r > 1;
      BigDecimal want = ratio(new BigDecimal(d), ell);
      double e = BigDecimal.ONE.subtract(new BigDecimal(r)).subtract(BigDecimal.ONE.subtract(want))
          .divide(BigDecimal.ONE.subtract(want), MC).abs().doubleValue();
      worst = Math.max(worst, e);
    }
    System.out.println("direct formula: worst relative error of 1 - r " + worst + ", some r > 1: " + above1);
    assertTrue(worst > 1e-3, "the direct formula should visibly fail, worst " + worst);
  }

  @ParameterizedTest
  @ValueSource(doubles = {1.000001, 1.01, 1.5, 2, 5, 10, 20, 1000})
  void probabilitiesSumToOneMinusTheDroppedMassAndTheTruncationIsBelowTheUniformGrid(double ell) {
    DqlMixture m = DqlMixture.of(ell);
    double sum = 0;
    for (int t = 0; t <= m.maxLevel(); t++) {
      sum += m.probability(t);
    }
    assertEquals(1 - m.droppedMass(), sum, 1e-15);
    assertTrue(m.droppedMass() < 0x1.0p-53);
    assertTrue(m.survival(m.maxLevel() - 1) >= 0x1.0p-53);
    assertEquals(0, m.cdf(-1));
    assertEquals(1, m.cdf(m.maxLevel() + 1));
    assertEquals(0, m.ratio(0));
    double residual = Math.expm1(m.delta0()) / m.delta0() - ell;
    assertTrue(Math.abs(residual) < 1e-12 * ell, "delta0 residual " + residual);
    // E[-ln delta_T] stays below the paper's numerical bound ln(e/(ell - 1) + 1) - 1/2 (Theorem 8)
    assertTrue(m.expectedMinusLogDelta() <= Math.log(Math.E / (ell - 1) + 1) - 0.5);
  }

  @Test
  void levelSamplingFollowsTheSurvivalFunction() {
    DqlMixture m = DqlMixture.of(2);
    org.priodp.noise.RandomSource rnd = org.priodp.noise.RandomSource.seeded(new byte[] {3});
    int n = 200_000;
    long[] counts = new long[m.maxLevel() + 1];
    for (int i = 0; i < n; i++) {
      counts[m.sampleLevel(rnd)]++;
    }
    for (int t = 0; t < 8; t++) {
      double e = n * m.probability(t);
      assertTrue(Math.abs(counts[t] - e) < 6 * Math.sqrt(e) + 1, "level " + t + ": " + counts[t] + " vs " + e);
    }
  }

  @Test
  void badEllIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> DqlMixture.of(1));
    assertThrows(IllegalArgumentException.class, () -> DqlMixture.of(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> DqlMixture.of(Double.POSITIVE_INFINITY));
    assertThrows(IllegalArgumentException.class, () -> DqlMixture.of(2).ratio(99));
  }
}
