package org.priodp.noise.ledger;

/**
 * The half-open time span [start, end) in seconds since the Unix epoch that one release's
 * reports lie in (issue 25; DAP-19 section 4.1 for the batch modes).
 *
 * <p>For a time-interval batch the span is the batch interval. For a leader-selected batch it is
 * [earliest report time, latest report time + time_precision): DAP rounds report times down to
 * a multiple of time_precision (DAP-19 section 4.5.2), so a report stamped t was made in
 * [t, t + time_precision).
 */
public record Span(long start, long end) {

  /**
   * Validates that end > start.
   *
   * @throws IllegalArgumentException if the span is empty
   */
  public Span {
    if (end <= start) {
      throw new IllegalArgumentException("span end " + end + " must be after its start " + start);
    }
  }

  /**
   * Returns the span of a leader-selected batch whose earliest and latest (rounded) report times
   * are given: [earliest, latest + timePrecision).
   *
   * @throws IllegalArgumentException if latest < earliest or timePrecision < 1
   * @throws ArithmeticException if latest + timePrecision overflows
   */
  public static Span ofReportTimes(long earliest, long latest, long timePrecision) {
    if (timePrecision < 1) {
      throw new IllegalArgumentException("time precision must be >= 1, got " + timePrecision);
    }
    if (latest < earliest) {
      throw new IllegalArgumentException("latest report time " + latest + " is before the earliest " + earliest);
    }
    return new Span(earliest, Math.addExact(latest, timePrecision));
  }

  /** Returns true if this span and [from, to) share a second (to > from). */
  public boolean intersects(long from, long to) {
    return start < to && from < end;
  }

  /** Returns end - start. */
  public long length() {
    return Math.subtractExact(end, start);
  }
}
