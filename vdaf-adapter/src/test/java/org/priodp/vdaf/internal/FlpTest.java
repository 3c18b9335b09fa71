package org.priodp.vdaf.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.XofTurboShake128;

/**
 * The FLP of section "FLP Specification", run as the specification's {@code run_flp}: valid
 * measurements are accepted for 1 to 3 shares; invalid encodings and altered proofs are rejected.
 */
class FlpTest {
  private static int counter;

  private static long[] random(PrimeField f, int n) {
    return XofTurboShake128.expandIntoVec(
        f, new byte[32], ("FlpTest " + counter++).getBytes(StandardCharsets.UTF_8), new byte[0], n);
  }

  private static List<BigInteger> ints(long... v) {
    return java.util.Arrays.stream(v).mapToObj(BigInteger::valueOf).toList();
  }

  static Stream<Arguments> circuits() {
    return Stream.of(
        Arguments.of(new Circuits.Count(Field64.FIELD), ints(1)),
        Arguments.of(new Circuits.Sum(Field64.FIELD, BigInteger.valueOf(100)), ints(77)),
        Arguments.of(new Circuits.SumVec(Field128.FIELD, 3, BigInteger.valueOf(9), 4), ints(9, 0, 5)),
        Arguments.of(new Circuits.Histogram(Field128.FIELD, 7, 3), ints(6)),
        Arguments.of(new Circuits.MultihotCountVec(Field128.FIELD, 5, 2, 2), ints(0, 1, 0, 0, 1)),
        Arguments.of(new Circuits.L1BoundSum(Field128.FIELD, 4, BigInteger.valueOf(10), 3), ints(0, 7, 0, 3)),
        Arguments.of(new Circuits.L1BoundSum(Field128.FIELD, 1, BigInteger.ONE, 1), ints(1)),
        Arguments.of(new Circuits.HigherDegree(), ints(2)));
  }

  /** The specification's run_flp on an encoded measurement, with an optional proof change. */
  static boolean runFlp(Circuit c, long[] meas, int numShares, boolean alterProof) {
    PrimeField f = c.field();
    Flp flp = new Flp(c);
    long[] jointRand = random(f, c.jointRandLen());
    long[] proveRand = random(f, c.proveRandLen());
    long[] queryRand = random(f, c.queryRandLen());
    long[] proof = flp.prove(meas, proveRand, jointRand);
    assertEquals(c.proofLen(), f.length(proof));
    if (alterProof) {
      long[] one = f.newArray(1);
      f.setSigned(one, 0, 1);
      f.add(proof, f.length(proof) - 1, one, 0, proof, f.length(proof) - 1);
    }
    long[] measLeft = meas.clone();
    long[] proofLeft = proof.clone();
    long[] verifier = f.newArray(c.verifierLen());
    for (int s = 0; s < numShares; s++) {
      long[] measShare = s == numShares - 1 ? measLeft : random(f, c.measLen());
      long[] proofShare = s == numShares - 1 ? proofLeft : random(f, c.proofLen());
      if (s < numShares - 1) {
        f.subVec(measLeft, measShare, measLeft, c.measLen());
        f.subVec(proofLeft, proofShare, proofLeft, c.proofLen());
      }
      long[] share = flp.query(measShare, proofShare, queryRand, jointRand, numShares);
      assertEquals(c.verifierLen(), f.length(share));
      f.addVec(verifier, share, verifier, c.verifierLen());
    }
    return flp.decide(verifier);
  }

  @ParameterizedTest
  @MethodSource("circuits")
  void validMeasurementsAreAcceptedForAnyNumberOfShares(Circuit c, List<BigInteger> meas) {
    for (int shares = 1; shares <= 3; shares++) {
      assertTrue(runFlp(c, c.encode(meas), shares, false), c + " with " + shares + " shares");
    }
  }

  @ParameterizedTest
  @MethodSource("circuits")
  void anAlteredProofIsRejected(Circuit c, List<BigInteger> meas) {
    assertFalse(runFlp(c, c.encode(meas), 2, true), c.toString());
  }

  @ParameterizedTest
  @MethodSource("circuits")
  void anInvalidEncodingIsRejected(Circuit c, List<BigInteger> meas) {
    // Adding 2 to the first element leaves the set {0, 1} (and {0, 1, 2} for HigherDegree: 2 + 2).
    long[] bad = c.encode(meas);
    long[] two = c.field().newArray(1);
    c.field().setSigned(two, 0, 2);
    c.field().add(bad, 0, two, 0, bad, 0);
    assertFalse(runFlp(c, bad, 2, false), c.toString());
  }

