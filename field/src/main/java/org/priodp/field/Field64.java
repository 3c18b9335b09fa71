package org.priodp.field;

import java.math.BigInteger;
import org.priodp.field.internal.ConstantTime;
import org.priodp.field.internal.LongBytes;

/**
 * The Prio3 field Field64, p = 2^64 - 2^32 + 1 (VDAF draft-20, table of FFT-friendly fields).
 *
 * <p>An element is one {@code long} holding its canonical value in [0, p) as an unsigned
 * number. Multiplication reduces the 128-bit product with the special form of p: 2^64 = 2^32 - 1
 * and 2^96 = -1 (mod p).
 */
public final class Field64 implements PrimeField {

  /** The modulus p = 2^64 - 2^32 + 1 as an unsigned {@code long}. */
  public static final long MODULUS = 0xFFFFFFFF00000001L;

  /** The generator of the subgroup of order 2^32 (VDAF draft-20). */
  public static final long GENERATOR = 0x185629dcda58878cL;

  /** log2 of the order of {@link #GENERATOR}. */
  public static final int TWO_ADICITY = 32;

  /** The single instance. */
  public static final Field64 FIELD = new Field64();

  private static final long EPSILON = 0xFFFFFFFFL; // 2^64 mod p = 2^32 - 1
  private static final BigInteger P = new BigInteger(Long.toUnsignedString(MODULUS));
  private static final long HALF = (MODULUS - 1) >>> 1; // (p-1)/2

  private Field64() {}

  // ---------------------------------------------------------------- scalar arithmetic

  /** Returns a + b mod p for canonical a, b. */
  public static long add(long a, long b) {
    long s = a + b;
    if (Long.compareUnsigned(s, a) < 0) {
      return s + EPSILON; // a + b - 2^64 + (2^32 - 1) = a + b - p, no overflow
    }
    return Long.compareUnsigned(s, MODULUS) >= 0 ? s - MODULUS : s;
  }

  /**
   * Returns a + b mod p for canonical a, b, like {@link #add}, without branches: the reduction
   * is selected with a mask from the carry and an arithmetic comparison with p.
   */
  public static long addConstantTime(long a, long b) {
    long s = a + b;
    long overflow = ConstantTime.carry(a, b, s);
    long atLeastP = 1 ^ ConstantTime.lessThan(s, MODULUS);
    // s - p modulo 2^64 is s + (2^32 - 1); on overflow it is a + b - p as well
    return ConstantTime.select(overflow | atLeastP, s + EPSILON, s);
  }

  /** Returns a - b mod p for canonical a, b. */
  public static long sub(long a, long b) {
    long d = a - b;
    if (Long.compareUnsigned(a, b) < 0) {
      return d - EPSILON; // a - b + 2^64 - (2^32 - 1) = a - b + p
    }
    return d;
  }

  /**
   * Returns {@link #sub}(a, b) without a branch: on a borrow, a - b + 2^64 becomes a - b + p by
   * subtracting 2^64 - p = 2^32 - 1, selected with a mask.
   */
  private static long subBranchFree(long a, long b) {
    return (a - b) - (EPSILON & -ConstantTime.lessThan(a, b));
  }

  /** Returns -a mod p for canonical a. */
  public static long neg(long a) {
    return a == 0 ? 0 : MODULUS - a;
  }

  /** Returns a * b mod p for canonical a, b. */
  public static long mul(long a, long b) {
    return reduce(a * b, LongBytes.unsignedMultiplyHigh(a, b));
  }

  /**
   * Reduces the unsigned 128-bit value hi*2^64 + lo modulo p, using 2^64 = 2^32 - 1 and
   * 2^96 = -1 (mod p).
   */
  static long reduce(long lo, long hi) {
    long hiHi = hi >>> 32;
    long hiLo = hi & 0xFFFFFFFFL;
    long t0 = lo - hiHi;
    if (Long.compareUnsigned(lo, hiHi) < 0) {
      t0 -= EPSILON; // borrow: add p
    }
    long t1 = hiLo * EPSILON; // < 2^64
    long s = t0 + t1;
    if (Long.compareUnsigned(s, t0) < 0) {
      s += EPSILON;
    }
    return Long.compareUnsigned(s, MODULUS) >= 0 ? s - MODULUS : s;
  }

