package org.priodp.vdaf;

import static org.priodp.vdaf.VariantParameters.checkChunk;
import static org.priodp.vdaf.VariantParameters.checkLength;
import static org.priodp.vdaf.VariantParameters.checkMax;
import static org.priodp.vdaf.VariantParameters.checkMeasLen;
import static org.priodp.vdaf.VariantParameters.ordered;
import static org.priodp.vdaf.VariantParameters.uint64;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.FieldVector;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.dp.Sensitivity;
import org.priodp.vdaf.dp.SensitivityRule;
import org.priodp.vdaf.internal.Circuit;
import org.priodp.vdaf.internal.Circuits;

/**
 * The parameters of a Prio3 variant (VDAF draft-20, section "Variants"), validated at
 * construction. Each variant knows its specification name, its parameters by name, its field,
 * its algorithm id, the number of proofs, the length of the encoded measurement ({@code
 * MEAS_LEN}) and of the aggregate share ({@code OUTPUT_LEN}), its DAP-18 {@code
 * vdaf_configuration} encoding, how to decode an aggregate result, its validity circuit, its
 * {@link Sensitivity}, and how one measurement is written as text ({@link #parseMeasurement}).
 *
 * <p>A variant answers every question that depends on which variant it is through a method each
 * record implements; nothing outside these types tests which variant it holds. Adding a variant
 * means adding a record (with its algorithm id and name) and its circuit.
 *
 * <p>{@link #parse} is the one way to build a variant from a name and textual parameters (task
 * files, the command line and the test vectors all use it); {@link #parameters} writes them
 * back.
 *
 * <p>The set is closed.
 */
