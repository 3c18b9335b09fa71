package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DurationsTest {

  @Test
  void parsesSecondsAndUnits() {
    assertEquals(86400, Durations.parse("period", "86400"));
    assertEquals(86400, Durations.parse("period", "1d"));
    assertEquals(86400, Durations.parse("period", "24h"));
    assertEquals(5400, Durations.parse("period", "90m"));
    assertEquals(45, Durations.parse("period", "45s"));
    assertEquals(30 * 86400, Durations.parse("window", " 30D "));
  }

  @Test
  void refusesNamingTheField() {
    for (String bad : new String[] {"", "0", "0d", "-1", "1w", "1.5d", "x", "999999999999999999d"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse("window", bad));
      assertTrue(e.getMessage().startsWith("window"), bad + " -> " + e.getMessage());
    }
  }

  @Test
  void formatsTheShortestExactText() {
    assertEquals("30d", Durations.format(30 * 86400));
    assertEquals("12h", Durations.format(12 * 3600));
    assertEquals("90m", Durations.format(5400));
    assertEquals("61s", Durations.format(61));
  }
}