  /** Returns a^e mod p for an exponent read as an unsigned 64-bit integer. */
  public static long pow(long a, long e) {
    long result = 1;
    long base = a;
    while (e != 0) {
      if ((e & 1) != 0) {
        result = mul(result, base);
      }
      base = mul(base, base);
      e >>>= 1;
    }
    return result;
  }

  /**
   * Returns a^-1 mod p.
   *
   * @throws ArithmeticException if a is zero
   */
  public static long inv(long a) {
    if (a == 0) {
      throw new ArithmeticException("zero has no inverse in Field64");
    }
    return pow(a, MODULUS - 2);
  }

  /** Returns the projection of a signed integer: z when z >= 0, else p - |z|. */
  public static long fromSigned(long z) {
    return z >= 0 ? z : MODULUS + z; // |z| <= 2^63 < p, wraps correctly for Long.MIN_VALUE
  }

  /**
   * Returns {@link #fromSigned}(z) without a branch on the sign: z + (p AND the sign mask), so
   * z >= 0 gives z and z < 0 gives p + z = p - |z| (also for Long.MIN_VALUE).
   */
  public static long fromSignedConstantTime(long z) {
    return z + (MODULUS & (z >> 63));
  }

  /** Returns the signed lift of a canonical element: v if v <= (p-1)/2, else v - p. */
  public static long toSigned(long v) {
    return Long.compareUnsigned(v, HALF) <= 0 ? v : v - MODULUS;
  }

  /**
   * Returns v as an element.
   *
   * @throws IllegalArgumentException if v is not in [0, p)
   */
  public static long fromBigInteger(BigInteger v) {
    if (v.signum() < 0 || v.compareTo(P) >= 0) {
      throw new IllegalArgumentException("value " + v + " is not in [0, p) for Field64");
    }
    return v.longValue();
  }

  /** Returns the canonical element as a non-negative BigInteger. */
  public static BigInteger toBigInteger(long v) {
    return new BigInteger(Long.toUnsignedString(v));
  }

  /** Returns true if the unsigned value is in [0, p). */
  public static boolean isCanonical(long v) {
    return Long.compareUnsigned(v, MODULUS) < 0;
  }

  // ---------------------------------------------------------------- PrimeField

  @Override
  public String name() {
    return "Field64";
  }

  @Override
  public BigInteger modulus() {
    return P;
  }

  @Override
  public int encodedSize() {
    return 8;
  }

  @Override
  public int words() {
    return 1;
  }

  @Override
  public BigInteger generator() {
    return toBigInteger(GENERATOR);
  }

  @Override
  public int twoAdicity() {
    return TWO_ADICITY;
  }

  @Override
  public void add(long[] a, int ai, long[] b, int bi, long[] out, int oi) {
    out[oi] = add(a[ai], b[bi]);
  }

  @Override
  public void sub(long[] a, int ai, long[] b, int bi, long[] out, int oi) {
    out[oi] = sub(a[ai], b[bi]);
  }

  @Override
  public void mul(long[] a, int ai, long[] b, int bi, long[] out, int oi) {
    out[oi] = mul(a[ai], b[bi]);
  }

  @Override
  public void neg(long[] a, int ai, long[] out, int oi) {
    out[oi] = neg(a[ai]);
  }

  @Override
  public void inv(long[] a, int ai, long[] out, int oi) {
    out[oi] = inv(a[ai]);
  }

