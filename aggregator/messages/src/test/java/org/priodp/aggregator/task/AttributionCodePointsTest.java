package org.priodp.aggregator.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AttributionCodePointsTest {
  @Test
  void defaultsAreOutsideEveryRegisteredValue() {
    AttributionCodePoints d = AttributionCodePoints.DEFAULTS;
    assertEquals(0xFA, d.collectorSelected());
    assertEquals(0xFA01, d.privacyBudget());
    assertEquals(0xFA02, d.minDpBudget());
    assertEquals(0xFA03, d.collectorIdentity());
    assertEquals(0xFA04, d.budgetSource());
    assertTrue(d.isDefault());
  }

  @Test
  void namedValuesReplaceDefaults() {
    AttributionCodePoints c = AttributionCodePoints.of(Map.of("privacy_budget", 7));
    assertEquals(7, c.privacyBudget());
    assertEquals(0xFA02, c.minDpBudget());
    assertEquals(c, AttributionCodePoints.of(c.byName()));
  }

  @Test
  void refusesTakenOrOutOfRangeValues() {
    assertThrows(IllegalArgumentException.class, () -> AttributionCodePoints.of(Map.of("collector_selected", 2)));
    assertThrows(IllegalArgumentException.class, () -> AttributionCodePoints.of(Map.of("collector_selected", 256)));
    assertThrows(IllegalArgumentException.class, () -> AttributionCodePoints.of(Map.of("privacy_budget", 0)));
    assertThrows(IllegalArgumentException.class, () -> AttributionCodePoints.of(Map.of("min_dp_budget", 0x10000)));
    assertThrows(IllegalArgumentException.class, () -> AttributionCodePoints.of(Map.of("collector_identity", 1)));
    assertThrows(IllegalArgumentException.class, () -> AttributionCodePoints.of(Map.of("budget_source", 0xFA03)));
    assertThrows(IllegalArgumentException.class, () -> AttributionCodePoints.of(Map.of("budget_source", DpBinding.EXTENSION_TYPE)));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AttributionCodePoints.of(Map.of("privacy_budgett", 5)));
    assertTrue(e.getMessage().startsWith("privacy_budgett: "), e.getMessage());
  }
}
