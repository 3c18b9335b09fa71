package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.noise.ledger.UpperBoundsTest.assertTightUpper;
import static org.priodp.noise.ledger.UpperBoundsTest.dec;
import static org.priodp.noise.ledger.UpperBoundsTest.expRef;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Rational;

class GuaranteeTest {

  static final Rational TWO_TO_MINUS_64 = Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(64));

  @Test
  void pureDpWithoutVariationIsPure() {
    Guarantee g = Guarantee.pureDp(Rational.ONE, Rational.ZERO);
    assertEquals(Rational.ZERO, g.delta());
    assertEquals("epsilon 1 (pure DP)", g.describe());
  }

  @Test
  void pureDpDeltaIsOnePlusEToTheEpsilonTimesT() {
    Rational t = TWO_TO_MINUS_64.multiply(Rational.of(3));
    Guarantee g = Guarantee.pureDp(Rational.ONE, t);
    BigDecimal truth = BigDecimal.ONE.add(expRef(BigDecimal.ONE)).multiply(dec(t));
    assertTightUpper(truth, g.delta(), "(1 + e) 3 2^-64");
    assertEquals("(epsilon at most 1, delta at most 6.04706e-19)-DP", g.describe());
  }

  @Test
  void zCdpConvertsWithTheNamedDeltaPrime() {
    Rational r = Rational.of(1, 2);
    Rational dp = Rational.of(1, 1_000_000_000);
    Guarantee g = Guarantee.zCdp(r, Rational.ZERO, dp);
    // epsilon = 1/2 + 2 sqrt(1/2 ln 1e9), ln 1e9 = 9 ln 10
    MathContext mc = UpperBoundsTest.MC;
    BigDecimal ln1e9 = lnRef(new BigDecimal("1e9"));
    BigDecimal eps = new BigDecimal("0.5").add(BigDecimal.valueOf(2).multiply(new BigDecimal("0.5").multiply(ln1e9).sqrt(mc)));
    assertTightUpper(eps, g.epsilon(), "zCDP epsilon");
    assertEquals(dp, g.delta(), "no variation: delta is delta'");
    assertEquals(Optional.of(dp), g.deltaPrime());
    assertEquals("rho 1/2 (zCDP), so (epsilon at most 6.9379, delta at most 1e-9)-DP", g.describe());

    Guarantee withTv = Guarantee.zCdp(r, TWO_TO_MINUS_64, dp);
    BigDecimal delta = new BigDecimal("1e-9").add(BigDecimal.ONE.add(expRef(dec(withTv.epsilon()))).multiply(dec(TWO_TO_MINUS_64)));
    assertTightUpper(delta, withTv.delta(), "zCDP delta");
    assertThrows(IllegalArgumentException.class, () -> Guarantee.zCdp(r, Rational.ZERO, Rational.ONE));
  }

  @Test
  void deltaIsCappedAtOne() {
    assertEquals(Rational.ONE, Guarantee.pureDp(Rational.of(100), Rational.of(1, 2)).delta());
    assertEquals(Rational.ONE, Guarantee.pureDp(Rational.of(5000), Rational.of(1, 2)).delta());
  }

  /** ln by bisection on the reference exp, to 1e-40. */
  static BigDecimal lnRef(BigDecimal x) {
    BigDecimal lo = BigDecimal.ZERO;
    BigDecimal hi = BigDecimal.valueOf(100);
    for (int i = 0; i < 160; i++) {
      BigDecimal mid = lo.add(hi).divide(BigDecimal.valueOf(2), UpperBoundsTest.MC);
      if (expRef(mid).compareTo(x) < 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
