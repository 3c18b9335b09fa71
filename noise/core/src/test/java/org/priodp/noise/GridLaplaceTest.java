package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The grid Laplace mechanism: snapping, the grid sensitivity that keeps epsilon exact (checked
 * against random neighbouring query answers, with the naive floor(Δ 2^k) as a negative control),
 * exact outputs on the grid, and the lecture's tail bound (Theorems 9 and 12) next to the exact
 * tail.
 */
class GridLaplaceTest {

  @Test
  void snapsToTheNearestGridPointWithTiesUp() {
    GridLaplace m = GridLaplace.of(Rational.ONE, 1, 2, Budget.PureDp.parse("1"));
    assertEquals(BigInteger.valueOf(1), m.snap(new BigDecimal("0.3")));   // 1.2 -> 1
    assertEquals(BigInteger.valueOf(2), m.snap(new BigDecimal("0.375"))); // 1.5 -> 2
    assertEquals(BigInteger.valueOf(-1), m.snap(new BigDecimal("-0.375"))); // -1.5 -> -1
    assertEquals(BigInteger.valueOf(-5), m.snap(new BigDecimal("-1.126")));
    assertEquals(new BigDecimal("0.25"), m.granularity());
  }

  @ParameterizedTest
  @CsvSource({"1, 1, 0, 1", "1, 1, 3, 8", "1/3, 1, 2, 2", "1/3, 3, 2, 4", "2.5, 4, 1, 8"})
  void gridSensitivityIsCeilPlusDimensionMinusOne(String sens, int d, int k, long expected) {
    GridLaplace m = GridLaplace.of(Rational.parse(sens), d, k, Budget.PureDp.parse("1"));
    assertEquals(BigInteger.valueOf(expected), m.gridSensitivity());
    assertEquals(Rational.of(BigInteger.valueOf(expected)).divide(Rational.ONE), m.noise().scale());
  }

  /** Largest L1 distance between snapped neighbours found by a seeded search. */
  private static long worstSnappedDistance(GridLaplace m, Rational sens, long seed) {
    SplittableRandom g = new SplittableRandom(seed);
    System.out.println("seed " + seed);
    BigDecimal delta = new BigDecimal(sens.numerator()).divide(new BigDecimal(sens.denominator()), MathContext.DECIMAL128);
    long worst = 0;
    for (int trial = 0; trial < 20_000; trial++) {
      // f(x) random; f(y) = f(x) + a vector of L1 norm at most delta, spread over the coordinates
      double[] w = new double[m.dimension()];
      double total = 0;
      for (int i = 0; i < w.length; i++) {
        w[i] = g.nextDouble();
        total += w[i];
      }
      long dist = 0;
      for (int i = 0; i < w.length; i++) {
        BigDecimal x = BigDecimal.valueOf(g.nextDouble(-8, 8)).setScale(12, java.math.RoundingMode.HALF_EVEN);
        BigDecimal step = delta.multiply(BigDecimal.valueOf(w[i] / total * 0.999999)).setScale(12, java.math.RoundingMode.FLOOR);
        dist += m.snap(x.add(g.nextBoolean() ? step : step.negate())).subtract(m.snap(x)).abs().longValueExact();
      }
      worst = Math.max(worst, dist);
    }
    return worst;
  }

  @ParameterizedTest
  @CsvSource({"1/3, 3, 2", "2.5, 4, 1", "1, 2, 3"})
  void snappedNeighboursStayWithinTheGridSensitivity(String sensText, int d, int k) {
    Rational sens = Rational.parse(sensText);
    GridLaplace m = GridLaplace.of(sens, d, k, Budget.PureDp.parse("1"));
    long worst = worstSnappedDistance(m, sens, 11 * d + k);
    assertTrue(worst <= m.gridSensitivity().longValueExact(), worst + " > " + m.gridSensitivity());
    // negative control: the naive floor(Δ 2^k), without the rounding slack, is exceeded
    long naive = sens.multiply(Rational.of(1L << k)).floor().longValueExact();
    assertTrue(worst > naive, "the search never exceeded the naive sensitivity " + naive + "; it cannot tell");
  }

