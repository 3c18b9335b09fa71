package org.priodp.field;

import java.math.BigInteger;
import org.priodp.field.internal.ConstantTime;
import org.priodp.field.internal.LongBytes;

/**
 * The Prio3 field Field128, p = 2^128 - 7*2^66 + 1 (VDAF draft-20, table of FFT-friendly
 * fields).
 *
 * <p>An element occupies two {@code long}s in flat storage, low word first, holding its
 * canonical value in [0, p). Multiplication reduces the 256-bit product with the special form of
 * p = 2^128 - 28*2^64 + 1 in 32-bit columns (see {@link #reduce256}).
 */
public final class Field128 implements PrimeField {

  /** Low word of the modulus. */
  public static final long MODULUS_LO = 1L;

  /** High word of the modulus: 2^64 - 28. */
  public static final long MODULUS_HI = 0xFFFFFFFFFFFFFFE4L;

  /** log2 of the order of the subgroup generator (VDAF draft-20). */
  public static final int TWO_ADICITY = 66;

  /** The single instance. */
  public static final Field128 FIELD = new Field128();

  private static final BigInteger P =
      new BigInteger("ffffffffffffffe40000000000000001", 16);
  private static final BigInteger G = new BigInteger("6d278fbf4f60228b1f9b2759c5109f06", 16);
  private static final BigInteger HALF = P.shiftRight(1); // (p-1)/2
  private static final long HALF_LO = HALF.longValue();
  private static final long HALF_HI = HALF.shiftRight(64).longValue();
  private static final BigInteger P_MINUS_2 = P.subtract(BigInteger.TWO);
  private static final long LOW32 = 0xFFFFFFFFL;

  private Field128() {}

  // ---------------------------------------------------------------- word-level helpers

  private static boolean geP(long lo, long hi) {
    int c = Long.compareUnsigned(hi, MODULUS_HI);
    return c > 0 || (c == 0 && lo != 0); // MODULUS_LO == 1, so lo >= 1
  }

  /** Returns true if the unsigned 128-bit value hi*2^64 + lo is in [0, p). */
  public static boolean isCanonical(long lo, long hi) {
    return !geP(lo, hi);
  }

  // ---------------------------------------------------------------- flat-storage arithmetic

  private static void addTo(long aLo, long aHi, long bLo, long bHi, long[] out, int o) {
    long lo = aLo + bLo;
    long carry = Long.compareUnsigned(lo, aLo) < 0 ? 1 : 0;
    long hi1 = aHi + bHi;
    long carryOut = Long.compareUnsigned(hi1, aHi) < 0 ? 1 : 0;
    long hi = hi1 + carry;
    if (hi == 0 && carry == 1) {
      carryOut = 1;
    }
    if (carryOut != 0 || geP(lo, hi)) {
      // subtract p modulo 2^128
      long nlo = lo - MODULUS_LO;
      long borrow = Long.compareUnsigned(lo, MODULUS_LO) < 0 ? 1 : 0;
      hi = hi - MODULUS_HI - borrow;
      lo = nlo;
    }
    out[o] = lo;
    out[o + 1] = hi;
  }

  /**
   * {@link #addTo} without branches: the 129-bit sum is reduced by p, selected with a mask, when
   * it carries out of 128 bits or is at least p.
   */
  private static void addToConstantTime(long aLo, long aHi, long bLo, long bHi, long[] out, int o) {
    long lo = aLo + bLo;
    long c0 = ConstantTime.carry(aLo, bLo, lo);
    long hi1 = aHi + bHi;
    long carryOut = ConstantTime.carry(aHi, bHi, hi1);
    long hi = hi1 + c0;
    carryOut |= ConstantTime.carry(hi1, c0, hi);
    long reduce = carryOut | (1 ^ ConstantTime.lessThan(hi, lo, MODULUS_HI, MODULUS_LO));
    // (hi, lo) - p modulo 2^128
    long nlo = lo - MODULUS_LO;
    long nhi = hi - MODULUS_HI - ConstantTime.lessThan(lo, MODULUS_LO);
    out[o] = ConstantTime.select(reduce, nlo, lo);
    out[o + 1] = ConstantTime.select(reduce, nhi, hi);
  }

  /**
   * Writes the projection of z (z when z >= 0, else p - |z|) to {@code out[o], out[o+1]}
   * without a branch on the sign: the 128-bit two's complement of z plus (p AND the sign mask).
   */
  public static void fromSignedConstantTime(long z, long[] out, int o) {
    long mask = z >> 63; // all ones for z < 0
    long addLo = mask & MODULUS_LO;
    long lo = z + addLo;
    long carry = ConstantTime.carry(z, addLo, lo);
    out[o] = lo;
    out[o + 1] = mask + (mask & MODULUS_HI) + carry;
  }

