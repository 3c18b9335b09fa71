package org.priodp.field.internal;

/**
 * Word comparisons and carries computed with arithmetic and masks, for the branch-free
 * (constant-time) field operations: no data-dependent branch, no table lookup.
 */
public final class ConstantTime {
  private ConstantTime() {}

  /** Returns 1 if x < y as unsigned 64-bit integers, else 0. */
  public static long lessThan(long x, long y) {
    return ((~x & y) | (~(x ^ y) & (x - y))) >>> 63;
  }

  /** Returns 1 if the unsigned 128-bit (xHi, xLo) < (yHi, yLo), else 0. */
  public static long lessThan(long xHi, long xLo, long yHi, long yLo) {
    long diff = xHi ^ yHi;
    long equalHi = 1 ^ ((diff | -diff) >>> 63);
    return lessThan(xHi, yHi) | (equalHi & lessThan(xLo, yLo));
  }

  /** Returns the carry out (1 or 0) of the unsigned sum {@code s = x + y}. */
  public static long carry(long x, long y, long s) {
    return ((x & y) | ((x | y) & ~s)) >>> 63;
  }

  /** Returns x if {@code bit} is 1, y if it is 0. */
  public static long select(long bit, long x, long y) {
    long mask = -bit;
    return (x & mask) | (y & ~mask);
  }
}
