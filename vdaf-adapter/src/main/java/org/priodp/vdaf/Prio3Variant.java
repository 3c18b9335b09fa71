package org.priodp.vdaf;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.FieldVector;
import org.priodp.field.PrimeField;

/**
 * The parameters of a Prio3 variant (VDAF draft-20, section "Variants"), validated at
 * construction. Each variant knows its field, its algorithm id, the number of proofs, the
 * length of the encoded measurement ({@code MEAS_LEN}) and of the aggregate share ({@code
 * OUTPUT_LEN}), and how to decode an aggregate result.
 *
 * <p>The set is closed.
 */
public sealed interface Prio3Variant
    permits Prio3Variant.Count,
        Prio3Variant.Sum,
        Prio3Variant.SumVec,
        Prio3Variant.Histogram,
        Prio3Variant.MultihotCountVec {

  /** Largest accepted encoded measurement length, in field elements. */
  int MAX_MEAS_LEN = 1 << 24;

  /** Returns the algorithm and its id. */
  Prio3Algorithm algorithm();

  /** Returns the field the variant computes in: the algorithm's field. */
  default PrimeField field() {
    return algorithm().field();
  }

  /** Returns the number of FLP proofs (PROOFS): one, except for the multiproof SumVec. */
  default int proofs() {
    return 1;
  }

  /** Returns the length of the encoded measurement (MEAS_LEN). */
  int measurementLength();

  /** Returns the length of output and aggregate shares (OUTPUT_LEN). */
  int outputLength();

  /**
   * Decodes an aggregate result (the sum of the aggregate shares) into integers in [0, p), one
   * per output element, as the variant's {@code decode} does (Count and Sum: one integer).
   *
   * @throws IllegalArgumentException if the vector has the wrong field or length
   */
  default List<BigInteger> decodeAggregate(FieldVector aggregate) {
    Objects.requireNonNull(aggregate, "aggregate");
    if (aggregate.field() != field()) {
      throw new IllegalArgumentException(
          algorithm().specName() + " aggregates are in " + field().name() + ", got "
              + aggregate.field().name());
    }
    if (aggregate.length() != outputLength()) {
      throw new IllegalArgumentException(
          algorithm().specName() + " aggregates have " + outputLength() + " elements, got "
              + aggregate.length());
    }
    List<BigInteger> out = new ArrayList<>(outputLength());
    for (int i = 0; i < aggregate.length(); i++) {
      out.add(aggregate.get(i));
    }
    return Collections.unmodifiableList(out);
  }

  /** Prio3Count: each measurement is 0 or 1; Field64, one proof. */
  record Count() implements Prio3Variant {
    @Override
    public Prio3Algorithm algorithm() {
      return Prio3Algorithm.COUNT;
    }



    @Override
    public int measurementLength() {
      return 1;
    }

    @Override
    public int outputLength() {
      return 1;
    }
  }

  /** Prio3Sum(max_measurement): each measurement is an integer in [0, max_measurement]. */
  record Sum(BigInteger maxMeasurement) implements Prio3Variant {
    /** Validates 1 <= max_measurement < p (Field64). */
    public Sum {
      checkMax("max_measurement", maxMeasurement, Field64.FIELD);
    }

    /** Returns bits = max_measurement.bit_length(). */
    public int bits() {
      return maxMeasurement.bitLength();
    }

    @Override
    public Prio3Algorithm algorithm() {
      return Prio3Algorithm.SUM;
    }



    @Override
    public int measurementLength() {
      return bits();
    }

    @Override
    public int outputLength() {
      return 1;
    }
  }

  /**
   * Prio3SumVec(length, max_measurement, chunk_length): vectors of {@code length} integers in
   * [0, max_measurement]. The standard variant is Field128 with one proof; the official vectors
   * also use a multiproof variant over Field64 ({@link #field64Multiproof}).
   */
  record SumVec(int length, BigInteger maxMeasurement, int chunkLength, PrimeField field, int proofs)
      implements Prio3Variant {
    /** Validates every parameter against the field and the size limits. */
    public SumVec {
      Objects.requireNonNull(field, "field");
      checkLength("length", length);
      checkMax("max_measurement", maxMeasurement, field);
      long measLen = (long) length * maxMeasurement.bitLength();
      checkMeasLen(measLen);
      checkChunk(chunkLength, measLen);
      if (proofs < 1 || proofs > 255) {
        throw new IllegalArgumentException("proofs must be in [1, 255], got " + proofs);
      }
      if (field == Field128.FIELD && proofs != 1) {
        throw new IllegalArgumentException("Prio3SumVec over Field128 uses 1 proof, got " + proofs);
      }
    }

    /** Returns the standard Prio3SumVec: Field128, one proof, algorithm id 3. */
    public static SumVec of(int length, BigInteger maxMeasurement, int chunkLength) {
      return new SumVec(length, maxMeasurement, chunkLength, Field128.FIELD, 1);
    }

    /** Returns the test vectors' multiproof SumVec over Field64 (id 0xFFFFFFFF). */
    public static SumVec field64Multiproof(
        int length, BigInteger maxMeasurement, int chunkLength, int proofs) {
      return new SumVec(length, maxMeasurement, chunkLength, Field64.FIELD, proofs);
    }

    /** Returns bits = max_measurement.bit_length(). */
    public int bits() {
      return maxMeasurement.bitLength();
    }

    @Override
    public Prio3Algorithm algorithm() {
      return field == Field128.FIELD ? Prio3Algorithm.SUM_VEC : Prio3Algorithm.SUM_VEC_FIELD64_MULTIPROOF;
    }

    @Override
    public int measurementLength() {
      return length * bits();
    }

    @Override
    public int outputLength() {
      return length;
    }
  }

  /** Prio3Histogram(length, chunk_length): each measurement is a bucket index in [0, length). */
  record Histogram(int length, int chunkLength) implements Prio3Variant {
    /** Validates the length and chunk length. */
    public Histogram {
      checkLength("length", length);
      checkMeasLen(length);
      checkChunk(chunkLength, length);
    }

    @Override
    public Prio3Algorithm algorithm() {
      return Prio3Algorithm.HISTOGRAM;
    }



    @Override
    public int measurementLength() {
      return length;
    }

    @Override
    public int outputLength() {
      return length;
    }
  }

  /**
   * Prio3MultihotCountVec(length, max_weight, chunk_length): each measurement is a vector of
   * {@code length} booleans with at most {@code max_weight} true entries.
   */
  record MultihotCountVec(int length, int maxWeight, int chunkLength) implements Prio3Variant {
    /** Validates 0 < max_weight <= length and the chunk length. */
    public MultihotCountVec {
      checkLength("length", length);
      if (maxWeight < 1 || maxWeight > length) {
        throw new IllegalArgumentException(
            "max_weight must be in [1, length = " + length + "], got " + maxWeight);
      }
      long measLen = (long) length + bitsForWeight(maxWeight);
      checkMeasLen(measLen);
      checkChunk(chunkLength, measLen);
    }

    private static int bitsForWeight(int maxWeight) {
      return 32 - Integer.numberOfLeadingZeros(maxWeight);
    }

    /** Returns bits_for_weight = max_weight.bit_length(). */
    public int bitsForWeight() {
      return bitsForWeight(maxWeight);
    }

    @Override
    public Prio3Algorithm algorithm() {
      return Prio3Algorithm.MULTIHOT_COUNT_VEC;
    }



    @Override
    public int measurementLength() {
      return length + bitsForWeight();
    }

    @Override
    public int outputLength() {
      return length;
    }
  }

  // ------------------------------------------------------------------ shared validation

  private static void checkLength(String name, int length) {
    if (length < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, got " + length);
    }
  }

  private static void checkMax(String name, BigInteger max, PrimeField field) {
    Objects.requireNonNull(max, name);
    if (max.signum() <= 0 || max.compareTo(field.modulus()) >= 0) {
      throw new IllegalArgumentException(
          name + " must be in [1, p) for " + field.name() + ", got " + max);
    }
  }

  private static void checkMeasLen(long measLen) {
    if (measLen > MAX_MEAS_LEN) {
      throw new IllegalArgumentException(
          "encoded measurement of " + measLen + " field elements exceeds the limit of " + MAX_MEAS_LEN);
    }
  }

  private static void checkChunk(int chunkLength, long measLen) {
    if (chunkLength < 1 || chunkLength > measLen) {
      throw new IllegalArgumentException(
          "chunk_length must be in [1, " + measLen + "] (the encoded measurement length), got "
              + chunkLength);
    }
  }
}
