package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;

class LedgerEntryTest {

  @Test
  void computesTheGroupAndThePerUnitGuarantee() {
    ReleaseGuarantee perReport = new ReleaseGuarantee(Budget.PureDp.parse("1/4"), Rational.ZERO);
    LedgerEntry e = LedgerEntry.of("b", new Span(0, 2 * 86400), new PrivacyUnit.ClientBound(2, 86400), perReport, 7);
    assertEquals(4, e.groupSize());
    assertEquals(Budget.PureDp.parse("1"), e.perUnit().perRelease());
    assertEquals(7, e.drawnAt());
  }

  @Test
  void refusesAPerUnitGuaranteeThatIsNotTheGroupOne() {
    ReleaseGuarantee perReport = new ReleaseGuarantee(Budget.PureDp.parse("1/4"), Rational.ZERO);
    assertThrows(IllegalArgumentException.class,
        () -> new LedgerEntry("b", new Span(0, 1), 2, perReport, perReport, 0));
  }
}
