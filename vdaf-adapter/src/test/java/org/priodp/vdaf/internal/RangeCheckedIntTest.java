package org.priodp.vdaf.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.VdafException;

/** The weighted bit encoding of section "Prio3Sum": exact round trips and range checks. */
class RangeCheckedIntTest {

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 7, 8, 100, 255, 256, 1000})
  void everyValueInRangeRoundTripsThroughBits(long max) {
    for (PrimeField f : new PrimeField[] {Field64.FIELD, Field128.FIELD}) {
      RangeCheckedInt e = new RangeCheckedInt(f, BigInteger.valueOf(max));
      assertEquals(BigInteger.valueOf(max).bitLength(), e.bits());
      long[] enc = f.newArray(e.bits());
      long[] dec = f.newArray(1);
      for (long v = 0; v <= max; v++) {
        e.encode(BigInteger.valueOf(v), enc, 0);
        for (int i = 0; i < e.bits(); i++) {
          BigInteger b = f.get(enc, i);
          assertTrue(b.equals(BigInteger.ZERO) || b.equals(BigInteger.ONE), "bit " + i + " of " + v);
        }
        e.decode(enc, 0, dec, 0);
        assertEquals(BigInteger.valueOf(v), f.get(dec, 0), "value " + v + " of max " + max);
      }
      assertThrows(VdafException.class, () -> e.encode(BigInteger.valueOf(max + 1), enc, 0));
      assertThrows(VdafException.class, () -> e.encode(BigInteger.valueOf(-1), enc, 0));
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 5, 255})
  void allOnesDecodesToMaxMeasurement(long max) {
    PrimeField f = Field64.FIELD;
    RangeCheckedInt e = new RangeCheckedInt(f, BigInteger.valueOf(max));
    long[] ones = f.newArray(e.bits());
    for (int i = 0; i < e.bits(); i++) {
      f.set(ones, i, BigInteger.ONE);
    }
    long[] dec = f.newArray(1);
    e.decode(ones, 0, dec, 0);
    assertEquals(BigInteger.valueOf(max), f.get(dec, 0));
  }

  /** decodeVector decodes consecutive encodings and leaves out what follows (a claimed weight). */
  @org.junit.jupiter.api.Test
  void decodeVectorDecodesEachEncodingAndIgnoresTheRest() {
    PrimeField f = Field128.FIELD;
    RangeCheckedInt e = new RangeCheckedInt(f, BigInteger.valueOf(240)); // 8 elements each
    long[] enc = f.newArray(4 * 8);
    long[] values = {240, 0, 17, 223};
    for (int i = 0; i < values.length; i++) {
      e.encode(BigInteger.valueOf(values[i]), enc, i * 8);
    }
    long[] three = e.decodeVector(enc, 3);
    assertEquals(3, f.length(three));
    for (int i = 0; i < 3; i++) {
      assertEquals(BigInteger.valueOf(values[i]), f.get(three, i), "element " + i);
    }
    assertEquals(0, f.length(e.decodeVector(enc, 0)));
  }

  /** decode is the weighted sum for any elements (shares are not bits), against BigInteger. */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 5, 255, 256, 1000})
  void decodeIsTheWeightedSumOfArbitraryElements(long max) {
    long seed = 0x72636900L + max;
    System.out.println("RangeCheckedIntTest.decodeIsTheWeightedSumOfArbitraryElements seed = " + seed);
    java.util.Random rnd = new java.util.Random(seed);
    for (org.priodp.field.PrimeField f :
        new org.priodp.field.PrimeField[] {org.priodp.field.Field64.FIELD, org.priodp.field.Field128.FIELD}) {
      RangeCheckedInt r = new RangeCheckedInt(f, BigInteger.valueOf(max));
      int bits = r.bits();
      BigInteger p = f.modulus();
      for (int trial = 0; trial < 20; trial++) {
        long[] enc = f.newArray(bits + 1);
        BigInteger want = BigInteger.ZERO;
        for (int l = 0; l < bits; l++) {
          BigInteger x = new BigInteger(p.bitLength() + 8, rnd).mod(p);
          f.set(enc, l + 1, x);
          BigInteger weight =
              l < bits - 1
                  ? BigInteger.ONE.shiftLeft(l)
                  : BigInteger.valueOf(max).subtract(BigInteger.ONE.shiftLeft(bits - 1)).add(BigInteger.ONE);
          want = want.add(weight.multiply(x));
        }
        long[] out = f.newArray(2);
        r.decode(enc, 1, out, 1);
        assertEquals(want.mod(p), f.get(out, 1), f.name() + " max " + max + " trial " + trial);
      }
    }
  }
}
