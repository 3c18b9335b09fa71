package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;

class ReleaseGuaranteeTest {

  @Test
  void groupPrivacyScalesEpsilonByKAndRhoByKSquared() {
    Rational tv = Rational.of(3, 1 << 20);
    ReleaseGuarantee pure = new ReleaseGuarantee(Budget.PureDp.parse("1/10"), tv);
    assertEquals(new ReleaseGuarantee(Budget.PureDp.parse("3/10"), tv), pure.forGroup(3));
    ReleaseGuarantee zcdp = new ReleaseGuarantee(Budget.ZCdp.parse("1/8"), Rational.ZERO);
    assertEquals(new ReleaseGuarantee(Budget.ZCdp.parse("9/8"), Rational.ZERO), zcdp.forGroup(3));
    assertEquals(zcdp, zcdp.forGroup(1));
  }

  @Test
  void validates() {
    assertThrows(IllegalArgumentException.class,
        () -> new ReleaseGuarantee(Budget.PureDp.parse("1"), Rational.of(-1, 2)));
    assertThrows(IllegalArgumentException.class,
        () -> new ReleaseGuarantee(Budget.PureDp.parse("1"), Rational.of(3, 2)));
    assertThrows(IllegalArgumentException.class,
        () -> new ReleaseGuarantee(Budget.PureDp.parse("1"), Rational.ZERO).forGroup(0));
  }
}
