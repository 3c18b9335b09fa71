package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SpanTest {

  @Test
  void isHalfOpenAndNonEmpty() {
    Span s = new Span(10, 20);
    assertEquals(10, s.length());
    assertTrue(s.intersects(19, 30));
    assertFalse(s.intersects(20, 30), "end is excluded");
    assertFalse(s.intersects(0, 10), "an interval ending at start does not touch it");
    assertThrows(IllegalArgumentException.class, () -> new Span(5, 5));
    assertThrows(IllegalArgumentException.class, () -> new Span(6, 5));
  }

  @Test
  void leaderSelectedSpanEndsOnePrecisionAfterTheLatestReport() {
    assertEquals(new Span(86400, 90000), Span.ofReportTimes(86400, 86400, 3600));
    assertEquals(new Span(0, 2 * 86400 + 3600), Span.ofReportTimes(0, 2 * 86400, 3600));
    assertThrows(IllegalArgumentException.class, () -> Span.ofReportTimes(10, 9, 1));
    assertThrows(IllegalArgumentException.class, () -> Span.ofReportTimes(10, 10, 0));
    assertThrows(ArithmeticException.class, () -> Span.ofReportTimes(0, Long.MAX_VALUE, 1));
  }
}
