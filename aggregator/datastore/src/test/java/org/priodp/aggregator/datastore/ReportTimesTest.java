package org.priodp.aggregator.datastore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ReportTimesTest {
  @Test
  void validatesAndUnites() {
    assertEquals(new ReportTimes(1, 9), new ReportTimes(3, 9).union(new ReportTimes(1, 4)));
    assertEquals(new ReportTimes(5, 5), new ReportTimes(5, 5).union(new ReportTimes(5, 5)));
    assertThrows(IllegalArgumentException.class, () -> new ReportTimes(2, 1));
  }
}
