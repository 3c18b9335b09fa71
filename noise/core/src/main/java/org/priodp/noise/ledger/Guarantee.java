package org.priodp.noise.ledger;

import java.util.Objects;
import java.util.Optional;
import org.priodp.noise.Rational;

/**
 * The stated guarantee of a composition of releases for one privacy unit (issue 25, items 1 and
 * 3): the composed pure-DP epsilon or zCDP rho, the total variation to the exact mechanisms, and
 * an (epsilon, delta)-DP statement whose epsilon and delta are exact rational upper bounds.
 *
 * @param kind the composed guarantee's kind
 * @param parameter the composed epsilon (pure DP) or rho (zCDP)
 * @param totalVariation the summed total variation of the releases
 * @param epsilon an upper bound of the (epsilon, delta) statement's epsilon
 * @param delta an upper bound of its delta (at most 1)
 * @param deltaPrime the delta' named for the zCDP conversion, empty for pure DP
 */
public record Guarantee(
    Kind kind, Rational parameter, Rational totalVariation, Rational epsilon, Rational delta,
    Optional<Rational> deltaPrime) {

  /** The guarantee's kind. */
  public enum Kind {
    /** Pure epsilon-DP. */
    PURE_DP,
    /** rho-zCDP. */
    ZCDP
  }

  /** Validates that the parts are present. */
  public Guarantee {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(parameter, "parameter");
    Objects.requireNonNull(totalVariation, "totalVariation");
    Objects.requireNonNull(epsilon, "epsilon");
    Objects.requireNonNull(delta, "delta");
    Objects.requireNonNull(deltaPrime, "deltaPrime");
  }

  /**
   * Returns the pure-DP statement: (E, (1 + e^E) T)-DP. The composed mechanism with fixed-work
   * noise is within total variation T of the exact one (hybrid argument over the releases), which
   * is E-DP; so for any event S, P[M'(x) in S] <= P[M(x) in S] + T <= e^E P[M(x') in S] + T <=
   * e^E P[M'(x') in S] + (1 + e^E) T.
   */
  static Guarantee pureDp(Rational e, Rational t) {
    return new Guarantee(Kind.PURE_DP, e, t, e, deltaFor(e, t, Rational.ZERO), Optional.empty());
  }

  /**
   * Returns the zCDP statement: R-zCDP up to total variation T, so (epsilon, delta' + (1 +
   * e^epsilon) T)-DP with epsilon = R + 2 sqrt(R ln(1/delta')) (Bun and Steinke 2016,
   * Proposition 1.3), by the same hybrid argument.
   */
  static Guarantee zCdp(Rational r, Rational t, Rational deltaPrime) {
    if (deltaPrime.signum() <= 0 || deltaPrime.compareTo(Rational.ONE) >= 0) {
      throw new IllegalArgumentException("delta' must be in (0, 1), got " + deltaPrime);
    }
    Rational log = UpperBounds.ln(Rational.ONE.divide(deltaPrime));
    Rational eps = r.add(Rational.of(2).multiply(UpperBounds.sqrt(r.multiply(log))));
    return new Guarantee(Kind.ZCDP, r, t, eps, deltaFor(eps, t, deltaPrime), Optional.of(deltaPrime));
  }

  /** Returns min(1, base + (1 + e^eps) t), rounded up. */
  private static Rational deltaFor(Rational eps, Rational t, Rational base) {
    if (t.signum() == 0) {
      return base;
    }
    if (eps.compareTo(UpperBounds.EXP_LIMIT) > 0) {
      return Rational.ONE;
    }
    Rational d = base.add(Rational.ONE.add(UpperBounds.exp(eps)).multiply(t));
    return d.compareTo(Rational.ONE) > 0 ? Rational.ONE : d;
  }

  /**
   * Returns the statement for people, e.g. "(epsilon at most 1, delta at most 3.3e-19)-DP" or
   * "epsilon 1 (pure DP)"; numbers are rounded up to 6 significant digits.
   */
  public String describe() {
    if (kind == Kind.PURE_DP && totalVariation.signum() == 0) {
      return "epsilon " + parameter + " (pure DP)";
    }
    String head = kind == Kind.ZCDP ? "rho " + parameter + " (zCDP), so " : "";
    return head + "(epsilon at most " + display(epsilon) + ", delta at most " + display(delta) + ")-DP";
  }

  /** Returns r rounded up to 6 significant digits, as plain or scientific text. */
  static String display(Rational r) {
    if (r.signum() == 0) {
      return "0";
    }
    java.math.BigDecimal v = new java.math.BigDecimal(r.numerator()).divide(
        new java.math.BigDecimal(r.denominator()), new java.math.MathContext(6, java.math.RoundingMode.CEILING));
    v = v.stripTrailingZeros();
    return v.abs().compareTo(java.math.BigDecimal.valueOf(1, 3)) >= 0 ? v.toPlainString() : v.toString().replace('E', 'e');
  }

}
