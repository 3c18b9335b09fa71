package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;

class DecisionTest {

  @Test
  void refusalNamesCapSpentLeftAndCost() {
    Decision.Refused r = new Decision.Refused(BudgetCap.window(Budget.PureDp.parse("1"), 30 * 86400L),
        Rational.of(29, 30), Rational.of(1, 30), Rational.of(1, 15));
    assertEquals("privacy budget exhausted: epsilon 1 per client (1 report per 86400 s) over any 30d window;"
        + " spent epsilon 29/30, left 1/30; this release would cost 1/15", r.describe(new PrivacyUnit.ClientBound(1, 86400)));
    assertThrows(NullPointerException.class, () -> new Decision.Admitted(null));
  }
}
