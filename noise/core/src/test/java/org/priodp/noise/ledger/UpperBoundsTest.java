package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Rational;

/** Each bound is checked against an independent 400-digit BigDecimal computation. */
class UpperBoundsTest {

  static final MathContext MC = new MathContext(400);
  static final BigDecimal REL = new BigDecimal("1e-12");

  /** e^x by its Taylor series at 400 digits (no argument reduction: a different route). */
  static BigDecimal expRef(BigDecimal x) {
    BigDecimal sum = BigDecimal.ONE;
    BigDecimal term = BigDecimal.ONE;
    BigDecimal eps = sum.ulp().max(new BigDecimal("1e-390"));
    for (int k = 1; k < 100_000; k++) {
      term = term.multiply(x, MC).divide(BigDecimal.valueOf(k), MC);
      sum = sum.add(term, MC);
      if (k > x.doubleValue() * 3 && term.compareTo(sum.multiply(new BigDecimal("1e-380"))) < 0) {
        return sum;
      }
    }
    throw new AssertionError("no convergence");
  }

  static BigDecimal dec(Rational r) {
    return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), MC);
  }

  static void assertTightUpper(BigDecimal truth, Rational bound, String what) {
    BigDecimal b = dec(bound);
    assertTrue(b.compareTo(truth) >= 0, what + ": bound " + b + " below " + truth);
    BigDecimal rel = b.subtract(truth).divide(truth.max(BigDecimal.ONE.movePointLeft(300)), MC);
    assertTrue(rel.compareTo(REL) < 0, what + ": relative slack " + rel);
  }

  @Test
  void expIsAnUpperBoundWithinOneInATrillion() {
    for (String x : new String[] {"1/3", "1/2", "1", "2", "10", "37/7", "1/1000000", "64", "700"}) {
      Rational r = Rational.parse(x);
      assertTightUpper(expRef(dec(r)), UpperBounds.exp(r), "e^" + x);
    }
    assertEquals(Rational.ONE, UpperBounds.exp(Rational.ZERO));
    assertThrows(IllegalArgumentException.class, () -> UpperBounds.exp(Rational.of(-1)));
    assertThrows(IllegalArgumentException.class, () -> UpperBounds.exp(Rational.of(1001)));
  }

  @Test
  void sqrtIsAnUpperBoundAndExactOnSquares() {
    for (String x : new String[] {"2", "1/3", "12345678901234567/89", "1/1000000007"}) {
      Rational r = Rational.parse(x);
      assertTightUpper(dec(r).sqrt(MC), UpperBounds.sqrt(r), "sqrt " + x);
    }
    assertEquals(Rational.of(2), UpperBounds.sqrt(Rational.of(4)));
    assertEquals(Rational.of(3, 4), UpperBounds.sqrt(Rational.of(9, 16)));
    assertEquals(Rational.ZERO, UpperBounds.sqrt(Rational.ZERO));
  }

  @Test
  void lnIsAnUpperBoundWithinOneInATrillion() {
    assertEquals(Rational.ZERO, UpperBounds.ln(Rational.ONE));
    for (String x : new String[] {"2", "3/2", "10", "1000000000", "1e20", "18446744073709551616", "7/3"}) {
      Rational r = Rational.parse(x);
      Rational l = UpperBounds.ln(r);
      BigDecimal lb = dec(l);
      // l >= ln x  <=>  e^l >= x;  l (1 - 1e-12) < ln x  <=>  e^(l (1 - 1e-12)) < x
      assertTrue(expRef(lb).compareTo(dec(r)) >= 0, "ln " + x + " bound too small: " + lb);
      assertTrue(expRef(lb.multiply(BigDecimal.ONE.subtract(REL))).compareTo(dec(r)) < 0, "ln " + x + " too loose: " + lb);
    }
    assertThrows(IllegalArgumentException.class, () -> UpperBounds.ln(Rational.of(1, 2)));
  }
}