  @Test
  void releasesExactGridMultiplesAroundTheSnappedValue() {
    GridLaplace m = GridLaplace.of(Rational.of(1, 10), 3, 4, Budget.PureDp.parse("1/2"));
    SeededRandomSource rnd = SeededRandomSource.fromHex("1a");
    List<BigDecimal> in = List.of(new BigDecimal("1.23456"), new BigDecimal("-7"), new BigDecimal("1000000.5"));
    List<BigDecimal> sums = new ArrayList<>(List.of(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO));
    int reps = 2000;
    for (int r = 0; r < reps; r++) {
      List<BigDecimal> out = m.release(in, rnd);
      for (int i = 0; i < 3; i++) {
        BigDecimal units = out.get(i).multiply(BigDecimal.valueOf(16));
        assertTrue(units.stripTrailingZeros().scale() <= 0, "not on the grid: " + out.get(i));
        sums.set(i, sums.get(i).add(out.get(i)));
      }
    }
    double sd = Math.sqrt(Accuracy.laplaceVariance(m.noise().scale()) / reps) / 16;
    for (int i = 0; i < 3; i++) {
      double centre = m.snap(in.get(i)).doubleValue() / 16;
      double mean = sums.get(i).doubleValue() / reps;
      assertTrue(Math.abs(mean - centre) < 5 * sd, "coordinate " + i + ": mean " + mean + " vs " + centre);
    }
    assertThrows(IllegalArgumentException.class, () -> m.release(new BigDecimal("1"), rnd));
  }

  /**
   * The lecture's Theorem 12 bound ln(d/δ)Δ/ε next to the exact tail: for the grid mechanism the
   * exact half-width has coverage >= 1 - δ (checked by simulation), and the lecture's bound, for
   * the continuous Laplace, is within one grid step and a factor GS/(Δ 2^k) of it.
   */
  @ParameterizedTest
  @CsvSource({"1, 1, 0, 1, 0.05", "1/3, 4, 3, 1/2, 0.1"})
  void lectureTailBoundBesideTheExactTail(String sensText, int d, int k, String eps, double delta) {
    Rational sens = Rational.parse(sensText);
    GridLaplace m = GridLaplace.of(sens, d, k, Budget.PureDp.parse(eps));
    double lecture = Accuracy.lectureLaplaceBound(sens, m.epsilon(), d, delta);
    double exact = Accuracy.gridLaplaceHalfWidth(m, delta);
    double inflation = m.gridSensitivity().doubleValue() / (Accuracy.toDouble(sens) * (1 << k));
    double step = 1.0 / (1 << k);
    System.out.printf("%s: lecture %.4f, exact %.4f, P[max err >= lecture] = %.4f%n", m, lecture, exact,
        Accuracy.gridLaplaceExceedance(m, lecture));
    assertTrue(exact <= lecture * inflation * (1 + Math.log(2) / Math.log(d / delta)) + step, exact + " vs " + lecture);
    assertTrue(Accuracy.gridLaplaceExceedance(m, exact + step) <= delta);
    // simulation: the fraction of releases with max error > exact is at most delta (+ 4 se)
    SeededRandomSource rnd = SeededRandomSource.fromHex("2b");
    int reps = 20_000;
    int beyond = 0;
    List<BigDecimal> zero = new ArrayList<>();
    for (int i = 0; i < d; i++) {
      zero.add(BigDecimal.ZERO);
    }
    for (int r = 0; r < reps; r++) {
      double worst = 0;
      for (BigDecimal y : m.release(zero, rnd)) {
        worst = Math.max(worst, Math.abs(y.doubleValue()));
      }
      if (worst > exact) {
        beyond++;
      }
    }
    double rate = (double) beyond / reps;
    System.out.println("beyond exact half-width: " + rate + " (delta " + delta + ")");
    assertTrue(rate <= delta + 4 * Math.sqrt(delta * (1 - delta) / reps), "coverage too low: " + rate);
  }

  @Test
  void rejectsBadParameters() {
    Budget.PureDp b = Budget.PureDp.parse("1");
    assertThrows(IllegalArgumentException.class, () -> GridLaplace.of(Rational.ZERO, 1, 0, b));
    assertThrows(IllegalArgumentException.class, () -> GridLaplace.of(Rational.ONE, 0, 0, b));
    assertThrows(IllegalArgumentException.class, () -> GridLaplace.of(Rational.ONE, 1, -1, b));
    assertThrows(IllegalArgumentException.class, () -> GridLaplace.of(Rational.ONE, 1, 257, b));
  }
}
