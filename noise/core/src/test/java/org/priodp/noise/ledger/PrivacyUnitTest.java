package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PrivacyUnitTest {

  private static final long DAY = 86400;

  @Test
  void aReportIsAGroupOfOne() {
    PrivacyUnit unit = new PrivacyUnit.Report();
    assertEquals(1, unit.groupSize(new Span(0, 1)));
    assertEquals(1, unit.groupSize(new Span(0, 365 * DAY)));
    assertEquals("report", unit.describe());
  }

  @Test
  void aClientBoundCountsTheAlignedPeriodsTheSpanIntersects() {
    PrivacyUnit daily = new PrivacyUnit.ClientBound(1, DAY);
    assertEquals(1, daily.groupSize(new Span(0, DAY)), "one aligned day");
    assertEquals(1, daily.groupSize(new Span(5 * DAY, 6 * DAY)));
    assertEquals(1, daily.groupSize(new Span(5 * DAY + 1, 6 * DAY - 1)), "inside one day");
    assertEquals(2, daily.groupSize(new Span(0, DAY + 1)), "one second into the next day");
    assertEquals(2, daily.groupSize(new Span(3600, DAY + 3600)), "a misaligned day touches two");
    assertEquals(7, daily.groupSize(new Span(0, 7 * DAY)), "a week");
    assertEquals(21, new PrivacyUnit.ClientBound(3, DAY).groupSize(new Span(0, 7 * DAY)), "3 a day for a week");
    assertEquals(2, new PrivacyUnit.ClientBound(1, 10).groupSize(new Span(-1, 1)), "periods before the epoch");
    assertEquals("client (1 report per 86400 s)", daily.describe());
    assertEquals("client (3 reports per 3600 s)", new PrivacyUnit.ClientBound(3, 3600).describe());
  }

  @Test
  void leaderSelectedSpans() {
    PrivacyUnit daily = new PrivacyUnit.ClientBound(1, DAY);
    // reports stamped at the start of day 1 only, time_precision one hour: [1d, 1d + 1h)
    assertEquals(1, daily.groupSize(Span.ofReportTimes(DAY, DAY, 3600)));
    // reports from day 0 to the last hour of day 2: three days
    assertEquals(3, daily.groupSize(Span.ofReportTimes(0, 3 * DAY - 3600, 3600)));
    // a report stamped in the last hour of day 0 reaches only day 0
    assertEquals(1, daily.groupSize(Span.ofReportTimes(DAY - 3600, DAY - 3600, 3600)));
  }

  @Test
  void validatesAndOverflows() {
    assertThrows(IllegalArgumentException.class, () -> new PrivacyUnit.ClientBound(0, DAY));
    assertThrows(IllegalArgumentException.class, () -> new PrivacyUnit.ClientBound(1, 0));
    assertThrows(ArithmeticException.class,
        () -> new PrivacyUnit.ClientBound(Long.MAX_VALUE, 1).groupSize(new Span(0, 2)));
  }
}
