package org.priodp.noise.internal;

import java.math.BigInteger;

/**
 * Helpers for fixed-work (branch-free) sampling: unsigned comparisons and products computed with
 * arithmetic and masks, and the integer thresholds of the fixed-work local randomizers, chosen
 * so that their privacy ratio never exceeds the exact one.
 */
public final class FixedWork {
  private static final int PRECISION = 128;
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  private FixedWork() {}

  /** Returns 1 if x < y as unsigned 64-bit integers, else 0, without branches. */
  public static long lessThan(long x, long y) {
    return ((~x & y) | (~(x ^ y) & (x - y))) >>> 63;
  }

  /** The high 64 bits of the unsigned 128-bit product x y, without branches. */
  public static long unsignedMultiplyHigh(long x, long y) {
    return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
  }

  /**
   * Returns W = ceil(2^64 / (L + others)) as a BigInteger, where L = 2^128 / (E + 4) <= e^x is a
   * certified lower bound of e^x from {@link FixedPointExp} (E within 4 ulps of e^(-x) 2^128).
   * So W >= 2^64 / (e^x + others): a probability W / 2^64 is at least 1 / (e^x + others), and
   * (2^64 - others W) / W <= e^x.
   *
   * @param num numerator of x >= 0
   * @param den denominator of x >= 1
   * @param others the number of "other" outcomes, >= 1
   */
  public static BigInteger weightAtLeast(BigInteger num, BigInteger den, long others) {
    BigInteger e4 = FixedPointExp.expNeg(num, den, PRECISION).add(BigInteger.valueOf(FixedPointExp.ERROR_ULPS));
    // 2^64 / (2^128/(E+4) + others) = 2^64 (E+4) / (2^128 + others (E+4))
    BigInteger n = TWO_64.multiply(e4);
    BigInteger d = BigInteger.ONE.shiftLeft(PRECISION).add(BigInteger.valueOf(others).multiply(e4));
    BigInteger[] qr = n.divideAndRemainder(d);
    return qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
  }
}