// "exports": circuit() returns the unexported Circuit, by design (only Prio3 uses it).
@SuppressWarnings("exports")
public sealed interface Prio3Variant
    permits Prio3Variant.Count,
        Prio3Variant.Sum,
        Prio3Variant.SumVec,
        Prio3Variant.Histogram,
        Prio3Variant.MultihotCountVec,
        Prio3Variant.L1BoundSum {

  /** Largest accepted encoded measurement length, in field elements. */
  int MAX_MEAS_LEN = 1 << 24;

  /** Returns the algorithm and its id. */
  Prio3Algorithm algorithm();

  /** Returns the name the specification and the test vectors use, e.g. "Prio3Histogram". */
  default String specName() {
    return algorithm().specName();
  }

  /** Returns the 32-bit algorithm id as an unsigned value (DAP-18 {@code vdaf_type}). */
  default long algorithmId() {
    return algorithm().id();
  }

  /**
   * Returns the parameters by their specification names, in specification order, as decimal
   * integers: {@code parse(specName(), parameters())} returns an equal variant.
   */
  Map<String, String> parameters();

  /**
   * Returns the name with the parameters as the specification writes them, e.g.
   * "Prio3Histogram(length=4, chunk_length=2)"; just the name for Prio3Count.
   */
  default String describe() {
    Map<String, String> p = parameters();
    if (p.isEmpty()) {
      return specName();
    }
    StringBuilder b = new StringBuilder(specName()).append('(');
    String sep = "";
    for (Map.Entry<String, String> e : p.entrySet()) {
      b.append(sep).append(e.getKey()).append('=').append(e.getValue());
      sep = ", ";
    }
    return b.append(')').toString();
  }

  /**
   * Returns the encoding of the parameters in DAP-18 (section "VDAF Configuration Encodings"),
   * the task's {@code vdaf_configuration}: empty for Prio3Count; uint64 max_measurement for
   * Prio3Sum; uint32 length, uint64 max_measurement, uint32 chunk_length for Prio3SumVec (the
   * multiproof SumVec over Field64, a private-use id, appends its uint8 number of proofs);
   * uint32 length, uint32 chunk_length for Prio3Histogram; uint32 length, uint32 chunk_length,
   * uint64 max_weight for Prio3MultihotCountVec; uint32 length, uint64 max_value, uint32
   * chunk_length for Prio3L1BoundSum (draft-ietf-ppm-l1-bound-sum-02, section 4). Integers are
   * big-endian.
   *
   * @throws IllegalArgumentException if max_measurement or max_value does not fit a uint64
   *     (possible only for a SumVec or an L1BoundSum over Field128)
   */
  byte[] vdafConfiguration();

  /**
   * Returns the largest value one valid measurement adds to any one coordinate of the
   * aggregate: max_measurement for Sum and SumVec, max_value for L1BoundSum, 1 for Count,
   * Histogram and MultihotCountVec.
   */
  default BigInteger maxContribution() {
    return BigInteger.ONE;
  }

  /**
   * Returns the validity circuit Prio3 proves and verifies measurements against (section
   * "Variants"), a new instance on each call. Its type lives in the module's unexported {@code
   * org.priodp.vdaf.internal}: only this module can use it; elsewhere, use {@link Prio3}.
   */
  Circuit circuit();

  /**
   * Returns the global sensitivity of the variant's aggregation function under replacement of one
   * measurement, under the given rule (see {@link Sensitivity} for the table); {@link
   * Sensitivity#of(Prio3Variant, SensitivityRule)} is the usual way to ask.
   *
   * @throws NullPointerException if the rule is null
   */
  Sensitivity sensitivity(SensitivityRule rule);

  /**
   * Parses one measurement written as text (the {@code upload} command's arguments and files)
   * into the list {@link Prio3#shard} takes: 0 or 1 (Prio3Count), an integer in [0,
   * max_measurement] (Prio3Sum), a bucket index in [0, length) (Prio3Histogram), a
   * comma-separated vector of length integers in [0, max_measurement] (Prio3SumVec) or of 0 and
   * 1 with at most max_weight ones (Prio3MultihotCountVec) or of length integers >= 0 whose sum
   * is at most max_value (Prio3L1BoundSum). Each number is decimal digits; spaces around the
   * text and around each element are ignored.
   *
   * @throws IllegalArgumentException saying what was expected, naming the element of a vector
   *     and the value out of range, e.g. "element 2: expected integers in [0, 9], got 10"
   */
  List<BigInteger> parseMeasurement(String text);

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
    public Map<String, String> parameters() {
      return Map.of();
    }

    @Override
    public byte[] vdafConfiguration() {
      return new byte[0];
    }

    @Override
    public Circuit circuit() {
      return new Circuits.Count(field());
    }

    /** Returns L1 = L2^2 = 1: replacing 0 by 1 changes the count by 1. */
    @Override
    public Sensitivity sensitivity(SensitivityRule rule) {
      return new Sensitivity(BigInteger.ONE, BigInteger.ONE, rule);
    }

    @Override
    public List<BigInteger> parseMeasurement(String text) {
      return List.of(MeasurementText.integer(text, BigInteger.ONE, "0 or 1"));
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
    public Map<String, String> parameters() {
      return ordered("max_measurement", maxMeasurement);
    }

    @Override
    public byte[] vdafConfiguration() {
      return ByteBuffer.allocate(8).putLong(uint64("max_measurement", maxMeasurement)).array();
    }

    @Override
    public Circuit circuit() {
      return new Circuits.Sum(field(), maxMeasurement);
    }

    /** Returns L1 = max_measurement, L2^2 = max_measurement^2 under either rule. */
    @Override
    public Sensitivity sensitivity(SensitivityRule rule) {
      return new Sensitivity(maxMeasurement, maxMeasurement.pow(2), rule);
    }

    @Override
    public List<BigInteger> parseMeasurement(String text) {
      return List.of(MeasurementText.integer(text, maxMeasurement,
          "an integer in [0, " + maxMeasurement + "]"));
    }

    @Override
    public BigInteger maxContribution() {
      return maxMeasurement;
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

    /** Returns length, max_measurement, chunk_length, and for the multiproof SumVec proofs. */
    @Override
    public Map<String, String> parameters() {
      return field == Field128.FIELD
          ? ordered("length", length, "max_measurement", maxMeasurement, "chunk_length", chunkLength)
          : ordered("length", length, "max_measurement", maxMeasurement, "chunk_length", chunkLength,
              "proofs", proofs);
    }

    @Override
    public byte[] vdafConfiguration() {
      boolean multiproof = field != Field128.FIELD;
      ByteBuffer b = ByteBuffer.allocate(16 + (multiproof ? 1 : 0))
          .putInt(length)
          .putLong(uint64("max_measurement", maxMeasurement))
          .putInt(chunkLength);
      if (multiproof) {
        b.put((byte) proofs);
      }
      return b.array();
    }

    @Override
    public Circuit circuit() {
      return new Circuits.SumVec(field, length, maxMeasurement, chunkLength);
    }

    /**
     * Returns L1 = length * m, L2^2 = length * m^2 with m = max_measurement, or m = 2^bits - 1
     * under {@link SensitivityRule#JANUS_COMPATIBLE}.
     */
    @Override
    public Sensitivity sensitivity(SensitivityRule rule) {
      BigInteger perCoordinate = rule == SensitivityRule.JANUS_COMPATIBLE
          ? BigInteger.ONE.shiftLeft(bits()).subtract(BigInteger.ONE)
          : maxMeasurement;
      BigInteger n = BigInteger.valueOf(length);
      return new Sensitivity(n.multiply(perCoordinate), n.multiply(perCoordinate.pow(2)), rule);
    }

    @Override
    public List<BigInteger> parseMeasurement(String text) {
      return MeasurementText.vector(text, length, maxMeasurement,
          "integers in [0, " + maxMeasurement + "]");
    }

    @Override
    public BigInteger maxContribution() {
      return maxMeasurement;
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
    public Map<String, String> parameters() {
      return ordered("length", length, "chunk_length", chunkLength);
    }

    @Override
    public byte[] vdafConfiguration() {
      return ByteBuffer.allocate(8).putInt(length).putInt(chunkLength).array();
    }

    @Override
    public Circuit circuit() {
      return new Circuits.Histogram(field(), length, chunkLength);
    }

    /** Returns L1 = L2^2 = 2: one count goes down by 1, another up by 1. */
    @Override
    public Sensitivity sensitivity(SensitivityRule rule) {
      return new Sensitivity(BigInteger.TWO, BigInteger.TWO, rule);
    }

    @Override
    public List<BigInteger> parseMeasurement(String text) {
      return List.of(MeasurementText.integer(text, BigInteger.valueOf(length - 1L),
          "a bucket index in [0, " + length + ")"));
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
    public Map<String, String> parameters() {
      return ordered("length", length, "max_weight", maxWeight, "chunk_length", chunkLength);
    }

    @Override
    public byte[] vdafConfiguration() {
      return ByteBuffer.allocate(16).putInt(length).putInt(chunkLength).putLong(maxWeight).array();
    }

    @Override
    public Circuit circuit() {
      return new Circuits.MultihotCountVec(field(), length, maxWeight, chunkLength);
    }

    /** Returns L1 = L2^2 = min(2 max_weight, length): that many coordinates change by 1. */
    @Override
    public Sensitivity sensitivity(SensitivityRule rule) {
      BigInteger d = BigInteger.valueOf(Math.min(2L * maxWeight, length));
      return new Sensitivity(d, d, rule);
    }

    @Override
    public List<BigInteger> parseMeasurement(String text) {
      List<BigInteger> bits = MeasurementText.vector(text, length, BigInteger.ONE, "0 or 1");
      long weight = bits.stream().filter(BigInteger.ONE::equals).count();
      if (weight > maxWeight) {
        throw new IllegalArgumentException(weight + " ones, max_weight is " + maxWeight);
      }
      return bits;
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

  /**
   * Prio3L1BoundSum(length, max_value, chunk_length) (draft-ietf-ppm-l1-bound-sum-02, section
   * 3): each measurement is a vector of {@code length} non-negative integers whose sum (L1 norm)
   * is at most {@code max_value}; Field128, one proof, algorithm id 0x00000007.
   */
  record L1BoundSum(int length, BigInteger maxValue, int chunkLength) implements Prio3Variant {
    /** Validates 1 <= max_value < p (Field128), the length and the chunk length. */
    public L1BoundSum {
      checkLength("length", length);
      checkMax("max_value", maxValue, Field128.FIELD);
      long measLen = ((long) length + 1) * maxValue.bitLength();
      checkMeasLen(measLen);
      checkChunk(chunkLength, measLen);
    }

    /** Returns bits = max_value.bit_length(), the encoded length of each component. */
    public int bits() {
      return maxValue.bitLength();
    }

    @Override
    public Prio3Algorithm algorithm() {
      return Prio3Algorithm.L1_BOUND_SUM;
    }

    @Override
    public Map<String, String> parameters() {
      return ordered("length", length, "max_value", maxValue, "chunk_length", chunkLength);
    }

    @Override
    public byte[] vdafConfiguration() {
      return ByteBuffer.allocate(16).putInt(length).putLong(uint64("max_value", maxValue))
          .putInt(chunkLength).array();
    }

    @Override
    public Circuit circuit() {
      return new Circuits.L1BoundSum(field(), length, maxValue, chunkLength);
    }

    /**
     * Returns L1 = 2 max_value and L2^2 = 2 max_value^2 under either rule (max_value at one
     * coordinate replaced by max_value at another), or max_value and max_value^2 when length is
     * 1; docs/PRIVACY.md derives both.
     */
    @Override
    public Sensitivity sensitivity(SensitivityRule rule) {
      Objects.requireNonNull(rule, "rule");
      BigInteger changed = BigInteger.valueOf(Math.min(2, length));
      return new Sensitivity(changed.multiply(maxValue), changed.multiply(maxValue.pow(2)), rule);
    }

    @Override
    public List<BigInteger> parseMeasurement(String text) {
      List<BigInteger> values = MeasurementText.vector(text, length, maxValue,
          "integers >= 0 summing to at most " + maxValue);
      BigInteger sum = values.stream().reduce(BigInteger.ZERO, BigInteger::add);
      if (sum.compareTo(maxValue) > 0) {
        throw new IllegalArgumentException("the sum " + sum + " exceeds max_value " + maxValue);
      }
      return values;
    }

    @Override
    public BigInteger maxContribution() {
      return maxValue;
    }

    @Override
    public int measurementLength() {
      return (length + 1) * bits();
    }

    @Override
    public int outputLength() {
      return length;
    }
  }

  // ------------------------------------------------------------------ parsing

  /**
   * Returns the specification names {@link #parse} accepts, in the order of the algorithm ids:
   * Prio3Count, Prio3Sum, Prio3SumVec, Prio3Histogram, Prio3MultihotCountVec, Prio3L1BoundSum,
   * and the private-use Prio3SumVecWithMultiproof of the official test vectors.
   */
  static List<String> names() {
    return Arrays.stream(Prio3Algorithm.values()).map(Prio3Algorithm::specName).toList();
  }

  /**
   * Returns the parameters a variant takes, in specification order, e.g. [length,
   * chunk_length] for "Prio3Histogram". Prio3SumVecWithMultiproof's "proofs" is optional
   * (default 3); every other parameter is required.
   *
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  static List<String> parameterNames(String name) {
    return VariantParameters.parameterNames(name);
  }

  /**
   * Parses a variant from its specification name and its parameters, each a decimal integer
   * (see {@link #parameterNames}); the inverse of {@link #specName} and {@link #parameters}.
   *
   * @throws IllegalArgumentException naming the parameter: for an unknown name, a parameter the
   *     variant does not take, a missing or non-integer parameter, or a value the variant
   *     refuses
   */
  static Prio3Variant parse(String name, Map<String, String> parameters) {
    return parse(name, parameters, UnaryOperator.identity());
  }

  /**
   * Parses a variant as {@link #parse(String, Map)} does, naming each parameter in error
   * messages as {@code spelling} writes it: the command line, for example, passes {@code k ->
   * "--" + k.replace('_', '-')}.
   */
  static Prio3Variant parse(String name, Map<String, String> parameters, UnaryOperator<String> spelling) {
    return VariantParameters.parse(name, parameters, spelling);
  }
}
