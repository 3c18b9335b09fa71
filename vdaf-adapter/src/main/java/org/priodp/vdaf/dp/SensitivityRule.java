package org.priodp.vdaf.dp;

import java.util.Locale;

/**
 * Which rule gives the sensitivity of a Prio3SumVec. Every other variant has one rule.
 *
 * <p>prio-dp's own rule uses max_measurement (DESIGN.md, sensitivity table). libprio-rs and
 * Janus use (2^bits - 1) * length, which is looser whenever max_measurement is not 2^k - 1;
 * {@link #JANUS_COMPATIBLE} reproduces it so that a deployment can match a Janus peer's noise.
 */
public enum SensitivityRule {
  /** SumVec L1 = length * max_measurement, squared L2 = length * max_measurement^2. */
  PRIODP("priodp"),
  /** SumVec L1 = length * (2^bits - 1), squared L2 = length * (2^bits - 1)^2 (libprio-rs, Janus). */
  JANUS_COMPATIBLE("janus");

  private final String spelling;

  SensitivityRule(String spelling) {
    this.spelling = spelling;
  }

  /** Returns how task files and the command line write the rule: "priodp" or "janus". */
  public String spelling() {
    return spelling;
  }

  /**
   * Parses "priodp" or "janus" (ignoring case and surrounding spaces).
   *
   * @param what how the caller's user names the setting, e.g. "--sensitivity-rule", for the
   *     error message
   * @throws IllegalArgumentException naming {@code what} for any other text
   */
  public static SensitivityRule parse(String what, String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    for (SensitivityRule r : values()) {
      if (r.spelling.equals(t)) {
        return r;
      }
    }
    throw new IllegalArgumentException("unknown " + what + " '" + text + "': use priodp or janus");
  }
}
