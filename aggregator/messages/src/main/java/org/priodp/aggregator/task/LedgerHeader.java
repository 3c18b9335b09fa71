package org.priodp.aggregator.task;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.priodp.noise.Rational;

/**
 * The prio-dp response header {@value #NAME} that a Leader adds to a finished collection job's
 * answer (DAP-18 "Collection Job Finalization" leaves other headers to the implementation; a
 * Collector that does not know it ignores it, so the DAP bytes and their meaning are unchanged):
 * what the released batch cost one privacy unit and, at the time of the answer, what the task's
 * ledger has spent and what its cap leaves (docs/PRIVACY.md "Privacy over time").
 *
 * <p>The value is an RFC 8941 Dictionary ("Structured Field Values for HTTP", section 3.2) of
 * bare items: {@code measure} a token ({@code epsilon} or {@code rho}), {@code cost}, {@code
 * spent} and {@code remaining} exact rationals as sf-strings ("1/30"), {@code tv} the total
 * variation the ledger adds to the delta terms (an sf-string rational), {@code released} the
 * time the batch was drawn (sf-integer, seconds since the epoch), {@code cap} the cap as people
 * read it (sf-string). For example:
 *
 * <pre>
 * Priodp-Privacy-Ledger: measure=epsilon, cost="1/30", spent="3/10", remaining="7/10",
 *     released=1767225600, cap="epsilon 1 per client over any 30-day window"
 * </pre>
 *
 * (on one line). {@code remaining} and {@code cap} are absent when the task has no cap, {@code tv}
 * when it is 0. A reader ignores members it does not know (RFC 8941 section 3.2 allows any
 * member), so later members can be added.
 *
 * @param measure "epsilon" (pure DP) or "rho" (zCDP)
 * @param cost what this release cost one privacy unit
 * @param spent what the ledger holds for one privacy unit (worst window), this release included
 * @param remaining what the cap leaves (worst window), if the task has a cap
 * @param totalVariation the total variation of the fixed-work samplers the spent releases add
 * @param releasedAt when the batch was drawn, seconds since the epoch
 * @param cap the cap as people read it, if the task has one
 */
