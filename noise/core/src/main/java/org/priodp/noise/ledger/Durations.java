package org.priodp.noise.ledger;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes the durations of privacy periods and budget windows (issue 25, item 1):
 * whole seconds, or a number with s, m, h or d ("30d").
 */
public final class Durations {

  private static final Pattern TEXT = Pattern.compile("(\\d{1,18})\\s*([smhd]?)");

  private Durations() {}

  /**
   * Parses "86400", "86400s", "90m", "24h" or "1d" into seconds.
   *
   * @throws IllegalArgumentException for anything else, zero, or an overflow, naming the field
   */
  public static long parse(String field, String text) {
    Matcher m = TEXT.matcher(text == null ? "" : text.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          field + ": '" + text + "' is not a duration: expected seconds or a number with s, m, h or d, e.g. 30d");
    }
    long n = Long.parseLong(m.group(1));
    long unit = switch (m.group(2)) {
      case "m" -> 60;
      case "h" -> 3600;
      case "d" -> 86400;
      default -> 1;
    };
    long seconds;
    try {
      seconds = Math.multiplyExact(n, unit);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(field + ": '" + text + "' is too long", e);
    }
    if (seconds < 1) {
      throw new IllegalArgumentException(field + " must be at least 1 second, got '" + text + "'");
    }
    return seconds;
  }

  /** Returns seconds as the shortest exact text: "30d", "12h", "90m" or "45s". */
  public static String format(long seconds) {
    if (seconds % 86400 == 0) {
      return seconds / 86400 + "d";
    }
    if (seconds % 3600 == 0) {
      return seconds / 3600 + "h";
    }
    if (seconds % 60 == 0) {
      return seconds / 60 + "m";
    }
    return seconds + "s";
  }
}
