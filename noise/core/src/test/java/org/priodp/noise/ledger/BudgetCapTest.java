package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;

class BudgetCapTest {

  @Test
  void describesTheCapWithItsUnit() {
    assertEquals("epsilon 1 per client (1 report per 86400 s) over any 30d window",
        BudgetCap.window(Budget.PureDp.parse("1"), 30 * 86400L).describe(new PrivacyUnit.ClientBound(1, 86400)));
    assertEquals("rho 1/2 per report over the task's life",
        BudgetCap.life(Budget.ZCdp.parse("0.5")).describe(new PrivacyUnit.Report()));
  }

  @Test
  void refusesAnEmptyWindow() {
    assertThrows(IllegalArgumentException.class, () -> new BudgetCap(Budget.PureDp.parse("1"), Optional.of(0L)));
  }
}