public record LedgerHeader(String measure, Rational cost, Rational spent,
    Optional<Rational> remaining, Rational totalVariation, long releasedAt,
    Optional<String> cap) {
  /** The header's name (a prio-dp private header: no IANA registration, no X- prefix). */
  public static final String NAME = "Priodp-Privacy-Ledger";

  /** The longest header value {@link #parse} reads. */
  public static final int MAX_LENGTH = 4096;

  /** Validates the parts: a known measure, amounts >= 0, a printable ASCII cap. */
  public LedgerHeader {
    Objects.requireNonNull(measure, "measure");
    if (!measure.equals("epsilon") && !measure.equals("rho")) {
      throw new IllegalArgumentException("measure: expected epsilon or rho, got " + measure);
    }
    nonNegative("cost", cost);
    nonNegative("spent", spent);
    Objects.requireNonNull(remaining, "remaining");
    remaining.ifPresent(r -> nonNegative("remaining", r));
    nonNegative("tv", totalVariation);
    if (releasedAt < 0) {
      throw new IllegalArgumentException("released: must be >= 0");
    }
    Objects.requireNonNull(cap, "cap");
    cap.ifPresent(c -> {
      if (!c.chars().allMatch(ch -> ch >= 0x20 && ch <= 0x7e)) {
        throw new IllegalArgumentException("cap: printable ASCII only (an RFC 8941 string)");
      }
    });
  }

  private static void nonNegative(String name, Rational r) {
    Objects.requireNonNull(r, name);
    if (r.signum() < 0) {
      throw new IllegalArgumentException(name + ": must be >= 0, got " + r);
    }
  }

  /** Returns the header's value, an RFC 8941 Dictionary on one line. */
  public String format() {
    StringBuilder b = new StringBuilder();
    b.append("measure=").append(measure);
    b.append(", cost=").append(string(cost.toString()));
    b.append(", spent=").append(string(spent.toString()));
    remaining.ifPresent(r -> b.append(", remaining=").append(string(r.toString())));
    if (totalVariation.signum() != 0) {
      b.append(", tv=").append(string(totalVariation.toString()));
    }
    b.append(", released=").append(releasedAt);
    cap.ifPresent(c -> b.append(", cap=").append(string(c)));
    return b.toString();
  }

  private static String string(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /**
   * Parses a header value written by {@link #format} (RFC 8941 section 4.2.2, Dictionary members
   * whose values are bare tokens, integers or strings; parameters are refused; unknown members
   * are ignored).
   *
   * @throws IllegalArgumentException naming the member for a value that is not a valid header
   */
  public static LedgerHeader parse(String value) {
    Objects.requireNonNull(value, "value");
    if (value.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(NAME + ": longer than " + MAX_LENGTH + " characters");
    }
    Map<String, String> m = dictionary(value);
    try {
      return new LedgerHeader(need(m, "measure"), rational(m, "cost"), rational(m, "spent"),
          m.containsKey("remaining") ? Optional.of(rational(m, "remaining")) : Optional.empty(),
          m.containsKey("tv") ? rational(m, "tv") : Rational.ZERO,
          integer(need(m, "released"), "released"), Optional.ofNullable(m.get("cap")));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(NAME + ": " + e.getMessage(), e);
    }
  }

  private static String need(Map<String, String> m, String key) {
    String v = m.get(key);
    if (v == null) {
      throw new IllegalArgumentException(key + ": missing");
    }
    return v;
  }

  private static Rational rational(Map<String, String> m, String key) {
    try {
      return Rational.parse(need(m, key));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
    }
  }

  private static long integer(String v, String key) {
    if (!v.matches("[0-9]{1,15}")) { // sf-integer: at most 15 digits
      throw new IllegalArgumentException(key + ": expected an integer, got " + v);
    }
    return Long.parseLong(v);
  }

  /**
   * Reads an RFC 8941 Dictionary of bare items into key -> text: a string's content unescaped, a
   * token or integer as written. Refuses what is not the syntax.
   */
  private static Map<String, String> dictionary(String s) {
    Map<String, String> out = new LinkedHashMap<>();
    int i = skip(s, 0);
    while (i < s.length()) {
      int k = i;
      if (!(s.charAt(i) >= 'a' && s.charAt(i) <= 'z') && s.charAt(i) != '*') {
        throw new IllegalArgumentException(NAME + ": a key must start with a-z or *, at " + i);
      }
      while (i < s.length() && "abcdefghijklmnopqrstuvwxyz0123456789_-.*".indexOf(s.charAt(i))
          >= 0) {
        i++;
      }
      String key = s.substring(k, i);
      String item;
      if (i < s.length() && s.charAt(i) == '=') {
        i++;
        if (i < s.length() && s.charAt(i) == '"') {
          StringBuilder b = new StringBuilder();
          i++;
          while (true) {
            if (i >= s.length()) {
              throw new IllegalArgumentException(NAME + "." + key + ": unterminated string");
            }
            char c = s.charAt(i++);
            if (c == '\\') {
              if (i >= s.length() || (s.charAt(i) != '"' && s.charAt(i) != '\\')) {
                throw new IllegalArgumentException(NAME + "." + key + ": bad escape");
              }
              b.append(s.charAt(i++));
            } else if (c == '"') {
              break;
            } else if (c < 0x20 || c > 0x7e) {
              throw new IllegalArgumentException(NAME + "." + key + ": not printable ASCII");
            } else {
              b.append(c);
            }
          }
          item = b.toString();
        } else {
          int v = i;
          while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != ' '
              && s.charAt(i) != '\t' && s.charAt(i) != ';') {
            i++;
          }
          item = s.substring(v, i);
          // an sf-integer, sf-decimal, sf-boolean or sf-token (RFC 8941 sections 3.3.1-3.3.6)
          if (!item.matches("-?[0-9]{1,15}(\\.[0-9]{1,3})?|\\?[01]"
              + "|[A-Za-z*][A-Za-z0-9!#$%&'*+.^_`|~:/-]*")) {
            throw new IllegalArgumentException(NAME + "." + key + ": not a bare item: "
                + item);
          }
        }
      } else {
        item = "?1"; // a key alone is the boolean true
      }
      if (i < s.length() && s.charAt(i) == ';') {
        throw new IllegalArgumentException(NAME + "." + key + ": parameters are not used");
      }
      out.put(key, item); // RFC 8941: a later duplicate overrides
      i = skip(s, i);
      if (i < s.length()) {
        if (s.charAt(i) != ',') {
          throw new IllegalArgumentException(NAME + ": expected ',' at " + i);
        }
        i = skip(s, i + 1);
        if (i >= s.length()) {
          throw new IllegalArgumentException(NAME + ": trailing ','");
        }
      }
    }
    return out;
  }

  private static int skip(String s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  /**
   * Returns the lines {@code collect} prints: what this release cost a privacy unit, what is spent
   * and what is left, and the cap, e.g. "this release cost epsilon 1/30 per privacy unit; spent
   * 3/10 (worst window), remaining 7/10 of the cap: epsilon 1 per client over any 30-day window"
   * (the total variation, if any, as a power of two rounded up).
   */
  public String describe() {
    StringBuilder b = new StringBuilder();
    b.append("this release cost ").append(measure).append(' ').append(cost)
        .append(" per privacy unit; spent ").append(spent);
    remaining.ifPresentOrElse(r -> b.append(", remaining ").append(r),
        () -> b.append(" (no cap)"));
    cap.ifPresent(c -> b.append(" of the cap: ").append(c));
    if (totalVariation.signum() != 0) {
      b.append("; the fixed-work draws of the spent releases add total variation ")
          .append(org.priodp.vdaf.dp.StatedGuarantee.powerOfTwo(totalVariation));
    }
    return b.toString();
  }
}
