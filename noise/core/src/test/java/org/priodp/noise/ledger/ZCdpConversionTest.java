package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Rational;

/**
 * Checks the exact epsilon -> rho conversion against an independent 120-digit BigDecimal
 * computation of (sqrt(L + eps) - sqrt(L))^2, L = ln(1/delta) (ln by Newton's method on a Taylor
 * exp): the result must be below the true value and within 2^-40 relative of it.
 */
class ZCdpConversionTest {
  private static final MathContext MC = new MathContext(120, RoundingMode.HALF_EVEN);

  @ParameterizedTest
  @CsvSource({
      "1/2, 1/1000000000", "1, 1/1000000000", "1/1000000, 1/1000000000",
      "4294967295/1000000, 1/1000000000", "3, 1/1000000", "1/4, 1/3", "1/2, 1/1000000000000000000000"})
  void rhoIsALowerBoundWithin2ToTheMinus40(String eps, String delta) {
    Rational e = Rational.parse(eps);
    Rational d = Rational.parse(delta);
    Rational rho = ZCdpConversion.rhoFor(e, d);
    BigDecimal truth = trueRho(decimal(e), decimal(d));
    BigDecimal got = decimal(rho);
    System.out.printf("eps=%s delta=%s rho=%s true=%s%n", eps, delta, got.round(new MathContext(25)),
        truth.round(new MathContext(25)));
    assertTrue(got.compareTo(truth) < 0, "rho " + got + " must be below the true " + truth);
    BigDecimal relative = truth.subtract(got).divide(truth, MC);
    assertTrue(relative.compareTo(new BigDecimal(Math.scalb(1.0, -40))) < 0,
        "relative error " + relative + " exceeds 2^-40");
  }

  @Test
  void refusesParametersOutsideTheirRange() {
    assertThrows(IllegalArgumentException.class, () -> ZCdpConversion.rhoFor(Rational.ZERO, Rational.of(1, 2)));
    assertThrows(IllegalArgumentException.class, () -> ZCdpConversion.rhoFor(Rational.ONE, Rational.ONE));
    assertThrows(IllegalArgumentException.class, () -> ZCdpConversion.rhoFor(Rational.ONE, Rational.ZERO));
  }

  private static BigDecimal decimal(Rational r) {
    return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), MC);
  }

  private static BigDecimal trueRho(BigDecimal eps, BigDecimal delta) {
    BigDecimal l = ln(BigDecimal.ONE.divide(delta, MC));
    BigDecimal diff = l.add(eps).sqrt(MC).subtract(l.sqrt(MC));
    return diff.multiply(diff, MC);
  }

  /** ln(x) for x >= 1 by Newton's method on exp, from the double estimate. */
  private static BigDecimal ln(BigDecimal x) {
    BigDecimal y = new BigDecimal(Math.log(x.doubleValue()));
    for (int i = 0; i < 12; i++) {
      BigDecimal ey = exp(y);
      y = y.add(BigDecimal.valueOf(2).multiply(x.subtract(ey)).divide(x.add(ey), MC), MC);
    }
    return y;
  }

  private static BigDecimal exp(BigDecimal y) {
    BigDecimal sum = BigDecimal.ONE;
    BigDecimal term = BigDecimal.ONE;
    for (int k = 1; k < 400; k++) {
      term = term.multiply(y, MC).divide(BigDecimal.valueOf(k), MC);
      sum = sum.add(term, MC);
      if (term.abs().compareTo(BigDecimal.ONE.movePointLeft(130)) < 0) {
        break;
      }
    }
    return sum;
  }
}
