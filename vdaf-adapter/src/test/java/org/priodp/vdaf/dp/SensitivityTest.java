package org.priodp.vdaf.dp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.priodp.vdaf.Prio3Variant;

/** Sensitivity of every variant against hand-worked cases, including the SumVec Janus rule. */
class SensitivityTest {
  private static BigInteger big(long v) {
    return BigInteger.valueOf(v);
  }

  private static void check(Prio3Variant v, SensitivityRule rule, long l1, long l2Squared) {
    Sensitivity s = Sensitivity.of(v, rule);
    assertEquals(big(l1), s.l1(), v + " L1");
    assertEquals(big(l2Squared), s.l2Squared(), v + " L2^2");
    assertEquals(rule, s.rule());
  }

  @Test
  void count() {
    // replacing 0 by 1 changes the count by 1
    check(new Prio3Variant.Count(), SensitivityRule.PRIODP, 1, 1);
    check(new Prio3Variant.Count(), SensitivityRule.JANUS_COMPATIBLE, 1, 1);
  }

  @Test
  void sum() {
    // replacing 0 by max changes the sum by max
    check(new Prio3Variant.Sum(big(255)), SensitivityRule.PRIODP, 255, 65025);
    check(new Prio3Variant.Sum(big(100)), SensitivityRule.PRIODP, 100, 10000);
    check(new Prio3Variant.Sum(big(100)), SensitivityRule.JANUS_COMPATIBLE, 100, 10000);
  }

  @ParameterizedTest
  @CsvSource({
    // length, max, ours L1, ours L2^2, Janus L1 = length*(2^bits-1), Janus L2^2 = length*(2^bits-1)^2
    "4, 255, 1020, 260100, 1020, 260100", // max = 2^8 - 1: both rules agree
    "10, 5, 50, 250, 70, 490", // bits 3: 2^3 - 1 = 7
    "3, 100, 300, 30000, 381, 48387", // bits 7: 127
    "1, 1, 1, 1, 1, 1",
    "2, 8, 16, 128, 30, 450", // bits 4: 15
  })
  void sumVec(int length, long max, long l1, long l2s, long janusL1, long janusL2s) {
    Prio3Variant.SumVec v = Prio3Variant.SumVec.of(length, big(max), 1);
    check(v, SensitivityRule.PRIODP, l1, l2s);
    check(v, SensitivityRule.JANUS_COMPATIBLE, janusL1, janusL2s);
    assertEquals(Sensitivity.of(v, SensitivityRule.PRIODP), Sensitivity.of(v));
    // the multiproof Field64 variant has the same aggregation function
    check(Prio3Variant.SumVec.field64Multiproof(length, big(max), 1, 3), SensitivityRule.PRIODP, l1, l2s);
  }

  @Test
  void sumVecHugeValuesStayExact() {
    BigInteger max = BigInteger.ONE.shiftLeft(100).add(BigInteger.ONE); // bits 101
    Sensitivity s = Sensitivity.of(Prio3Variant.SumVec.of(3, max, 1));
    assertEquals(max.multiply(big(3)), s.l1());
    assertEquals(max.pow(2).multiply(big(3)), s.l2Squared());
    Sensitivity j = Sensitivity.of(Prio3Variant.SumVec.of(3, max, 1), SensitivityRule.JANUS_COMPATIBLE);
    assertEquals(BigInteger.ONE.shiftLeft(101).subtract(BigInteger.ONE).multiply(big(3)), j.l1());
  }

  @Test
  void histogram() {
    // one count down, another up: L1 2, L2^2 = 1 + 1
    check(new Prio3Variant.Histogram(4, 2), SensitivityRule.PRIODP, 2, 2);
    check(new Prio3Variant.Histogram(100, 10), SensitivityRule.JANUS_COMPATIBLE, 2, 2);
    check(new Prio3Variant.Histogram(1, 1), SensitivityRule.PRIODP, 2, 2);
  }

  @ParameterizedTest
  @CsvSource({
    "10, 2, 4", // w ones off, w others on: 2w coordinates change by 1
    "4, 2, 4",
    "5, 3, 5", // min(6, 5): at most length coordinates can change
    "4, 4, 4",
    "7, 1, 2",
  })
  void multihot(int length, int maxWeight, long expected) {
    check(new Prio3Variant.MultihotCountVec(length, maxWeight, 1), SensitivityRule.PRIODP, expected, expected);
  }

  /**
   * Replacing x by x' changes the aggregate by x' - x; with x = max e_i and x' = max e_j (i != j)
   * it is max at two coordinates: L1 2 max, L2^2 2 max^2 (the bound is reached). With one
   * coordinate the aggregate is a Sum: max, max^2. Both rules agree.
   */
  @ParameterizedTest
  @CsvSource({
    "10, 240, 480, 115200",
    "2, 1, 2, 2", // max_value 1: a histogram that may be empty
    "3, 7, 14, 98",
    "1, 240, 240, 57600", // one coordinate: only x_0 changes, by at most max
    "100000, 1000000, 2000000, 2000000000000",
  })
  void l1BoundSum(int length, long max, long l1, long l2s) {
    Prio3Variant.L1BoundSum v = new Prio3Variant.L1BoundSum(length, big(max), 1);
    check(v, SensitivityRule.PRIODP, l1, l2s);
    check(v, SensitivityRule.JANUS_COMPATIBLE, l1, l2s);
  }

  @Test
  void l1BoundSumHugeValuesStayExact() {
    BigInteger max = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE); // the largest DAP max_value
    Sensitivity s = Sensitivity.of(new Prio3Variant.L1BoundSum(5, max, 1));
    assertEquals(max.shiftLeft(1), s.l1());
    assertEquals(max.pow(2).shiftLeft(1), s.l2Squared());
  }

  @Test
  void rejectsNonPositive() {
    assertThrows(IllegalArgumentException.class,
        () -> new Sensitivity(BigInteger.ZERO, BigInteger.ONE, SensitivityRule.PRIODP));
    assertThrows(IllegalArgumentException.class,
        () -> new Sensitivity(BigInteger.ONE, big(-1), SensitivityRule.PRIODP));
    assertThrows(NullPointerException.class, () -> Sensitivity.of(null));
  }

  @Test
  void ofAsksTheVariant() {
    Prio3Variant[] variants = {new Prio3Variant.Count(), new Prio3Variant.Sum(big(7)),
        Prio3Variant.SumVec.of(3, big(5), 1), new Prio3Variant.Histogram(4, 2),
        new Prio3Variant.MultihotCountVec(10, 2, 3), new Prio3Variant.L1BoundSum(4, big(9), 2)};
    for (Prio3Variant v : variants) {
      for (SensitivityRule rule : SensitivityRule.values()) {
        assertEquals(v.sensitivity(rule), Sensitivity.of(v, rule), v.describe());
      }
      assertEquals(v.sensitivity(SensitivityRule.PRIODP), Sensitivity.of(v));
      assertThrows(NullPointerException.class, () -> Sensitivity.of(v, null));
    }
  }
}
