package org.priodp.field;

import java.math.BigInteger;

/**
 * A Prio3 prime field (VDAF draft-20, section "Finite Field Arithmetic") operating on flat
 * {@code long[]} storage.
 *
 * <p>Elements are stored canonically (a value in [0, p)) in {@link #words()} consecutive
 * {@code long}s, least significant word first. Every method takes element indices, not word
 * offsets: element {@code i} of array {@code w} occupies {@code w[i * words()] ..}. Methods
 * never check that their inputs are canonical; values enter storage only through
 * {@link #set}, {@link #setSigned}, {@link #decode} or arithmetic, all of which produce
 * canonical values.
 *
 * <p>The set of fields is closed: {@link Field64} and {@link Field128}.
 */
public sealed interface PrimeField permits Field64, Field128 {

  /** Returns the field's name as the VDAF specification spells it ("Field64", "Field128"). */
  String name();

  /** Returns the prime modulus p. */
  BigInteger modulus();

  /** Returns the number of bytes of one encoded element (8 or 16). */
  int encodedSize();

  /** Returns the number of {@code long} words one element occupies in flat storage (1 or 2). */
  int words();

  /** Returns the generator of the multiplicative subgroup of order 2^{@link #twoAdicity()}. */
  BigInteger generator();

  /** Returns k such that {@link #generator()} has order 2^k. */
  int twoAdicity();

  /** Returns a zeroed flat array large enough for {@code n} elements. */
  default long[] newArray(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("element count must be >= 0, got " + n);
    }
    return new long[Math.multiplyExact(n, words())];
  }

  /** Returns the number of elements held by a flat array. */
  default int length(long[] w) {
    return w.length / words();
  }

  /** Sets {@code out[oi] = a[ai] + b[bi]}. */
  void add(long[] a, int ai, long[] b, int bi, long[] out, int oi);

  /** Sets {@code out[oi] = a[ai] - b[bi]}. */
  void sub(long[] a, int ai, long[] b, int bi, long[] out, int oi);

  /** Sets {@code out[oi] = a[ai] * b[bi]}. */
  void mul(long[] a, int ai, long[] b, int bi, long[] out, int oi);

  /** Sets {@code out[oi] = -a[ai]}. */
  void neg(long[] a, int ai, long[] out, int oi);

  /**
   * Sets {@code out[oi] = a[ai]^-1}.
   *
   * @throws ArithmeticException if {@code a[ai]} is zero
   */
  void inv(long[] a, int ai, long[] out, int oi);

  /** Sets {@code out[oi] = a[ai]^e} for a non-negative exponent (0^0 = 1). */
  void pow(long[] a, int ai, BigInteger e, long[] out, int oi);

  /** Sets {@code out[i] = a[i] + b[i]} for the first {@code n} elements. */
  void addVec(long[] a, long[] b, long[] out, int n);

  /** Sets {@code out[i] = a[i] - b[i]} for the first {@code n} elements. */
  void subVec(long[] a, long[] b, long[] out, int n);

  /** Sets {@code out[i] = a[i] * b[i]} for the first {@code n} elements. */
  void mulVec(long[] a, long[] b, long[] out, int n);

  /** Sets {@code out[i] = s[si] * a[i]} for the first {@code n} elements. */
  void scalarMulVec(long[] s, int si, long[] a, long[] out, int n);

  /** Returns element {@code i} as a BigInteger in [0, p). */
  BigInteger get(long[] w, int i);

  /**
   * Stores {@code v} as element {@code i}.
   *
   * @throws IllegalArgumentException if {@code v} is not in [0, p)
   */
  void set(long[] w, int i, BigInteger v);

  /** Returns true if the element is zero. */
  boolean isZero(long[] w, int i);

  /** Returns true if {@code a[ai] == b[bi]}. */
  boolean equal(long[] a, int ai, long[] b, int bi);

  /**
   * Stores the projection of the signed integer {@code z} as element {@code i}: z itself when
   * z >= 0, else p - |z|.
   */
  void setSigned(long[] w, int i, long z);

  /**
   * Stores the same element as {@link #setSigned(long[], int, long)} (z mod p), computed with
   * arithmetic and masks: no branch and no table lookup depends on z. For paths that must not
   * leak the sign or size of z through timing (the fixed-work noise of {@code
   * Prio3DpMechanism.withHardenedSampler}).
   */
  void setSignedConstantTime(long[] w, int i, long z);

  /**
   * Computes the same sums as {@link #addVec} for canonical inputs, with no branch or table
   * lookup that depends on the values (only on n).
   */
  void addVecConstantTime(long[] a, long[] b, long[] out, int n);

  /**
   * Stores the projection of the signed integer {@code z} as element {@code i}: z itself when
   * z >= 0, else p - |z|.
   *
   * @throws IllegalArgumentException if |z| >= p (the projection would wrap around)
   */
  void setSigned(long[] w, int i, BigInteger z);

  /**
   * Returns the signed lift of element {@code i}: v if v <= (p-1)/2, else v - p, so the result
   * lies in [-(p-1)/2, (p-1)/2].
   */
  BigInteger getSigned(long[] w, int i);

  /**
   * Writes the first {@code n} elements in the canonical encoding (fixed width, little-endian)
   * to {@code out} starting at {@code off}.
   */
  void encode(long[] w, int n, byte[] out, int off);

  /**
   * Decodes exactly {@code expectedCount} canonically encoded elements from {@code in[off ..
   * off+len)}.
   *
   * @throws DecodeException if {@code len} is not {@code expectedCount * encodedSize()}, or an
   *     element is not canonical (value >= p); the message names the index
   */
  long[] decode(byte[] in, int off, int len, int expectedCount);

  /**
   * Decodes all canonically encoded elements of {@code in[off .. off+len)}.
   *
   * @throws DecodeException if {@code len} is not a multiple of {@link #encodedSize()}, or an
   *     element is not canonical (value >= p)
   */
  long[] decodeAll(byte[] in, int off, int len);
}
