package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BudgetTest {

  @Test
  void pureDpConvertsToZCdpExactly() {
    assertEquals(Rational.of(1, 200), Budget.PureDp.parse("0.1").toZCdp().rho());
    assertEquals(Rational.of(1, 2), Budget.PureDp.parse("1").toZCdp().rho());
    assertEquals(Rational.of(9, 8), Budget.PureDp.parse("3/2").toZCdp().rho());
  }

  @Test
  void parsesAndValidates() {
    assertEquals(Rational.of(1, 10), Budget.PureDp.parse("1/10").epsilon());
    assertEquals(Rational.of(1, 2), Budget.ZCdp.parse("0.5").rho());
    for (String bad : new String[] {"0", "-1", "", "NaN", "Infinity", "1e999", "x"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Budget.PureDp.parse(bad));
      assertTrue(e.getMessage().startsWith("epsilon"), bad + " -> " + e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> Budget.ZCdp.parse(bad));
      assertTrue(e.getMessage().startsWith("rho"), bad + " -> " + e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> new Budget.PureDp(Rational.ZERO));
    assertThrows(IllegalArgumentException.class, () -> new Budget.ZCdp(Rational.of(-1)));
    assertThrows(NullPointerException.class, () -> new Budget.PureDp(null));
  }

  @Test
  void parameterIsEpsilonOrRho() {
    assertEquals(Rational.of(1, 10), Budget.PureDp.parse("0.1").parameter());
    assertEquals(Rational.of(1, 2), Budget.ZCdp.parse("1/2").parameter());
  }
}
