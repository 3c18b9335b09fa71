package org.priodp.field;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable vector of field elements in flat storage ({@link PrimeField#words()} longs per
 * element), with element-wise arithmetic and the canonical encoding (fixed width,
 * little-endian, VDAF draft-20 section "Finite Field Arithmetic").
 */
public final class FieldVector {
  private final PrimeField field;
  private final long[] words;
  private final int length;

  private FieldVector(PrimeField field, long[] words) {
    this.field = field;
    this.words = words;
    this.length = words.length / field.words();
  }

  /** Returns a vector of {@code n} zeros. */
  public static FieldVector zeros(PrimeField field, int n) {
    return new FieldVector(Objects.requireNonNull(field, "field"), field.newArray(n));
  }

  /**
   * Returns a vector over a copy of canonical flat storage.
   *
   * @throws IllegalArgumentException if the array length is not a multiple of the element
   *     width or an element is not canonical
   */
  public static FieldVector ofWords(PrimeField field, long[] words) {
    Objects.requireNonNull(field, "field");
    if (words.length % field.words() != 0) {
      throw new IllegalArgumentException(
          field.name() + " storage needs " + field.words() + " words per element, got "
              + words.length + " words");
    }
    long[] copy = words.clone();
    // The fields' own canonicity checks, on the words (no encode/decode round trip).
    int n = copy.length / field.words();
    for (int i = 0; i < n; i++) {
      boolean canonical =
          field.words() == 1
              ? Field64.isCanonical(copy[i])
              : Field128.isCanonical(copy[2 * i], copy[2 * i + 1]);
      if (!canonical) {
        throw new DecodeException(field.name() + " element " + i + " is not canonical (>= p)");
      }
    }
    return new FieldVector(field, copy);
  }

  /** Returns the projections of signed integers (z >= 0 as is, z < 0 as p - |z|). */
  public static FieldVector fromSigned(PrimeField field, long... values) {
    long[] w = field.newArray(values.length);
    for (int i = 0; i < values.length; i++) {
      field.setSigned(w, i, values[i]);
    }
    return new FieldVector(field, w);
  }

  /**
   * Returns the vector of the given values.
   *
   * @throws IllegalArgumentException if a value is not in [0, p); the message names its index
   */
  public static FieldVector of(PrimeField field, BigInteger... values) {
    long[] w = field.newArray(values.length);
    for (int i = 0; i < values.length; i++) {
      try {
        field.set(w, i, values[i]);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("element " + i + ": " + e.getMessage(), e);
      }
    }
    return new FieldVector(field, w);
  }

  /**
   * Decodes a vector of exactly {@code expectedLength} elements.
   *
   * @throws DecodeException on a wrong byte length or a non-canonical element
   */
  public static FieldVector decode(PrimeField field, byte[] encoded, int expectedLength) {
    return new FieldVector(field, field.decode(encoded, 0, encoded.length, expectedLength));
  }

  /**
   * Decodes a vector whose length is implied by the byte length.
   *
   * @throws DecodeException on a byte length that is not a multiple of the element size or a
   *     non-canonical element
   */
  public static FieldVector decode(PrimeField field, byte[] encoded) {
    return new FieldVector(field, field.decodeAll(encoded, 0, encoded.length));
  }

  /** Returns the field. */
  public PrimeField field() {
    return field;
  }

  /** Returns the number of elements. */
  public int length() {
    return length;
  }

  /** Returns element {@code i} in [0, p). */
  public BigInteger get(int i) {
    Objects.checkIndex(i, length);
    return field.get(words, i);
  }

  /** Returns the signed lift of element {@code i}, in [-(p-1)/2, (p-1)/2]. */
  public BigInteger getSigned(int i) {
    Objects.checkIndex(i, length);
    return field.getSigned(words, i);
  }

  /** Returns a copy of the flat storage. */
  public long[] toWords() {
    return words.clone();
  }

  /** Returns the element-wise sum. */
  public FieldVector add(FieldVector other) {
    checkCompatible(other);
    long[] out = field.newArray(length);
    field.addVec(words, other.words, out, length);
    return new FieldVector(field, out);
  }

  /** Returns the element-wise difference {@code this - other}. */
  public FieldVector sub(FieldVector other) {
    checkCompatible(other);
    long[] out = field.newArray(length);
    field.subVec(words, other.words, out, length);
    return new FieldVector(field, out);
  }

  /**
   * Returns every element multiplied by {@code scalar}.
   *
   * @throws IllegalArgumentException if the scalar is not in [0, p)
   */
  public FieldVector scalarMul(BigInteger scalar) {
    long[] s = field.newArray(1);
    field.set(s, 0, scalar);
    long[] out = field.newArray(length);
    field.scalarMulVec(s, 0, words, out, length);
    return new FieldVector(field, out);
  }

  /** Returns the canonical encoding: {@code length() * field().encodedSize()} bytes. */
  public byte[] encode() {
    byte[] out = new byte[length * field.encodedSize()];
    field.encode(words, length, out, 0);
    return out;
  }

  private void checkCompatible(FieldVector other) {
    if (other.field != field) {
      throw new IllegalArgumentException(
          "field mismatch: " + field.name() + " vs " + other.field.name());
    }
    if (other.length != length) {
      throw new IllegalArgumentException(
          "length mismatch: " + length + " vs " + other.length + " elements");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldVector v && v.field == field && Arrays.equals(v.words, words);
  }

  @Override
  public int hashCode() {
    return field.hashCode() * 31 + Arrays.hashCode(words);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(field.name()).append('[');
    for (int i = 0; i < Math.min(length, 8); i++) {
      sb.append(i == 0 ? "" : ", ").append(get(i));
    }
    return sb.append(length > 8 ? ", ... (" + length + " elements)]" : "]").toString();
  }
}