  private static void subTo(long aLo, long aHi, long bLo, long bHi, long[] out, int o) {
    long lo = aLo - bLo;
    long borrow = Long.compareUnsigned(aLo, bLo) < 0 ? 1 : 0;
    long hi = aHi - bHi - borrow;
    boolean negative =
        Long.compareUnsigned(aHi, bHi) < 0 || (aHi == bHi && borrow == 1);
    if (negative) {
      // add p modulo 2^128
      long nlo = lo + MODULUS_LO;
      long carry = Long.compareUnsigned(nlo, lo) < 0 ? 1 : 0;
      hi = hi + MODULUS_HI + carry;
      lo = nlo;
    }
    out[o] = lo;
    out[o + 1] = hi;
  }

  /**
   * Multiplies two canonical elements and writes the canonical product to {@code out[o],
   * out[o+1]} (VDAF draft-20, section "Finite Field Arithmetic"): the 256-bit schoolbook
   * product, then {@link #reduce256}. Kept under the JIT's inlining limit (325 bytecodes) so
   * that vector loops compile to straight-line code.
   */
  static void mulTo(long a0, long a1, long b0, long b1, long[] out, int o) {
    long l00 = a0 * b0;
    long h00 = LongBytes.unsignedMultiplyHigh(a0, b0);
    long l01 = a0 * b1;
    long h01 = LongBytes.unsignedMultiplyHigh(a0, b1);
    long l10 = a1 * b0;
    long h10 = LongBytes.unsignedMultiplyHigh(a1, b0);
    long l11 = a1 * b1;
    long h11 = LongBytes.unsignedMultiplyHigh(a1, b1);

    // w1 = h00 + l01 + l10, carrying c (0..2) into w2.
    long t = h00 + l01;
    long c = carry(h00, t);
    long w1 = t + l10;
    c += carry(t, w1);
    // w2 = h01 + c + h10 + l11, carrying c2 into w3. b1 <= 2^64 - 28 makes
    // h01 = hi(a0 * b1) <= 2^64 - 29, so h01 + c does not overflow.
    long u = h01 + c;
    long v = u + h10;
    long c2 = carry(u, v);
    long w2 = v + l11;
    c2 += carry(v, w2);
    reduce256(l00, w1, w2, h11 + c2, out, o); // the product is < 2^256: h11 + c2 fits
  }

  /** Returns 1 if the unsigned sum {@code s = x + y} carried out of 64 bits, else 0. */
  private static long carry(long x, long s) {
    return Long.compareUnsigned(s, x) < 0 ? 1 : 0;
  }

  /**
   * Reduces w3*2^192 + w2*2^128 + w1*2^64 + w0 modulo p, in 32-bit columns t0..t7 (radix
   * Y = 2^32) where p = Y^4 - 28 Y^2 + 1, so Y^4 = 28 Y^2 - 1, Y^5 = 28 Y^3 - Y,
   * Y^6 = 783 Y^2 - 28 and Y^7 = 783 Y^3 - 28 Y (mod p):
   *
   * <pre>
   * T = (t0 - t4 - 28 t6) + Y (t1 - t5 - 28 t7) + Y^2 (t2 + 28 t4 + 783 t6)
   *     + Y^3 (t3 + 28 t5 + 783 t7)   (mod p).
   * </pre>
   *
   * Each column fits a signed {@code long} with room to spare; adding 32p, written with every
   * column positive as [2^38 + 32, 2^38 - 64, 2^38 - 960, 2^37 - 64], keeps them non-negative,
   * so the carries are plain shifts (no unsigned comparisons). What is left above 2^128 (less
   * than 2^11) is folded with 2^128 = 28 * 2^64 - 1, and one conditional subtraction of p makes
   * the result canonical; those last branches are taken with probability about 2^-48 or less
   * for uniform inputs, so they are predicted.
   */
  private static void reduce256(long w0, long w1, long w2, long w3, long[] out, int o) {
    long t4 = w2 & LOW32;
    long t5 = w2 >>> 32;
    long t6 = w3 & LOW32;
    long t7 = w3 >>> 32;
    long c0 = (w0 & LOW32) - t4 - 28 * t6 + ((1L << 38) + 32);
    long c1 = (w0 >>> 32) - t5 - 28 * t7 + ((1L << 38) - 64);
    long c2 = (w1 & LOW32) + 28 * t4 + 783 * t6 + ((1L << 38) - 960);
    long c3 = (w1 >>> 32) + 28 * t5 + 783 * t7 + ((1L << 37) - 64);
    c1 += c0 >>> 32;
    c2 += c1 >>> 32;
    c3 += c2 >>> 32;
    long top = c3 >>> 32; // < 2^11
    long lo = (c0 & LOW32) | (c1 << 32);
    long hi = (c2 & LOW32) | (c3 << 32);
    // lo + hi 2^64 + top 2^128 = (lo - top) + 2^64 (hi + 28 top)  (mod p)
    long r0 = lo - top;
    long r1 = hi + 28 * top - (Long.compareUnsigned(lo, top) < 0 ? 1 : 0);
    if (Long.compareUnsigned(r1, hi) < 0) {
      // past 2^128 (then r1 is small): add 2^128 = 28 * 2^64 - 1
      r1 += 28 - (r0 == 0 ? 1 : 0);
      r0 -= 1;
    }
    if (geP(r0, r1)) {
      r1 = r1 - MODULUS_HI - (r0 == 0 ? 1 : 0); // MODULUS_LO == 1
      r0 -= 1;
    }
    out[o] = r0;
    out[o + 1] = r1;
  }

