package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.ledger.BudgetCap;
import org.priodp.noise.ledger.PrivacyUnit;

class PrivacySettingsTest {
  @Test
  void canonicalFieldsAreExactAndOrdered() {
    PrivacySettings s = new PrivacySettings(new PrivacyUnit.ClientBound(1, 86400),
        Optional.of(BudgetCap.window(Budget.ZCdp.parse("0.5"), 2592000)));
    assertEquals("privacy_unit=client\nprivacy_unit.max_reports=1\nprivacy_unit.period=86400\n"
        + "privacy_budget.rho=1/2\nprivacy_budget.window=2592000\n", PrivacySettings.canonicalText(s.fields()));
    assertEquals("privacy_unit=report\n", PrivacySettings.canonicalText(PrivacySettings.DEFAULT.fields()));
  }

  @Test
  void firstChangeNamesTheFirstDifferingField() {
    assertEquals(Optional.empty(), PrivacySettings.firstChange("a=1\nb=2\n", "a=1\nb=2\n"));
    assertEquals(Optional.of("b changed from 2 to 3"), PrivacySettings.firstChange("a=1\nb=2\n", "a=1\nb=3\n"));
    assertEquals(Optional.of("c changed from (none) to 1"), PrivacySettings.firstChange("a=1\n", "a=1\nc=1\n"));
    assertEquals(Optional.of("c changed from 1 to (none)"), PrivacySettings.firstChange("a=1\nc=1\n", "a=1\n"));
  }
}
