package org.priodp.noise.ledger;

import java.math.BigInteger;
import java.util.Objects;
import org.priodp.noise.Rational;

/**
 * Converts an (epsilon, delta)-DP target into the rho of a zCDP mechanism that meets it
 * (draft-ietf-ppm-dap-attribution-00, section 3.2: epsilon with a fixed delta; Bun and Steinke
 * 2016, Proposition 1.3: rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), delta)-DP), exactly and
 * conservatively: the returned rho is a rational LOWER bound of the largest rho with rho + 2
 * sqrt(rho L) = epsilon, L = ln(1/delta), which is (sqrt(L + epsilon) - sqrt(L))^2 = epsilon^2 /
 * (sqrt(L + epsilon) + sqrt(L))^2. A smaller rho means more noise, so the mechanism meets the
 * target. Stateless.
 */
public final class ZCdpConversion {
  /** Significant bits kept of rho, rounded down (relative error below 2^-60 from the rounding). */
  static final int BITS = 64;

  private ZCdpConversion() {}

  /**
   * Returns a rational lower bound of the rho at which rho-zCDP implies (epsilon, delta)-DP:
   * epsilon^2 / (U(L + epsilon) + U(L))^2 with L bounded above by {@link UpperBounds#ln} and the
   * square roots bounded above by {@link UpperBounds#sqrt} (each within about 2^-200 relative of
   * the true value), then rounded down to {@value #BITS} significant bits. The result is below
   * the true value and within 2^-58 relative of it.
   *
   * @throws IllegalArgumentException unless epsilon > 0 and 0 < delta < 1
   */
  public static Rational rhoFor(Rational epsilon, Rational delta) {
    Objects.requireNonNull(epsilon, "epsilon");
    Objects.requireNonNull(delta, "delta");
    if (epsilon.signum() <= 0) {
      throw new IllegalArgumentException("epsilon must be > 0, got " + epsilon);
    }
    if (delta.signum() <= 0 || delta.compareTo(Rational.ONE) >= 0) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
    Rational l = UpperBounds.ln(Rational.ONE.divide(delta)); // >= ln(1/delta)
    Rational denominator = UpperBounds.sqrt(l.add(epsilon)).add(UpperBounds.sqrt(l));
    Rational rho = epsilon.square().divide(denominator.square());
    return roundedDown(rho);
  }

  /** Returns x > 0 rounded down to {@value #BITS} significant bits (a dyadic rational). */
  static Rational roundedDown(Rational x) {
    // shift so that floor(x 2^shift) has about BITS bits
    int shift = BITS - (x.numerator().bitLength() - x.denominator().bitLength());
    BigInteger units = shift >= 0
        ? x.numerator().shiftLeft(shift).divide(x.denominator())
        : x.numerator().divide(x.denominator().shiftLeft(-shift));
    return shift >= 0 ? Rational.of(units, BigInteger.ONE.shiftLeft(shift))
        : Rational.of(units.shiftLeft(-shift));
  }
}
