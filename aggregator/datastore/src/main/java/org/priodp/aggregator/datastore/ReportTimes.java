package org.priodp.aggregator.datastore;

/**
 * The earliest and latest (rounded) report time counted in one or more batch buckets, seconds
 * since the epoch (issue 25: the span of a leader-selected batch).
 */
public record ReportTimes(long earliest, long latest) {
  /**
   * Validates earliest <= latest.
   *
   * @throws IllegalArgumentException otherwise
   */
  public ReportTimes {
    if (latest < earliest) {
      throw new IllegalArgumentException("latest report time " + latest + " before earliest " + earliest);
    }
  }

  /** Returns the range covering both. */
  public ReportTimes union(ReportTimes o) {
    return new ReportTimes(Math.min(earliest, o.earliest), Math.max(latest, o.latest));
  }
}
