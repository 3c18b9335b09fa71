package org.priodp.aggregator.task;

import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.priodp.aggregator.dap.Interval;

/**
 * Times as people type them, and their conversion to DAP-18 time units ("Times, Durations and
 * Intervals": a Time or Duration counts the task's time_precision, in seconds, since the epoch).
 * A time is a number of seconds since the epoch or an RFC 3339 timestamp with an offset
 * ({@code 2026-01-01T00:00:00Z}); a duration is a number of seconds. Conversion is exact: a time
 * or duration that is not a multiple of the time precision is refused, never rounded.
 */
public final class TimeText {
  private TimeText() {
  }

  /**
   * Parses a time in seconds since the epoch from text: digits, or RFC 3339; throws
   * IllegalArgumentException naming {@code field}.
   */
  public static long seconds(String text, String field) {
    String t = text.strip();
    if (t.matches("[0-9]{1,20}")) {
      BigInteger b = new BigInteger(t);
      if (b.bitLength() > 63) {
        throw new IllegalArgumentException(field + ": out of range");
      }
      return b.longValue();
    }
    try {
      long s = OffsetDateTime.parse(t).toEpochSecond();
      if (s < 0) {
        throw new IllegalArgumentException(field + ": before 1970-01-01T00:00:00Z");
      }
      return s;
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(field + ": expected seconds since the epoch or an RFC"
          + " 3339 time such as 2026-01-01T00:00:00Z, got \"" + text + "\"");
    }
  }

  /**
   * Returns the DAP-18 Interval, in units of {@code precision} seconds, of the span that starts
   * at {@code startSeconds} and lasts {@code durationSeconds}; both must be multiples of the
   * precision and the duration non-zero.
   */
  public static Interval toUnits(long startSeconds, long durationSeconds, long precision,
      String field) {
    if (precision <= 0) {
      throw new IllegalArgumentException(field + ": time_precision must be positive");
    }
    if (durationSeconds == 0) {
      throw new IllegalArgumentException(field + ".duration: must be at least one time_precision"
          + " (" + precision + " s)");
    }
    if (Long.remainderUnsigned(startSeconds, precision) != 0) {
      throw new IllegalArgumentException(field + ".start: " + startSeconds + " s is not a multiple"
          + " of the time_precision " + precision + " s");
    }
    if (Long.remainderUnsigned(durationSeconds, precision) != 0) {
      throw new IllegalArgumentException(field + ".duration: " + Long.toUnsignedString(
          durationSeconds) + " s is not a multiple of the time_precision " + precision + " s");
    }
    return Interval.of(Long.divideUnsigned(startSeconds, precision),
        Long.divideUnsigned(durationSeconds, precision));
  }

  /** Returns the DAP-18 Time (time_precision units) of a POSIX time in seconds: floor division. */
  public static long toTime(long epochSeconds, long precision) {
    return Long.divideUnsigned(epochSeconds, precision);
  }
}
