package org.priodp.vdaf;

import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.Prio3Variant.Count;
import org.priodp.vdaf.Prio3Variant.Histogram;
import org.priodp.vdaf.Prio3Variant.L1BoundSum;
import org.priodp.vdaf.Prio3Variant.MultihotCountVec;
import org.priodp.vdaf.Prio3Variant.Sum;
import org.priodp.vdaf.Prio3Variant.SumVec;

/**
 * The parameters of the Prio3 variants as text and their validation (VDAF draft-20, section
 * "Variants"): the parameter names of each variant, {@link Prio3Variant#parse}'s work, and the
 * checks the records' constructors share. Package-private: {@link Prio3Variant} is the API.
 */
final class VariantParameters {
  private VariantParameters() {}

  /** Returns the parameters a variant takes (see {@link Prio3Variant#parameterNames}). */
  static List<String> parameterNames(String name) {
    return switch (Objects.requireNonNull(name, "name")) {
      case "Prio3Count" -> List.of();
      case "Prio3Sum" -> List.of("max_measurement");
      case "Prio3SumVec" -> List.of("length", "max_measurement", "chunk_length");
      case "Prio3SumVecWithMultiproof" -> List.of("length", "max_measurement", "chunk_length", "proofs");
      case "Prio3Histogram" -> List.of("length", "chunk_length");
      case "Prio3MultihotCountVec" -> List.of("length", "max_weight", "chunk_length");
      case "Prio3L1BoundSum" -> List.of("length", "max_value", "chunk_length");
      default -> throw new IllegalArgumentException(
          "unknown VDAF '" + name + "' (" + String.join(", ", Prio3Variant.names()) + ")");
    };
  }

  /** Parses a variant (see {@link Prio3Variant#parse(String, Map, UnaryOperator)}). */
  static Prio3Variant parse(String name, Map<String, String> parameters, UnaryOperator<String> spelling) {
    Objects.requireNonNull(parameters, "parameters");
    Objects.requireNonNull(spelling, "spelling");
    List<String> allowed = parameterNames(name);
    for (String key : parameters.keySet()) {
      if (!allowed.contains(key)) {
        throw new IllegalArgumentException(spelling.apply(key) + " does not apply to " + name + " ("
            + (allowed.isEmpty() ? "it takes no parameters" : "it takes " + String.join(", ", allowed)) + ")");
      }
    }
    Function<String, Integer> integer = key -> integer(name, parameters, spelling, key);
    Function<String, BigInteger> big = key -> big(name, parameters, spelling, key);
    return switch (name) {
      case "Prio3Count" -> new Count();
      case "Prio3Sum" -> new Sum(big.apply("max_measurement"));
      case "Prio3SumVec" -> SumVec.of(integer.apply("length"), big.apply("max_measurement"),
          integer.apply("chunk_length"));
      case "Prio3SumVecWithMultiproof" -> SumVec.field64Multiproof(integer.apply("length"),
          big.apply("max_measurement"), integer.apply("chunk_length"),
          parameters.containsKey("proofs") ? integer.apply("proofs") : 3);
      case "Prio3Histogram" -> new Histogram(integer.apply("length"), integer.apply("chunk_length"));
      case "Prio3MultihotCountVec" -> new MultihotCountVec(integer.apply("length"),
          integer.apply("max_weight"), integer.apply("chunk_length"));
      case "Prio3L1BoundSum" -> new L1BoundSum(integer.apply("length"), big.apply("max_value"),
          integer.apply("chunk_length"));
      default -> throw new AssertionError(name);
    };
  }

  /** Returns the named parameter as an integer; the errors name it as {@code spelling} does. */
  private static BigInteger big(String name, Map<String, String> values, UnaryOperator<String> spelling,
      String key) {
    String v = values.get(key);
    if (v == null) {
      throw new IllegalArgumentException(name + " needs " + spelling.apply(key));
    }
    String t = v.strip();
    if (!t.matches("[+-]?[0-9]+")) {
      throw new IllegalArgumentException(spelling.apply(key) + ": '" + t + "' is not an integer");
    }
    return new BigInteger(t);
  }

  /** Returns the named parameter as an int. */
  private static int integer(String name, Map<String, String> values, UnaryOperator<String> spelling,
      String key) {
    BigInteger b = big(name, values, spelling, key);
    if (b.bitLength() > 31) {
      throw new IllegalArgumentException(
          spelling.apply(key) + ": '" + b + "' is not an integer in the int range");
    }
    return b.intValue();
  }

  // ------------------------------------------------------------------ shared validation

  /** Returns the pairs (name, value) as an unmodifiable map in the given order. */
  static Map<String, String> ordered(Object... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], pairs[i + 1].toString());
    }
    return Collections.unmodifiableMap(m);
  }

  /** Returns v as the bits of a DAP uint64, refusing a value outside [0, 2^64). */
  static long uint64(String name, BigInteger v) {
    if (v.signum() < 0 || v.bitLength() > 64) {
      throw new IllegalArgumentException(name + ": " + v + " does not fit the uint64 of DAP-18's"
          + " VDAF configuration encoding");
    }
    return v.longValue();
  }

  /** Refuses a length below 1, naming the parameter. */
  static void checkLength(String name, int length) {
    if (length < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, got " + length);
    }
  }

  /** Refuses a maximum outside [1, p) for the field, naming the parameter. */
  static void checkMax(String name, BigInteger max, PrimeField field) {
    Objects.requireNonNull(max, name);
    if (max.signum() <= 0 || max.compareTo(field.modulus()) >= 0) {
      throw new IllegalArgumentException(
          name + " must be in [1, p) for " + field.name() + ", got " + max);
    }
  }

  /** Refuses an encoded measurement longer than {@link Prio3Variant#MAX_MEAS_LEN}. */
  static void checkMeasLen(long measLen) {
    if (measLen > Prio3Variant.MAX_MEAS_LEN) {
      throw new IllegalArgumentException(
          "encoded measurement of " + measLen + " field elements exceeds the limit of " + Prio3Variant.MAX_MEAS_LEN);
    }
  }

  /** Refuses a chunk length outside [1, MEAS_LEN]. */
  static void checkChunk(int chunkLength, long measLen) {
    if (chunkLength < 1 || chunkLength > measLen) {
      throw new IllegalArgumentException(
          "chunk_length must be in [1, " + measLen + "] (the encoded measurement length), got "
              + chunkLength);
    }
  }
}