  @Override
  public void pow(long[] a, int ai, BigInteger e, long[] out, int oi) {
    if (e.signum() < 0) {
      throw new IllegalArgumentException("exponent must be >= 0, got " + e);
    }
    long base = a[ai];
    if (e.bitLength() <= 64) {
      out[oi] = pow(base, e.longValue());
    } else {
      // Fermat: a^e = a^(e mod (p-1)) for a != 0; and 0^e = 0 for e > 0.
      out[oi] = base == 0 ? 0 : pow(base, e.mod(P.subtract(BigInteger.ONE)).longValue());
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The loop uses the branch-free {@link #addConstantTime}, which the JIT compiles to SIMD
   * instructions (several times the branching form's throughput on vectors; for single
   * elements the branching {@link #add} is faster).
   */
  @Override
  public void addVec(long[] a, long[] b, long[] out, int n) {
    for (int i = 0; i < n; i++) {
      out[i] = addConstantTime(a[i], b[i]);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The loop uses a branch-free subtraction, which the JIT compiles to SIMD instructions.
   */
  @Override
  public void subVec(long[] a, long[] b, long[] out, int n) {
    for (int i = 0; i < n; i++) {
      out[i] = subBranchFree(a[i], b[i]);
    }
  }

  @Override
  public void mulVec(long[] a, long[] b, long[] out, int n) {
    for (int i = 0; i < n; i++) {
      out[i] = mul(a[i], b[i]);
    }
  }

  @Override
  public void scalarMulVec(long[] s, int si, long[] a, long[] out, int n) {
    long c = s[si];
    for (int i = 0; i < n; i++) {
      out[i] = mul(c, a[i]);
    }
  }

  @Override
  public BigInteger get(long[] w, int i) {
    return toBigInteger(w[i]);
  }

  @Override
  public void set(long[] w, int i, BigInteger v) {
    w[i] = fromBigInteger(v);
  }

  @Override
  public boolean isZero(long[] w, int i) {
    return w[i] == 0;
  }

  @Override
  public boolean equal(long[] a, int ai, long[] b, int bi) {
    return a[ai] == b[bi];
  }

  @Override
  public void setSigned(long[] w, int i, long z) {
    w[i] = fromSigned(z);
  }

  @Override
  public void setSignedConstantTime(long[] w, int i, long z) {
    w[i] = fromSignedConstantTime(z);
  }

  @Override
  public void addVecConstantTime(long[] a, long[] b, long[] out, int n) {
    for (int i = 0; i < n; i++) {
      out[i] = addConstantTime(a[i], b[i]);
    }
  }

  @Override
  public void setSigned(long[] w, int i, BigInteger z) {
    if (z.abs().compareTo(P) >= 0) {
      throw new IllegalArgumentException("|" + z + "| >= p: cannot project into Field64 without wrapping");
    }
    w[i] = z.signum() >= 0 ? z.longValue() : z.add(P).longValue();
  }

  @Override
  public BigInteger getSigned(long[] w, int i) {
    return BigInteger.valueOf(toSigned(w[i]));
  }

  @Override
  public void encode(long[] w, int n, byte[] out, int off) {
    for (int i = 0; i < n; i++) {
      LongBytes.putLE(out, off + 8 * i, w[i]);
    }
  }

  @Override
  public long[] decode(byte[] in, int off, int len, int expectedCount) {
    if (expectedCount < 0 || len != 8L * expectedCount) {
      throw new DecodeException(
          "Field64 vector of " + expectedCount + " elements needs " + (8L * expectedCount)
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
    if (len % 8 != 0) {
      throw new DecodeException(
          "Field64 encoding must be a multiple of 8 bytes, got " + len);
    }
    int n = len / 8;
    long[] w = new long[n];
    boolean allCanonical = true;
    for (int i = 0; i < n; i++) {
      long v = LongBytes.getLE(in, off + 8 * i);
      w[i] = v;
      allCanonical &= Long.compareUnsigned(v, MODULUS) < 0;
    }
    if (!allCanonical) {
      for (int i = 0; i < n; i++) {
        if (!isCanonical(w[i])) {
          throw new DecodeException(
              "Field64 element " + i + " is not canonical: " + Long.toUnsignedString(w[i])
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