  // ---------------------------------------------------------------- PrimeField

  @Override
  public String name() {
    return "Field128";
  }

  @Override
  public BigInteger modulus() {
    return P;
  }

  @Override
  public int encodedSize() {
    return 16;
  }

  @Override
  public int words() {
    return 2;
  }

  @Override
  public BigInteger generator() {
    return G;
  }

  @Override
  public int twoAdicity() {
    return TWO_ADICITY;
  }

  @Override
  public void add(long[] a, int ai, long[] b, int bi, long[] out, int oi) {
    addTo(a[2 * ai], a[2 * ai + 1], b[2 * bi], b[2 * bi + 1], out, 2 * oi);
  }

  @Override
  public void sub(long[] a, int ai, long[] b, int bi, long[] out, int oi) {
    subTo(a[2 * ai], a[2 * ai + 1], b[2 * bi], b[2 * bi + 1], out, 2 * oi);
  }

  @Override
  public void mul(long[] a, int ai, long[] b, int bi, long[] out, int oi) {
    mulTo(a[2 * ai], a[2 * ai + 1], b[2 * bi], b[2 * bi + 1], out, 2 * oi);
  }

  @Override
  public void neg(long[] a, int ai, long[] out, int oi) {
    subTo(0, 0, a[2 * ai], a[2 * ai + 1], out, 2 * oi);
  }

  @Override
  public void inv(long[] a, int ai, long[] out, int oi) {
    if (isZero(a, ai)) {
      throw new ArithmeticException("zero has no inverse in Field128");
    }
    pow(a, ai, P_MINUS_2, out, oi);
  }

  @Override
  public void pow(long[] a, int ai, BigInteger e, long[] out, int oi) {
    if (e.signum() < 0) {
      throw new IllegalArgumentException("exponent must be >= 0, got " + e);
    }
    long b0 = a[2 * ai];
    long b1 = a[2 * ai + 1];
    if (e.bitLength() > 128) {
      if (b0 == 0 && b1 == 0) {
        out[2 * oi] = 0;
        out[2 * oi + 1] = 0;
        return;
      }
      e = e.mod(P.subtract(BigInteger.ONE)); // Fermat
    }
    long[] acc = {1, 0};
    long[] base = {b0, b1};
    for (int bit = 0, n = e.bitLength(); bit < n; bit++) {
      if (e.testBit(bit)) {
        mulTo(acc[0], acc[1], base[0], base[1], acc, 0);
      }
      if (bit + 1 < n) {
        mulTo(base[0], base[1], base[0], base[1], base, 0);
      }
    }
    out[2 * oi] = acc[0];
    out[2 * oi + 1] = acc[1];
  }

  @Override
  public void addVec(long[] a, long[] b, long[] out, int n) {
    for (int i = 0; i < 2 * n; i += 2) {
      addTo(a[i], a[i + 1], b[i], b[i + 1], out, i);
    }
  }

  @Override
  public void subVec(long[] a, long[] b, long[] out, int n) {
    for (int i = 0; i < 2 * n; i += 2) {
      subTo(a[i], a[i + 1], b[i], b[i + 1], out, i);
    }
  }

  @Override
  public void mulVec(long[] a, long[] b, long[] out, int n) {
    for (int i = 0; i < 2 * n; i += 2) {
      mulTo(a[i], a[i + 1], b[i], b[i + 1], out, i);
    }
  }

  @Override
  public void scalarMulVec(long[] s, int si, long[] a, long[] out, int n) {
    long c0 = s[2 * si];
    long c1 = s[2 * si + 1];
    for (int i = 0; i < 2 * n; i += 2) {
      mulTo(c0, c1, a[i], a[i + 1], out, i);
    }
  }

