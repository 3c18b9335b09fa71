package org.priodp.noise.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EliasCodeTest {

  @ParameterizedTest
  @EnumSource(EliasCode.class)
  void everyIntegerUpToAMillionRoundTrips(EliasCode code) {
    BitWriter w = new BitWriter();
    long expectedBits = 0;
    for (long v = 1; v <= 1_000_000; v++) {
      code.write(w, v);
      expectedBits += code.length(v);
    }
    assertEquals(expectedBits, w.bitLength());
    BitReader r = new BitReader(w.toByteArray());
    for (long v = 1; v <= 1_000_000; v++) {
      assertEquals(v, code.read(r));
    }
    assertEquals(true, r.remaining() < 8 && r.restIsZero());
  }

  @Test
  void knownCodeWords() {
    String[][] gamma = {{"1", "1"}, {"2", "010"}, {"3", "011"}, {"4", "00100"}, {"17", "000010001"}};
    String[][] delta = {{"1", "1"}, {"2", "0100"}, {"3", "0101"}, {"4", "01100"}, {"17", "001010001"}};
    for (String[] c : gamma) {
      assertEquals(c[1], bits(EliasCode.GAMMA, Long.parseLong(c[0])));
    }
    for (String[] c : delta) {
      assertEquals(c[1], bits(EliasCode.DELTA, Long.parseLong(c[0])));
    }
  }

  private static String bits(EliasCode code, long v) {
    BitWriter w = new BitWriter();
    code.write(w, v);
    BitReader r = new BitReader(w.toByteArray());
    StringBuilder sb = new StringBuilder();
    for (long i = 0; i < w.bitLength(); i++) {
      sb.append(r.readBit());
    }
    return sb.toString();
  }

  @ParameterizedTest
  @EnumSource(EliasCode.class)
  void extremesAndRandomValuesRoundTrip(EliasCode code) {
    long seed = 0xE11A5L;
    System.out.println("extremesAndRandomValuesRoundTrip: seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] values = new long[2000];
    values[0] = 1;
    values[1] = Long.MAX_VALUE;
    values[2] = 1L << 62;
    values[3] = (1L << 62) - 1;
    values[4] = 2;
    for (int i = 5; i < values.length; i++) {
      values[i] = Math.max(1, rnd.nextLong() >>> rnd.nextInt(64));
    }
    BitWriter w = new BitWriter();
    for (long v : values) {
      code.write(w, v);
    }
    BitReader r = new BitReader(w.toByteArray());
    for (long v : values) {
      assertEquals(v, code.read(r));
    }
    assertEquals(code == EliasCode.GAMMA ? 125 : 73, code.length(Long.MAX_VALUE));
  }

  @ParameterizedTest
  @EnumSource(EliasCode.class)
  void signedMappingAndSignedCodesRoundTrip(EliasCode code) {
    assertEquals(1, EliasCode.signedToPositive(0));
    assertEquals(2, EliasCode.signedToPositive(1));
    assertEquals(3, EliasCode.signedToPositive(-1));
    assertEquals(Long.MAX_VALUE, EliasCode.signedToPositive(-EliasCode.MAX_SIGNED));
    BitWriter w = new BitWriter();
    long[] ms = {0, 1, -1, 2, -2, 1000, -1000, EliasCode.MAX_SIGNED, -EliasCode.MAX_SIGNED};
    for (long m = -5000; m <= 5000; m++) {
      assertEquals(m, EliasCode.positiveToSigned(EliasCode.signedToPositive(m)));
      code.writeSigned(w, m);
    }
    for (long m : ms) {
      code.writeSigned(w, m);
    }
    BitReader r = new BitReader(w.toByteArray());
    for (long m = -5000; m <= 5000; m++) {
      assertEquals(m, code.readSigned(r));
    }
    for (long m : ms) {
      assertEquals(m, code.readSigned(r));
    }
    assertEquals(1, code.signedLength(0));
  }

  @Test
  void badValuesAndTruncatedStreamsFail() {
    assertThrows(IllegalArgumentException.class, () -> EliasCode.GAMMA.write(new BitWriter(), 0));
    assertThrows(IllegalArgumentException.class, () -> EliasCode.DELTA.length(-3));
    assertThrows(IllegalArgumentException.class, () -> EliasCode.signedToPositive(1L << 62));
    assertThrows(IllegalArgumentException.class, () -> EliasCode.signedToPositive(Long.MIN_VALUE));
    assertThrows(IllegalArgumentException.class, () -> EliasCode.positiveToSigned(0));
    for (EliasCode code : EliasCode.values()) {
      BitWriter w = new BitWriter();
      code.write(w, 123_456_789L);
      byte[] full = w.toByteArray();
      byte[] cut = java.util.Arrays.copyOf(full, full.length - 1);
      assertThrows(IllegalArgumentException.class, () -> code.read(new BitReader(cut)));
      assertThrows(IllegalArgumentException.class, () -> code.read(new BitReader(new byte[9])));
    }
  }
}
