package org.priodp.vdaf;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The text forms of a measurement that {@link Prio3Variant#parseMeasurement} reads: one integer
 * in [0, max], or a comma-separated vector of them. Each number is 1 to 40 decimal digits
 * (no sign); surrounding spaces are ignored. Error messages say what was expected ("expected 0
 * or 1, got 2") and, in a vector, name the element ("element 2: ...").
 */
final class MeasurementText {
  private MeasurementText() {}

  /** Parses one integer in [0, max]; {@code what} describes it, e.g. "0 or 1". */
  static BigInteger integer(String text, BigInteger max, String what) {
    String t = Objects.requireNonNull(text, "text").strip();
    if (!t.matches("[0-9]{1,40}")) {
      throw new IllegalArgumentException("expected " + what);
    }
    BigInteger v = new BigInteger(t);
    if (v.compareTo(max) > 0) {
      throw new IllegalArgumentException("expected " + what + ", got " + v);
    }
    return v;
  }

  /**
   * Parses exactly {@code length} comma-separated integers in [0, max]; {@code what} describes
   * the elements, e.g. "integers in [0, 9]".
   */
  static List<BigInteger> vector(String text, int length, BigInteger max, String what) {
    String[] parts = Objects.requireNonNull(text, "text").strip().split(",", -1);
    if (parts.length != length) {
      throw new IllegalArgumentException("expected " + length + " comma-separated " + what
          + ", got " + parts.length + " value" + (parts.length == 1 ? "" : "s"));
    }
    List<BigInteger> out = new ArrayList<>(length);
    for (int i = 0; i < parts.length; i++) {
      try {
        out.add(integer(parts[i], max, what));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("element " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return List.copyOf(out);
  }
}