  @Override
  public BigInteger get(long[] w, int i) {
    return toBigInteger(w[2 * i], w[2 * i + 1]);
  }

  /** Returns the unsigned 128-bit value hi*2^64 + lo as a BigInteger. */
  public static BigInteger toBigInteger(long lo, long hi) {
    byte[] be = new byte[17]; // leading zero byte keeps it non-negative
    for (int k = 0; k < 8; k++) {
      be[16 - k] = (byte) (lo >>> (8 * k));
      be[8 - k] = (byte) (hi >>> (8 * k));
    }
    return new BigInteger(be);
  }

  @Override
  public void set(long[] w, int i, BigInteger v) {
    if (v.signum() < 0 || v.compareTo(P) >= 0) {
      throw new IllegalArgumentException("value " + v + " is not in [0, p) for Field128");
    }
    w[2 * i] = v.longValue();
    w[2 * i + 1] = v.shiftRight(64).longValue();
  }

  @Override
  public boolean isZero(long[] w, int i) {
    return w[2 * i] == 0 && w[2 * i + 1] == 0;
  }

  @Override
  public boolean equal(long[] a, int ai, long[] b, int bi) {
    return a[2 * ai] == b[2 * bi] && a[2 * ai + 1] == b[2 * bi + 1];
  }

  @Override
  public void setSigned(long[] w, int i, long z) {
    if (z >= 0) {
      w[2 * i] = z;
      w[2 * i + 1] = 0;
    } else {
      // p - |z|; -z read as unsigned is |z| even for Long.MIN_VALUE
      subTo(0, 0, -z, 0, w, 2 * i);
    }
  }

  @Override
  public void setSignedConstantTime(long[] w, int i, long z) {
    fromSignedConstantTime(z, w, 2 * i);
  }

  @Override
  public void addVecConstantTime(long[] a, long[] b, long[] out, int n) {
    for (int i = 0; i < 2 * n; i += 2) {
      addToConstantTime(a[i], a[i + 1], b[i], b[i + 1], out, i);
    }
  }

  @Override
  public void setSigned(long[] w, int i, BigInteger z) {
    if (z.abs().compareTo(P) >= 0) {
      throw new IllegalArgumentException(
          "|" + z + "| >= p: cannot project into Field128 without wrapping");
    }
    set(w, i, z.signum() >= 0 ? z : z.add(P));
  }

  @Override
  public BigInteger getSigned(long[] w, int i) {
    long lo = w[2 * i];
    long hi = w[2 * i + 1];
    int c = Long.compareUnsigned(hi, HALF_HI);
    boolean nonNegative = c < 0 || (c == 0 && Long.compareUnsigned(lo, HALF_LO) <= 0);
    BigInteger v = toBigInteger(lo, hi);
    return nonNegative ? v : v.subtract(P);
  }

  @Override
  public void encode(long[] w, int n, byte[] out, int off) {
    for (int i = 0; i < 2 * n; i++) {
      LongBytes.putLE(out, off + 8 * i, w[i]);
    }
  }

  @Override
  public long[] decode(byte[] in, int off, int len, int expectedCount) {
    if (expectedCount < 0 || len != 16L * expectedCount) {
      throw new DecodeException(
          "Field128 vector of " + expectedCount + " elements needs " + (16L * expectedCount)
              + " bytes, got " + len);
    }
    return decodeAll(in, off, len);
  }

  @Override
  public long[] decodeAll(byte[] in, int off, int len) {
    if (len < 0 || off < 0 || off + len > in.length || off + len < 0) {
      throw new DecodeException(
          "byte range [" + off + ", " + off + "+" + len + ") is outside the input of " + in.length
              + " bytes");
    }
    if (len % 16 != 0) {
      throw new DecodeException("Field128 encoding must be a multiple of 16 bytes, got " + len);
    }
    int n = len / 16;
    long[] w = new long[2 * n];
    boolean allCanonical = true;
    for (int i = 0; i < 2 * n; i += 2) {
      long lo = LongBytes.getLE(in, off + 8 * i);
      long hi = LongBytes.getLE(in, off + 8 * i + 8);
      w[i] = lo;
      w[i + 1] = hi;
      allCanonical &= !geP(lo, hi);
    }
    if (!allCanonical) {
      for (int i = 0; i < n; i++) {
        if (geP(w[2 * i], w[2 * i + 1])) {
          throw new DecodeException(
              "Field128 element " + i + " is not canonical: " + toBigInteger(w[2 * i], w[2 * i + 1])
                  + " >= p");
        }
      }
    }
    return w;
  }

  @Override
  public String toString() {
    return name();
  }
}
