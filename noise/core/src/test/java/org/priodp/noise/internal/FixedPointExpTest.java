package org.priodp.noise.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class FixedPointExpTest {

  /** References computed with Python's decimal module at 70 digits. */
  @ParameterizedTest
  @CsvSource({
    "1, 1, 0.3678794411714423215955237701614608674458111310317678345078368016974615",
    "1, 2, 0.6065306597126334236037995349911804534419181354871869556828921587350565",
    "2, 1, 0.1353352832366126918939994949724844034076315459095758814681588726540734",
    "1, 1000, 0.9990004998333749916680553571676559747023559023600820590520285111960868",
    "149, 4, 6.645544172915070539633280106185789357558168142554952783972823624214115E-17",
  })
  void matchesHighPrecisionReferences(long num, long den, String reference) {
    int precision = 192;
    BigInteger e = FixedPointExp.expNeg(BigInteger.valueOf(num), BigInteger.valueOf(den), precision);
    BigInteger want = new BigDecimal(reference).multiply(new BigDecimal(BigInteger.ONE.shiftLeft(precision)))
        .setScale(0, RoundingMode.FLOOR).toBigInteger();
    // the reference has 70 significant digits (about 2^-232 relative), far below 1 ulp
    BigInteger err = e.subtract(want).abs();
    assertTrue(err.compareTo(BigInteger.valueOf(FixedPointExp.ERROR_ULPS + 1)) <= 0,
        "exp(-" + num + "/" + den + ") off by " + err + " ulps");
  }

  @Test
  void zeroAndHugeArguments() {
    assertEquals(BigInteger.ONE.shiftLeft(64), FixedPointExp.expNeg(BigInteger.ZERO, BigInteger.ONE, 64));
    assertEquals(BigInteger.ZERO, FixedPointExp.expNeg(BigInteger.valueOf(1000), BigInteger.ONE, 64));
    assertThrows(IllegalArgumentException.class, () -> FixedPointExp.expNeg(BigInteger.ONE.negate(), BigInteger.ONE, 64));
    assertThrows(IllegalArgumentException.class, () -> FixedPointExp.expNeg(BigInteger.ONE, BigInteger.ZERO, 64));
  }

  @Test
  void productRuleHoldsWithinTheErrorBound() {
    int p = 160;
    for (int a = 0; a < 40; a++) {
      for (int b = 1; b < 7; b++) {
        BigInteger x = FixedPointExp.expNeg(BigInteger.valueOf(a), BigInteger.valueOf(b), p);
        BigInteger y = FixedPointExp.expNeg(BigInteger.valueOf(3), BigInteger.valueOf(b), p);
        BigInteger xy = FixedPointExp.expNeg(BigInteger.valueOf(a + 3), BigInteger.valueOf(b), p);
        BigInteger prod = x.multiply(y).shiftRight(p);
        assertTrue(prod.subtract(xy).abs().compareTo(BigInteger.valueOf(3 * FixedPointExp.ERROR_ULPS)) <= 0,
            "exp(-" + a + "/" + b + ") exp(-3/" + b + ")");
      }
    }
  }
}
