package org.priodp.vdaf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.FieldVector;

/** The Prio3 parameter types: derived lengths and ids, and rejection of every bad parameter. */
class Prio3VariantTest {
  private static final BigInteger P64 = Field64.FIELD.modulus();
  private static final BigInteger P128 = Field128.FIELD.modulus();

  private static void rejects(String expectedFragment, Executable e) {
    IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
    assertTrue(ex.getMessage().contains(expectedFragment), ex.getMessage());
  }

  @Test
  void derivedParameters() {
    Prio3Variant.Count c = new Prio3Variant.Count();
    assertEquals(1, c.algorithm().id());
    assertEquals(Field64.FIELD, c.field());
    assertEquals(1, c.outputLength());

    Prio3Variant.Sum s = new Prio3Variant.Sum(BigInteger.valueOf(255));
    assertEquals(2, s.algorithm().id());
    assertEquals(8, s.measurementLength());

    Prio3Variant.SumVec v = Prio3Variant.SumVec.of(10, BigInteger.valueOf(5), 3);
    assertEquals(3, v.algorithm().id());
    assertEquals(Field128.FIELD, v.field());
    assertEquals(30, v.measurementLength());
    assertEquals(10, v.outputLength());
    Prio3Variant.SumVec m = Prio3Variant.SumVec.field64Multiproof(10, BigInteger.valueOf(255), 9, 3);
    assertEquals(0xFFFFFFFFL, m.algorithm().id());
    assertEquals(3, m.proofs());

    Prio3Variant.Histogram h = new Prio3Variant.Histogram(4, 2);
    assertEquals(4, h.algorithm().id());
    assertEquals(4, h.outputLength());

    Prio3Variant.MultihotCountVec mh = new Prio3Variant.MultihotCountVec(10, 2, 3);
    assertEquals(5, mh.algorithm().id());
    assertEquals(12, mh.measurementLength());
  }

  @Test
  void sumRejectsBadMaxMeasurement() {
    rejects("max_measurement", () -> new Prio3Variant.Sum(BigInteger.ZERO));
    rejects("max_measurement", () -> new Prio3Variant.Sum(BigInteger.valueOf(-1)));
    rejects("max_measurement", () -> new Prio3Variant.Sum(P64));
    assertThrows(NullPointerException.class, () -> new Prio3Variant.Sum(null));
    new Prio3Variant.Sum(P64.subtract(BigInteger.ONE)); // largest accepted
  }

  @Test
  void sumVecRejectsEveryBadParameter() {
    BigInteger max = BigInteger.valueOf(255);
    rejects("length", () -> Prio3Variant.SumVec.of(0, max, 1));
    rejects("length", () -> Prio3Variant.SumVec.of(-3, max, 1));
    rejects("max_measurement", () -> Prio3Variant.SumVec.of(4, BigInteger.ZERO, 1));
    rejects("max_measurement", () -> Prio3Variant.SumVec.of(4, P128, 1));
    rejects("max_measurement", () -> Prio3Variant.SumVec.field64Multiproof(4, P64, 1, 3));
    rejects("chunk_length", () -> Prio3Variant.SumVec.of(4, max, 0));
    rejects("chunk_length", () -> Prio3Variant.SumVec.of(4, max, 33)); // MEAS_LEN = 32
    rejects("exceeds the limit", () -> Prio3Variant.SumVec.of(1 << 22, max, 1));
    rejects("proofs", () -> Prio3Variant.SumVec.field64Multiproof(4, max, 2, 0));
    rejects("proofs", () -> Prio3Variant.SumVec.field64Multiproof(4, max, 2, 256));
    rejects("1 proof", () -> new Prio3Variant.SumVec(4, max, 2, Field128.FIELD, 2));
  }

  @Test
  void histogramRejectsEveryBadParameter() {
    rejects("length", () -> new Prio3Variant.Histogram(0, 1));
    rejects("chunk_length", () -> new Prio3Variant.Histogram(4, 0));
    rejects("chunk_length", () -> new Prio3Variant.Histogram(4, 5));
    rejects("exceeds the limit", () -> new Prio3Variant.Histogram((1 << 24) + 1, 1));
  }

  @Test
  void multihotRejectsEveryBadParameter() {
    rejects("length", () -> new Prio3Variant.MultihotCountVec(0, 1, 1));
    rejects("max_weight", () -> new Prio3Variant.MultihotCountVec(4, 0, 1));
    rejects("max_weight", () -> new Prio3Variant.MultihotCountVec(4, 5, 1));
    rejects("chunk_length", () -> new Prio3Variant.MultihotCountVec(4, 2, 0));
    rejects("chunk_length", () -> new Prio3Variant.MultihotCountVec(4, 2, 7)); // MEAS_LEN = 6
  }

  @Test
  void decodeAggregateChecksFieldAndLength() {
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(3, 1);
    assertEquals(List.of(BigInteger.ONE, BigInteger.TWO, BigInteger.ZERO),
        h.decodeAggregate(FieldVector.fromSigned(Field128.FIELD, 1, 2, 0)));
    rejects("Field128", () -> h.decodeAggregate(FieldVector.fromSigned(Field64.FIELD, 1, 2, 0)));
    rejects("3 elements", () -> h.decodeAggregate(FieldVector.fromSigned(Field128.FIELD, 1, 2)));
  }
}
