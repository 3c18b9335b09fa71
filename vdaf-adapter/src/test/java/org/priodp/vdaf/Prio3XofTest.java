package org.priodp.vdaf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.priodp.field.Field128;
import org.priodp.field.Field64;

/**
 * The auxiliary functions of Prio3 (the official vectors, in the conformance module, check every
 * derived value): the layout of the domain separation tag, the lengths PROOFS multiplies, and
 * the slicing of one proof's part.
 */
class Prio3XofTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void theDomainSeparationTagIsVersionClassIdUsageAndContext() {
    Prio3Xof count = new Prio3Xof(new Prio3Variant.Count().circuit(), 1, 1);
    // VERSION 18, class 0 (VDAF), uint32 algorithm id, uint16 usage, then ctx
    assertEquals("1200000000010004abcd", HEX.formatHex(
        count.dst(Prio3Xof.USAGE_PROVE_RANDOMNESS, HEX.parseHex("abcd"))));
    Prio3Xof multiproof = new Prio3Xof(
        Prio3Variant.SumVec.field64Multiproof(2, BigInteger.ONE, 1, 3).circuit(), 0xFFFFFFFFL, 3);
    assertEquals("1200ffffffff0007", HEX.formatHex(multiproof.dst(Prio3Xof.USAGE_JOINT_RAND_PART, new byte[0])));
  }

  @Test
  void eachDerivationHasPROOFSTimesTheCircuitsLength() {
    Prio3Variant v = Prio3Variant.SumVec.field64Multiproof(3, BigInteger.valueOf(7), 2, 3);
    var c = v.circuit();
    Prio3Xof xof = new Prio3Xof(c, v.algorithmId(), 3);
    byte[] seed = new byte[XofTurboShake128.SEED_SIZE];
    byte[] nonce = new byte[Prio3.NONCE_SIZE];
    byte[] ctx = new byte[0];
    assertEquals(c.measLen(), Field64.FIELD.length(xof.helperMeasShare(ctx, 1, seed)));
    assertEquals(3 * c.proofLen(), Field64.FIELD.length(xof.helperProofsShare(ctx, 1, seed)));
    assertEquals(3 * c.proveRandLen(), Field64.FIELD.length(xof.proveRands(ctx, seed)));
    assertEquals(3 * c.queryRandLen(), Field64.FIELD.length(xof.queryRands(seed, ctx, nonce)));
    assertEquals(3 * c.jointRandLen(), Field64.FIELD.length(xof.jointRands(ctx, seed)));
    assertEquals(XofTurboShake128.SEED_SIZE,
        xof.jointRandPart(ctx, 0, seed, xof.helperMeasShare(ctx, 1, seed), nonce).length);
    assertEquals(XofTurboShake128.SEED_SIZE, xof.jointRandSeed(ctx, new byte[][] {seed, seed}).length);
    // the aggregator id is bound: helper 1 and helper 2 expand the same seed differently
    assertFalse(Arrays.equals(xof.helperMeasShare(ctx, 1, seed), xof.helperMeasShare(ctx, 2, seed)));
  }

  @Test
  void sliceTakesOneProofsElements() {
    long[] v = Field128.FIELD.newArray(6);
    for (int i = 0; i < 6; i++) {
      Field128.FIELD.set(v, i, BigInteger.valueOf(i));
    }
    long[] part = Prio3Xof.slice(Field128.FIELD, v, 2, 3);
    assertEquals(3, Field128.FIELD.length(part));
    assertArrayEquals(Arrays.copyOfRange(v, 2 * Field128.FIELD.words(), 5 * Field128.FIELD.words()), part);
    assertEquals(BigInteger.valueOf(4), Field128.FIELD.get(part, 2));
  }
}
