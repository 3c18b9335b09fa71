package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The verdicts of a collector identity check carry a one-line reason (attribution-00 6.1). */
class CollectorAuthorizationTest {
  @Test
  void aRefusingVerdictNeedsAReason() {
    assertThrows(IllegalArgumentException.class, () -> new CollectorAuthorization.Denied(" "));
    assertThrows(NullPointerException.class, () -> new CollectorAuthorization.Unconfirmed(null));
    assertEquals("not listed", new CollectorAuthorization.Denied("not listed").reason());
  }
}
