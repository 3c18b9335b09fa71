package org.priodp.noise;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.priodp.noise.internal.FixedPointExp;

/** Exact probability mass functions, evaluated to about 50 digits with integer arithmetic. */
final class ExactPmf {
  static final MathContext MC = new MathContext(60);
  private static final int BITS = 200;

  private ExactPmf() {}

  /** exp(-r) for a rational r >= 0, within 2^-197. */
  static BigDecimal expNeg(Rational r) {
    BigInteger e = FixedPointExp.expNeg(r.numerator(), r.denominator(), BITS);
    return new BigDecimal(e).divide(new BigDecimal(BigInteger.ONE.shiftLeft(BITS)), MC);
  }

  /** P[Z = z] = (1 - r)/(1 + r) r^|z| for the discrete Laplace with scale t, r = e^(-1/t). */
  static BigDecimal laplace(Rational scale, long z) {
    BigDecimal r = expNeg(Rational.ONE.divide(scale));
    BigDecimal c = BigDecimal.ONE.subtract(r).divide(BigDecimal.ONE.add(r), MC);
    return c.multiply(expNeg(Rational.of(Math.abs(z)).divide(scale)), MC);
  }

  /** P[Z = z] for the discrete Gaussian with variance parameter sigma^2. */
  static BigDecimal gaussian(Rational sigma2, long z) {
    long range = 60 + 60 * (sigma2.ceil().sqrt().longValueExact() + 1);
    BigDecimal norm = BigDecimal.ZERO;
    for (long y = -range; y <= range; y++) {
      norm = norm.add(gaussianWeight(sigma2, y), MC);
    }
    return gaussianWeight(sigma2, z).divide(norm, MC);
  }

  private static BigDecimal gaussianWeight(Rational sigma2, long y) {
    return expNeg(Rational.of(y * y).divide(sigma2.multiply(Rational.of(2))));
  }
}
