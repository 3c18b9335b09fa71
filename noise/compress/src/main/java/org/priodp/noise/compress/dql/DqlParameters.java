package org.priodp.noise.compress.dql;

import java.math.BigDecimal;
import java.math.MathContext;
import org.priodp.noise.Rational;

/**
 * The two parameters of the dyadic quantized Laplace mechanism (the DQL paper, Sec. 5): the
 * database privacy parameter {@code epsilon > 0} (the decoded value is the input plus
 * Laplace(1/epsilon) noise) and the decoder privacy relaxation {@code ell > 1} (the decoder
 * gets ell * epsilon * d-privacy, Theorem 7).
 *
 * @param epsilon database epsilon, finite and > 0
 * @param ell decoder relaxation, finite and > 1
 */
public record DqlParameters(double epsilon, double ell) {

  /** Validates the parameters. */
  public DqlParameters {
    if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be a finite number > 0, got " + epsilon);
    }
    if (!(ell > 1) || Double.isInfinite(ell)) {
      throw new IllegalArgumentException("ell must be a finite number > 1, got " + ell);
    }
  }

  /** Returns validated parameters (same as the constructor). */
  public static DqlParameters of(double epsilon, double ell) {
    return new DqlParameters(epsilon, ell);
  }

  /**
   * Parses epsilon and ell given as decimals or fractions ("0.5", "1/2"), exactly first (so
   * malformed, zero or negative input is rejected with the option's name), then rounded to the
   * nearest double.
   *
   * @throws IllegalArgumentException if epsilon <= 0, ell <= 1 or either is malformed
   */
  public static DqlParameters parse(String epsilon, String ell) {
    Rational e = Rational.parsePositive("--epsilon", epsilon);
    Rational l = Rational.parsePositive("--ell", ell);
    if (l.compareTo(Rational.ONE) <= 0) {
      throw new IllegalArgumentException("--ell must be > 1, got " + ell.strip());
    }
    return new DqlParameters(toDouble(e), toDouble(l));
  }

  private static double toDouble(Rational r) {
    return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), MathContext.DECIMAL128).doubleValue();
  }
}
