package org.priodp.vdaf.dp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The one spelling of the sensitivity rules, shared by task files and the command line. */
class SensitivityRuleTest {

  @Test
  void parsesAndWritesTheSpellings() {
    assertEquals(SensitivityRule.PRIODP, SensitivityRule.parse("rule", "priodp"));
    assertEquals(SensitivityRule.JANUS_COMPATIBLE, SensitivityRule.parse("rule", " Janus "));
    for (SensitivityRule r : SensitivityRule.values()) {
      assertEquals(r, SensitivityRule.parse("rule", r.spelling()));
    }
  }

  @Test
  void refusesOtherTextNamingTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SensitivityRule.parse("--sensitivity-rule", "libprio"));
    assertEquals("unknown --sensitivity-rule 'libprio': use priodp or janus", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SensitivityRule.parse("rule", null));
  }
}
