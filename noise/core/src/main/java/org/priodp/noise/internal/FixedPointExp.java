package org.priodp.noise.internal;

import java.math.BigInteger;

/**
 * exp(-x) for rational x >= 0 in binary fixed point, with a proven error bound, using integer
 * arithmetic only.
 *
 * <p>{@link #expNeg} returns an integer E with |E - exp(-x) 2^P| <= {@link #ERROR_ULPS} for
 * the requested precision P. Method: x = k + f with k = floor(x) and f in [0, 1); exp(-f) by
 * its Taylor series, exp(-1)^k by square-and-multiply, all at P + 64 working bits with floor
 * rounding (each step errs by less than one working ulp, and every factor is at most 1, so
 * absolute errors add). The sum of the working-precision errors stays far below 2^64 working
 * ulps, so after rounding to P bits the error is at most 2 ulps; {@link #ERROR_ULPS} states 4.
 */
public final class FixedPointExp {
  /** Proven bound on |E - exp(-x) 2^P|, in units of 2^-P. */
  public static final int ERROR_ULPS = 4;

  private static final int GUARD = 64;

  private FixedPointExp() {}

  /**
   * Returns E with |E - exp(-num/den) * 2^precision| <= {@link #ERROR_ULPS}.
   *
   * @param num numerator of x, >= 0
   * @param den denominator of x, >= 1
   * @param precision P, the number of fractional bits, 1..4096
   */
  public static BigInteger expNeg(BigInteger num, BigInteger den, int precision) {
    if (num.signum() < 0 || den.signum() <= 0) {
      throw new IllegalArgumentException("need x = num/den >= 0, got " + num + "/" + den);
    }
    if (precision < 1 || precision > 4096) {
      throw new IllegalArgumentException("precision must be in [1, 4096], got " + precision);
    }
    int w = precision + GUARD;
    BigInteger[] kf = num.divideAndRemainder(den);
    BigInteger k = kf[0];
    // exp(-x) < 2^-(precision + 2) once x > (precision + 2) ln 2; then 0 is within 1 ulp
    if (k.compareTo(BigInteger.valueOf(precision + 2)) > 0) {
      return BigInteger.ZERO;
    }
    BigInteger one = BigInteger.ONE.shiftLeft(w);
    BigInteger frac = taylorExpNeg(kf[1], den, w);
    BigInteger e1 = taylorExpNeg(BigInteger.ONE, BigInteger.ONE, w);
    BigInteger result = mul(frac, pow(e1, k.intValueExact(), one, w), w);
    // round the working value down to P bits (error < 1 ulp at P bits)
    return result.shiftRight(GUARD);
  }

  /** exp(-f) for f = n/d in [0, 1] at w fractional bits, via sum of (-f)^j / j!. */
  private static BigInteger taylorExpNeg(BigInteger n, BigInteger d, int w) {
    BigInteger term = BigInteger.ONE.shiftLeft(w);
    BigInteger sum = term;
    for (int j = 1; term.signum() != 0; j++) {
      term = term.multiply(n).divide(d.multiply(BigInteger.valueOf(j)));
      sum = (j & 1) == 1 ? sum.subtract(term) : sum.add(term);
    }
    return sum;
  }

  private static BigInteger mul(BigInteger a, BigInteger b, int w) {
    return a.multiply(b).shiftRight(w);
  }

  private static BigInteger pow(BigInteger base, int e, BigInteger one, int w) {
    BigInteger result = one;
    BigInteger b = base;
    while (e > 0) {
      if ((e & 1) == 1) {
        result = mul(result, b, w);
      }
      e >>= 1;
      if (e > 0) {
        b = mul(b, b, w);
      }
    }
    return result;
  }
}
