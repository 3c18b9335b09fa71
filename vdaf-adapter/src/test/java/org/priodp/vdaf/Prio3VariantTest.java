package org.priodp.vdaf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.dp.Sensitivity;
import org.priodp.vdaf.dp.SensitivityRule;
import org.priodp.vdaf.internal.Circuit;

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

    // draft-ietf-ppm-l1-bound-sum-02: id 7, Field128, one proof, MEAS_LEN (length + 1) * bits
    Prio3Variant.L1BoundSum l1 = new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9);
    assertEquals(7, l1.algorithm().id());
    assertEquals(Field128.FIELD, l1.field());
    assertEquals(1, l1.proofs());
    assertEquals(8, l1.bits());
    assertEquals(88, l1.measurementLength());
    assertEquals(10, l1.outputLength());
    assertEquals(2, new Prio3Variant.L1BoundSum(1, BigInteger.ONE, 1).measurementLength());
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
  void l1BoundSumRejectsEveryBadParameter() {
    BigInteger max = BigInteger.valueOf(240);
    rejects("length must be >= 1", () -> new Prio3Variant.L1BoundSum(0, max, 1));
    rejects("max_value must be in [1, p) for Field128", () -> new Prio3Variant.L1BoundSum(4, BigInteger.ZERO, 1));
    rejects("max_value must be in [1, p)", () -> new Prio3Variant.L1BoundSum(4, BigInteger.valueOf(-5), 1));
    rejects("max_value must be in [1, p)", () -> new Prio3Variant.L1BoundSum(4, P128, 1));
    assertThrows(NullPointerException.class, () -> new Prio3Variant.L1BoundSum(4, null, 1));
    rejects("chunk_length must be in [1, 40]", () -> new Prio3Variant.L1BoundSum(4, max, 0));
    rejects("chunk_length must be in [1, 40]", () -> new Prio3Variant.L1BoundSum(4, max, 41)); // 5 * 8
    new Prio3Variant.L1BoundSum(4, max, 40);
    rejects("exceeds the limit", () -> new Prio3Variant.L1BoundSum(1 << 21, max, 1)); // 8 * (2^21 + 1)
    rejects("exceeds the limit", () -> new Prio3Variant.L1BoundSum(Integer.MAX_VALUE, max, 1));
    new Prio3Variant.L1BoundSum(2, P128.subtract(BigInteger.ONE), 1); // any max_value below p
  }

  @Test
  void decodeAggregateChecksFieldAndLength() {
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(3, 1);
    assertEquals(List.of(BigInteger.ONE, BigInteger.TWO, BigInteger.ZERO),
        h.decodeAggregate(FieldVector.fromSigned(Field128.FIELD, 1, 2, 0)));
    rejects("Field128", () -> h.decodeAggregate(FieldVector.fromSigned(Field64.FIELD, 1, 2, 0)));
    rejects("3 elements", () -> h.decodeAggregate(FieldVector.fromSigned(Field128.FIELD, 1, 2)));
  }

  // ------------------------------------------------------------------ names and parameters

  static List<Prio3Variant> examples() {
    return List.of(new Prio3Variant.Count(), new Prio3Variant.Sum(BigInteger.valueOf(255)),
        Prio3Variant.SumVec.of(10, BigInteger.valueOf(255), 9),
        Prio3Variant.SumVec.field64Multiproof(3, BigInteger.valueOf(65535), 7, 3),
        Prio3Variant.SumVec.field64Multiproof(3, BigInteger.valueOf(65535), 7, 1),
        new Prio3Variant.Histogram(4, 2), new Prio3Variant.MultihotCountVec(10, 2, 3),
        new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9));
  }

  @Test
  void parseReadsBackWhatParametersWrite() {
    for (Prio3Variant v : examples()) {
      assertEquals(v, Prio3Variant.parse(v.specName(), v.parameters()), v.describe());
      assertEquals(Prio3Variant.parameterNames(v.specName()), List.copyOf(v.parameters().keySet()));
    }
  }

  @Test
  void namesAndDescriptions() {
    assertEquals(List.of("Prio3Count", "Prio3Sum", "Prio3SumVec", "Prio3Histogram", "Prio3MultihotCountVec",
        "Prio3L1BoundSum", "Prio3SumVecWithMultiproof"), Prio3Variant.names());
    assertEquals("Prio3Count", new Prio3Variant.Count().describe());
    assertEquals("Prio3Sum(max_measurement=255)", new Prio3Variant.Sum(BigInteger.valueOf(255)).describe());
    assertEquals("Prio3SumVec(length=10, max_measurement=255, chunk_length=9)",
        Prio3Variant.SumVec.of(10, BigInteger.valueOf(255), 9).describe());
    assertEquals("Prio3SumVecWithMultiproof(length=3, max_measurement=65535, chunk_length=7, proofs=3)",
        Prio3Variant.SumVec.field64Multiproof(3, BigInteger.valueOf(65535), 7, 3).describe());
    assertEquals("Prio3Histogram(length=4, chunk_length=2)", new Prio3Variant.Histogram(4, 2).describe());
    assertEquals("Prio3MultihotCountVec(length=10, max_weight=2, chunk_length=3)",
        new Prio3Variant.MultihotCountVec(10, 2, 3).describe());
    assertEquals("Prio3L1BoundSum(length=10, max_value=240, chunk_length=9)",
        new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9).describe());
    assertEquals(new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9), Prio3Variant.parse("Prio3L1BoundSum",
        Map.of("length", "10", "max_value", "240", "chunk_length", "9")));
    assertTrue(Prio3Algorithm.L1_BOUND_SUM.registered());
    assertEquals(0xFFFFFFFFL, Prio3Variant.SumVec.field64Multiproof(3, BigInteger.TEN, 7, 3).algorithmId());
    assertTrue(Prio3Algorithm.HISTOGRAM.registered());
    assertFalse(Prio3Algorithm.SUM_VEC_FIELD64_MULTIPROOF.registered());
  }

  @Test
  void parseDefaultsTheMultiproofProofsToThree() {
    assertEquals(Prio3Variant.SumVec.field64Multiproof(3, BigInteger.valueOf(65535), 7, 3),
        Prio3Variant.parse("Prio3SumVecWithMultiproof",
            Map.of("length", "3", "max_measurement", "65535", "chunk_length", " 7 ")));
  }

  @Test
  void parseErrorsNameTheParameterAsTheCallerSpellsIt() {
    UnaryOperator<String> cli = k -> "--" + k.replace('_', '-');
    rejects("unknown VDAF 'Prio3Hist' (Prio3Count, Prio3Sum",
        () -> Prio3Variant.parse("Prio3Hist", Map.of()));
    rejects("--max-weight does not apply to Prio3Histogram (it takes length, chunk_length)",
        () -> Prio3Variant.parse("Prio3Histogram", Map.of("length", "4", "chunk_length", "2", "max_weight", "1"), cli));
    rejects("max_weight does not apply to Prio3Count (it takes no parameters)",
        () -> Prio3Variant.parse("Prio3Count", Map.of("max_weight", "1")));
    rejects("Prio3Histogram needs --length",
        () -> Prio3Variant.parse("Prio3Histogram", Map.of("chunk_length", "2"), cli));
    rejects("length: 'x' is not an integer",
        () -> Prio3Variant.parse("Prio3Histogram", Map.of("length", "x", "chunk_length", "2")));
    rejects("length: '99999999999' is not an integer in the int range",
        () -> Prio3Variant.parse("Prio3Histogram", Map.of("length", "99999999999", "chunk_length", "2")));
    rejects("chunk_length must be in [1, 4]",
        () -> Prio3Variant.parse("Prio3Histogram", Map.of("length", "4", "chunk_length", "5")));
    rejects("max_measurement must be in [1, p)",
        () -> Prio3Variant.parse("Prio3Sum", Map.of("max_measurement", "0")));
    rejects("Prio3L1BoundSum needs --max-value",
        () -> Prio3Variant.parse("Prio3L1BoundSum", Map.of("length", "4", "chunk_length", "2"), cli));
    rejects("--max-measurement does not apply to Prio3L1BoundSum (it takes length, max_value, chunk_length)",
        () -> Prio3Variant.parse("Prio3L1BoundSum",
            Map.of("length", "4", "max_measurement", "9", "chunk_length", "2"), cli));
  }

  @Test
  void vdafConfigurationIsTheDap18Encoding() {
    HexFormat hex = HexFormat.of();
    assertEquals("", hex.formatHex(new Prio3Variant.Count().vdafConfiguration()));
    assertEquals("00000000000000ff", hex.formatHex(new Prio3Variant.Sum(BigInteger.valueOf(255)).vdafConfiguration()));
    assertEquals("ffffffff00000000",
        hex.formatHex(new Prio3Variant.Sum(P64.subtract(BigInteger.ONE)).vdafConfiguration()));
    // uint32 length, uint64 max_measurement, uint32 chunk_length
    assertEquals("0000000a00000000000000ff00000009",
        hex.formatHex(Prio3Variant.SumVec.of(10, BigInteger.valueOf(255), 9).vdafConfiguration()));
    assertEquals("00000003ffffffffffffffff00000007", hex.formatHex(Prio3Variant.SumVec.of(3,
        BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE), 7).vdafConfiguration()));
    // the multiproof SumVec appends uint8 proofs
    assertEquals("00000003000000000000ffff0000000703", hex.formatHex(
        Prio3Variant.SumVec.field64Multiproof(3, BigInteger.valueOf(65535), 7, 3).vdafConfiguration()));
    // uint32 length, uint32 chunk_length
    assertEquals("0000000400000002", hex.formatHex(new Prio3Variant.Histogram(4, 2).vdafConfiguration()));
    assertEquals("000186a00000013c", hex.formatHex(new Prio3Variant.Histogram(100000, 316).vdafConfiguration()));
    // uint32 length, uint32 chunk_length, uint64 max_weight
    assertEquals("0000000a000000030000000000000002",
        hex.formatHex(new Prio3Variant.MultihotCountVec(10, 2, 3).vdafConfiguration()));
    // Prio3L1BoundSumConfig (draft-ietf-ppm-l1-bound-sum-02, section 4): uint32 length, uint64
    // max_value, uint32 chunk_length
    assertEquals("0000000a00000000000000f000000009",
        hex.formatHex(new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9).vdafConfiguration()));
    assertEquals("00000001ffffffffffffffff00000041", hex.formatHex(new Prio3Variant.L1BoundSum(1,
        BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE), 65).vdafConfiguration()));
    rejects("does not fit the uint64", () -> Prio3Variant.SumVec.of(1, BigInteger.ONE.shiftLeft(64), 1).vdafConfiguration());
    rejects("max_value: 18446744073709551616 does not fit the uint64",
        () -> new Prio3Variant.L1BoundSum(1, BigInteger.ONE.shiftLeft(64), 1).vdafConfiguration());
  }

  @Test
  void maxContributionIsTheLargestValueOneMeasurementAdds() {
    assertEquals(BigInteger.ONE, new Prio3Variant.Count().maxContribution());
    assertEquals(BigInteger.valueOf(7), new Prio3Variant.Sum(BigInteger.valueOf(7)).maxContribution());
    assertEquals(BigInteger.valueOf(5), Prio3Variant.SumVec.of(2, BigInteger.valueOf(5), 1).maxContribution());
    assertEquals(BigInteger.ONE, new Prio3Variant.Histogram(4, 2).maxContribution());
    assertEquals(BigInteger.ONE, new Prio3Variant.MultihotCountVec(4, 2, 2).maxContribution());
    // one component may carry the whole L1 bound
    assertEquals(BigInteger.valueOf(240), new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9).maxContribution());
  }

  // ------------------------------------------------------------------ what each variant answers

  private static List<BigInteger> ints(long... v) {
    return java.util.Arrays.stream(v).mapToObj(BigInteger::valueOf).toList();
  }

  @Test
  void eachVariantBuildsItsCircuit() {
    for (Prio3Variant v : examples()) {
      Circuit c = v.circuit();
      assertEquals(v.field(), c.field(), v.describe());
      assertEquals(v.measurementLength(), c.measLen(), v.describe());
      assertEquals(v.outputLength(), c.outputLen(), v.describe());
      assertTrue(c != v.circuit(), "a new circuit on each call");
    }
    // the circuit encodes the variant's measurements: Sum(255) as 8 bits, Histogram as one-hot
    Circuit sum = new Prio3Variant.Sum(BigInteger.valueOf(255)).circuit();
    assertEquals(8, Field64.FIELD.length(sum.encode(ints(255))));
    Circuit histogram = new Prio3Variant.Histogram(4, 2).circuit();
    assertEquals(FieldVector.fromSigned(Field128.FIELD, 0, 0, 1, 0),
        FieldVector.ofWords(Field128.FIELD, histogram.encode(ints(2))));
  }

  @Test
  void eachVariantAnswersItsSensitivityUnderEitherRule() {
    for (Prio3Variant v : examples()) {
      for (SensitivityRule rule : SensitivityRule.values()) {
        Sensitivity s = v.sensitivity(rule);
        assertEquals(rule, s.rule());
        assertEquals(Sensitivity.of(v, rule), s, v.describe());
      }
      assertThrows(NullPointerException.class, () -> v.sensitivity(null), v.describe());
    }
    // only the SumVec differs between the rules: 2^bits - 1 = 7 in place of max_measurement 5
    Prio3Variant.SumVec v = Prio3Variant.SumVec.of(2, BigInteger.valueOf(5), 1);
    assertEquals(BigInteger.TEN, v.sensitivity(SensitivityRule.PRIODP).l1());
    assertEquals(BigInteger.valueOf(14), v.sensitivity(SensitivityRule.JANUS_COMPATIBLE).l1());
    Prio3Variant.Sum s = new Prio3Variant.Sum(BigInteger.valueOf(5));
    assertEquals(s.sensitivity(SensitivityRule.PRIODP), new Sensitivity(BigInteger.valueOf(5),
        BigInteger.valueOf(25), SensitivityRule.PRIODP));
    assertEquals(BigInteger.valueOf(5), s.sensitivity(SensitivityRule.JANUS_COMPATIBLE).l1());
    // L1BoundSum: max_value at one coordinate replaced by max_value at another, under either rule
    Prio3Variant.L1BoundSum l1 = new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9);
    for (SensitivityRule rule : SensitivityRule.values()) {
      assertEquals(new Sensitivity(BigInteger.valueOf(480), BigInteger.valueOf(2 * 240 * 240), rule),
          l1.sensitivity(rule));
    }
  }

  private static void refuses(Prio3Variant v, String text, String message) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> v.parseMeasurement(text), text);
    assertEquals(message, e.getMessage(), v.describe() + " '" + text + "'");
  }

  @Test
  void countParsesZeroOrOne() {
    Prio3Variant c = new Prio3Variant.Count();
    assertEquals(ints(1), c.parseMeasurement(" 1 "));
    assertEquals(ints(0), c.parseMeasurement("0"));
    assertEquals(ints(0), c.parseMeasurement("000"));
    refuses(c, "2", "expected 0 or 1, got 2");
    refuses(c, "-1", "expected 0 or 1");
    refuses(c, "", "expected 0 or 1");
    refuses(c, "1,0", "expected 0 or 1");
    refuses(c, "1" + "0".repeat(40), "expected 0 or 1");
    assertThrows(NullPointerException.class, () -> c.parseMeasurement(null));
  }

  @Test
  void sumParsesAnIntegerUpToMaxMeasurement() {
    Prio3Variant s = new Prio3Variant.Sum(BigInteger.valueOf(255));
    assertEquals(ints(255), s.parseMeasurement("255"));
    assertEquals(ints(0), s.parseMeasurement("\t0\n"));
    refuses(s, "256", "expected an integer in [0, 255], got 256");
    refuses(s, "-1", "expected an integer in [0, 255]");
    refuses(s, "+1", "expected an integer in [0, 255]");
    refuses(s, "1.5", "expected an integer in [0, 255]");
    refuses(s, "0x10", "expected an integer in [0, 255]");
  }

  @Test
  void histogramParsesABucketIndex() {
    Prio3Variant h = new Prio3Variant.Histogram(4, 2);
    assertEquals(ints(3), h.parseMeasurement("3"));
    assertEquals(ints(0), h.parseMeasurement(" 0"));
    refuses(h, "4", "expected a bucket index in [0, 4), got 4");
    refuses(h, "x", "expected a bucket index in [0, 4)");
    refuses(h, "0,1,0,0", "expected a bucket index in [0, 4)");
  }

  @Test
  void sumVecParsesLengthCommaSeparatedIntegers() {
    Prio3Variant v = Prio3Variant.SumVec.of(3, BigInteger.valueOf(9), 2);
    assertEquals(ints(1, 0, 9), v.parseMeasurement("1, 0,9"));
    assertEquals(ints(1, 0, 9), v.parseMeasurement(" 1 , 0 , 9 "));
    refuses(v, "1,2", "expected 3 comma-separated integers in [0, 9], got 2 values");
    refuses(v, "1", "expected 3 comma-separated integers in [0, 9], got 1 value");
    refuses(v, "1,2,3,", "expected 3 comma-separated integers in [0, 9], got 4 values");
    refuses(v, "1,10,2", "element 2: expected integers in [0, 9], got 10");
    refuses(v, "1,,2", "element 2: expected integers in [0, 9]");
    refuses(v, "a,1,2", "element 1: expected integers in [0, 9]");
    // the multiproof SumVec reads the same text
    assertEquals(ints(1, 0, 9), Prio3Variant.SumVec.field64Multiproof(3, BigInteger.valueOf(9), 2, 3)
        .parseMeasurement("1,0,9"));
  }

  @Test
  void multihotParsesBitsUpToMaxWeightOnes() {
    Prio3Variant m = new Prio3Variant.MultihotCountVec(4, 2, 2);
    assertEquals(ints(1, 0, 1, 0), m.parseMeasurement("1,0,1,0"));
    assertEquals(ints(0, 0, 0, 0), m.parseMeasurement("0,0,0,0"));
    refuses(m, "1,1,1,0", "3 ones, max_weight is 2");
    refuses(m, "1,2,0,0", "element 2: expected 0 or 1, got 2");
    refuses(m, "1,0,0", "expected 4 comma-separated 0 or 1, got 3 values");
  }

  @Test
  void l1BoundSumParsesLengthIntegersSummingToAtMostMaxValue() {
    Prio3Variant v = new Prio3Variant.L1BoundSum(4, BigInteger.valueOf(10), 3);
    assertEquals(ints(10, 0, 0, 0), v.parseMeasurement("10,0,0,0")); // one component at the bound
    assertEquals(ints(1, 2, 3, 4), v.parseMeasurement(" 1, 2 ,3,4 ")); // the sum at the bound
    assertEquals(ints(0, 0, 0, 0), v.parseMeasurement("0,0,0,0"));
    refuses(v, "1,2,3,5", "the sum 11 exceeds max_value 10");
    refuses(v, "10,0,0,1", "the sum 11 exceeds max_value 10");
    refuses(v, "0,11,0,0", "element 2: expected integers >= 0 summing to at most 10, got 11");
    refuses(v, "0,-1,0,0", "element 2: expected integers >= 0 summing to at most 10");
    refuses(v, "1,2,3", "expected 4 comma-separated integers >= 0 summing to at most 10, got 3 values");
    refuses(v, "1,2,3,4,0", "expected 4 comma-separated integers >= 0 summing to at most 10, got 5 values");
  }

  @Test
  void everyParsedMeasurementIsOnePrio3Shards() {
    String[] texts = {"1", "255", "9,0,9,1,2,3,4,5,6,7", "1,2,3", "1,2,3", "3", "1,0,0,0,0,0,0,0,0,1",
        "240,0,0,0,0,0,0,0,0,0"};
    List<Prio3Variant> variants = examples();
    for (int i = 0; i < variants.size(); i++) {
      Prio3Variant v = variants.get(i);
      List<BigInteger> m = v.parseMeasurement(texts[i]);
      Prio3 prio3 = new Prio3(v);
      assertEquals(prio3.shares(), prio3.shard(new byte[0], m, new byte[Prio3.NONCE_SIZE],
          new byte[prio3.randSize()]).inputShares().size(), v.describe());
    }
  }
}