  @Test
  void theWeightAndOneHotChecksCatchBitValidEncodings() {
    Circuit hist = new Circuits.Histogram(Field128.FIELD, 4, 2);
    long[] twoHot = hist.encode(ints(1));
    hist.field().set(twoHot, 3, BigInteger.ONE);
    assertFalse(runFlp(hist, twoHot, 2, false));
    long[] zeroHot = hist.field().newArray(4);
    assertFalse(runFlp(hist, zeroHot, 2, false));
    Circuit multihot = new Circuits.MultihotCountVec(Field128.FIELD, 4, 2, 3);
    long[] wrongWeight = multihot.encode(ints(1, 1, 0, 0));
    multihot.field().set(wrongWeight, 2, BigInteger.ONE); // three set, weight claims two
    assertFalse(runFlp(multihot, wrongWeight, 2, false));
  }

  /**
   * Prio3L1BoundSum: bit-valid encodings whose claimed weight is not the sum of the components
   * are rejected, whether the true sum exceeds max_value (7 + 7 > 10, claiming 10) or not (claiming
   * 3 for 2); the honest encoding at the bound is accepted.
   */
  @Test
  void theL1BoundSumWeightCheckCatchesAWeightThatLies() {
    BigInteger max = BigInteger.valueOf(10); // bits 4: weights 1, 2, 4, 3
    Circuits.L1BoundSum c = new Circuits.L1BoundSum(Field128.FIELD, 3, max, 5);
    RangeCheckedInt enc = new RangeCheckedInt(Field128.FIELD, max);
    assertEquals(16, c.measLen());
    assertTrue(runFlp(c, c.encode(ints(7, 0, 3)), 2, false));
    long[] overTheBound = c.encode(ints(7, 0, 3)); // weight 10
    enc.encode(BigInteger.valueOf(7), overTheBound, 4); // components 7, 7, 3: sum 17
    assertFalse(runFlp(c, overTheBound, 2, false));
    long[] underClaimed = c.encode(ints(1, 1, 0));
    enc.encode(BigInteger.valueOf(3), underClaimed, 12);
    assertFalse(runFlp(c, underClaimed, 2, false));
    // the circuit's outputs themselves: range check 0 on bits, weight check = sum - claimed
    long[] out = c.eval(overTheBound, c.field().newArray(c.jointRandLen()), 1,
        new Circuit.GadgetCall[] {(inp, o, oi) -> java.util.Arrays.fill(o, oi * 2, oi * 2 + 2, 0L)});
    assertEquals(BigInteger.valueOf(7), c.field().get(out, 1), "weight check 17 - 10");
  }

  @Test
  void lengthsMatchTheOfficialVectors() {
    // Prio3Count: leader share = 1 + 5 Field64 elements, verifier 4; Prio3Sum(255): 8 + 32, 3.
    Circuit count = new Circuits.Count(Field64.FIELD);
    assertEquals(5, count.proofLen());
    assertEquals(4, count.verifierLen());
    Circuit sum = new Circuits.Sum(Field64.FIELD, BigInteger.valueOf(255));
    assertEquals(32, sum.proofLen());
    assertEquals(3, sum.verifierLen());
    assertEquals(9, sum.queryRandLen());
    // Prio3L1BoundSum(length 10, max_value 240, chunk_length 9): MEAS_LEN 88, 10 calls, leader
    // share 88 + 49 elements (2224 bytes with the blind), verifier share 20 elements and the
    // 32-byte joint randomness part (352 bytes).
    Circuit l1 = new Circuits.L1BoundSum(Field128.FIELD, 10, BigInteger.valueOf(240), 9);
    assertEquals(88, l1.measLen());
    assertEquals(10, l1.jointRandLen());
    assertEquals(49, l1.proofLen());
    assertEquals(20, l1.verifierLen());
    assertEquals(2, l1.evalOutputLen());
    assertEquals(10, l1.outputLen());
    Circuit higher = new Circuits.HigherDegree();
    assertEquals(5, higher.proofLen());
    assertEquals(3, higher.verifierLen());
  }
}
