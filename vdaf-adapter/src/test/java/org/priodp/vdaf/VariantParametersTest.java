package org.priodp.vdaf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.priodp.field.Field64;

/** The shared parameter checks and the parameter table behind {@link Prio3Variant#parse}. */
class VariantParametersTest {

  private static void rejects(String fragment, Executable e) {
    IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
    assertTrue(ex.getMessage().contains(fragment), ex.getMessage());
  }

  @Test
  void everyNameHasItsParameters() {
    for (String name : Prio3Variant.names()) {
      List<String> names = VariantParameters.parameterNames(name);
      assertEquals(names.size(), names.stream().distinct().count(), name);
    }
    rejects("unknown VDAF 'Poplar1'", () -> VariantParameters.parameterNames("Poplar1"));
  }

  @Test
  void uint64TakesExactlyTheUnsigned64BitRange() {
    BigInteger max = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    assertEquals(-1L, VariantParameters.uint64("x", max));
    assertEquals(0L, VariantParameters.uint64("x", BigInteger.ZERO));
    rejects("x: 18446744073709551616", () -> VariantParameters.uint64("x", max.add(BigInteger.ONE)));
    rejects("x: -1", () -> VariantParameters.uint64("x", BigInteger.ONE.negate()));
  }

  @Test
  void boundsAreInclusiveWhereTheSpecificationSaysSo() {
    VariantParameters.checkLength("length", 1);
    rejects("length must be >= 1, got 0", () -> VariantParameters.checkLength("length", 0));
    VariantParameters.checkMax("m", Field64.FIELD.modulus().subtract(BigInteger.ONE), Field64.FIELD);
    rejects("m must be in [1, p) for Field64", () -> VariantParameters.checkMax("m", Field64.FIELD.modulus(), Field64.FIELD));
    rejects("m must be in [1, p)", () -> VariantParameters.checkMax("m", BigInteger.ZERO, Field64.FIELD));
    VariantParameters.checkMeasLen(Prio3Variant.MAX_MEAS_LEN);
    rejects("exceeds the limit", () -> VariantParameters.checkMeasLen(Prio3Variant.MAX_MEAS_LEN + 1L));
    VariantParameters.checkChunk(5, 5);
    rejects("chunk_length must be in [1, 5]", () -> VariantParameters.checkChunk(6, 5));
    rejects("chunk_length must be in [1, 5]", () -> VariantParameters.checkChunk(0, 5));
  }

  @Test
  void orderedKeepsTheGivenOrder() {
    Map<String, String> m = VariantParameters.ordered("b", 2, "a", BigInteger.TEN);
    assertEquals(List.of("b", "a"), List.copyOf(m.keySet()));
    assertEquals("10", m.get("a"));
    assertThrows(UnsupportedOperationException.class, () -> m.put("c", "3"));
  }
}
