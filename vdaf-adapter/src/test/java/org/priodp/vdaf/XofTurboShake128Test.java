package org.priodp.vdaf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.internal.TurboShake128;

/**
 * XofTurboShake128 against the specification's definitions
 * written out with BigInteger ({@code next_vec}) and with one-shot TurboSHAKE128 (the message
 * encoding and {@code next}), and on bad arguments. The official vector is checked in the
 * conformance module (XofVectorTest).
 */
class XofTurboShake128Test {
  private static final HexFormat HEX = HexFormat.of();

  // ------------------------------------------------------------------ specification

  /** M = to_le_bytes(len(dst), 2) || dst || to_le_bytes(len(seed), 1) || seed || binder. */
  private static byte[] specMessage(byte[] seed, byte[] dst, byte[] binder) {
    ByteArrayOutputStream m = new ByteArrayOutputStream();
    m.write(dst.length & 0xFF);
    m.write(dst.length >>> 8);
    m.writeBytes(dst);
    m.write(seed.length);
    m.writeBytes(seed);
    m.writeBytes(binder);
    return m.toByteArray();
  }

  private static byte[] random(SplittableRandom rnd, int n) {
    byte[] b = new byte[n];
    rnd.nextBytes(b);
    return b;
  }

  /** The XOF stream is TurboSHAKE128(M, 1) for the specification's message M. */
  @Test
  void streamIsTurboShake128OfTheSpecMessage() {
    long seed = 18L;
    System.out.println("XofTurboShake128Test.streamIsTurboShake128OfTheSpecMessage seed = "
        + seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] seedLengths = {0, 1, 16, 32, 255};
    int[] dstLengths = {0, 1, 8, 255, 256, 300, 65535};
    int[] binderLengths = {0, 1, 16, 200, 5000};
    for (int sl : seedLengths) {
      for (int dl : dstLengths) {
        for (int bl : binderLengths) {
          byte[] s = random(rnd, sl);
          byte[] d = random(rnd, dl);
          byte[] b = random(rnd, bl);
          byte[] expected = TurboShake128.hash(specMessage(s, d, b), 1, 200);
          assertArrayEquals(expected, new XofTurboShake128(s, d, b).next(200),
              "seed " + seed + ": |seed| = " + sl + ", |dst| = " + dl + ", |binder| = " + bl);
        }
      }
    }
  }

  /** Successive next() calls read successive parts of one stream (next(0) reads nothing). */
  @Test
  void successiveNextCallsContinueTheStream() {
    long seed = 2433L;
    System.out.println("XofTurboShake128Test.successiveNextCallsContinueTheStream seed = " + seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int trial = 0; trial < 50; trial++) {
      byte[] s = random(rnd, XofTurboShake128.SEED_SIZE);
      byte[] d = random(rnd, rnd.nextInt(20));
      byte[] b = random(rnd, rnd.nextInt(40));
      byte[] whole = new XofTurboShake128(s, d, b).next(2000);
      XofTurboShake128 xof = new XofTurboShake128(s, d, b);
      ByteArrayOutputStream parts = new ByteArrayOutputStream();
      while (parts.size() < 2000) {
        parts.writeBytes(xof.next(Math.min(2000 - parts.size(), rnd.nextInt(200))));
      }
      assertArrayEquals(whole, parts.toByteArray(), "seed " + seed + ", trial " + trial);
    }
  }

  /**
   * The specification's next_vec, with BigInteger: read ENCODED_SIZE bytes, little-endian,
   * mask with next_power_of_2(p) - 1, keep if < p.
   */
  private static List<BigInteger> specNextVec(XofTurboShake128 xof, PrimeField field,
      int length) {
    BigInteger p = field.modulus();
    BigInteger m = BigInteger.ONE.shiftLeft(p.subtract(BigInteger.ONE).bitLength())
        .subtract(BigInteger.ONE);
    List<BigInteger> vec = new ArrayList<>();
    while (vec.size() < length) {
      byte[] le = xof.next(field.encodedSize());
      byte[] be = new byte[le.length + 1];
      for (int i = 0; i < le.length; i++) {
        be[le.length - i] = le[i];
      }
      BigInteger x = new BigInteger(be).and(m);
      if (x.compareTo(p) < 0) {
        vec.add(x);
      }
    }
    return vec;
  }

  /** nextVec agrees with the specification, also interleaved with next() and across chunks. */
  @ParameterizedTest
  @ValueSource(strings = {"Field64", "Field128"})
  void nextVecMatchesTheSpecification(String fieldName) {
    PrimeField field = fieldName.equals("Field64") ? Field64.FIELD : Field128.FIELD;
    long seed = 20L;
    System.out.println("XofTurboShake128Test.nextVecMatchesTheSpecification(" + fieldName
        + ") seed = " + seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] lengths = {0, 1, 2, 3, 11, 21, 1023, 1024, 1025, 2049, 3000};
    for (int length : lengths) {
      byte[] s = random(rnd, XofTurboShake128.SEED_SIZE);
      byte[] d = random(rnd, 8);
      byte[] b = random(rnd, rnd.nextInt(64));
      XofTurboShake128 ours = new XofTurboShake128(s, d, b);
      XofTurboShake128 spec = new XofTurboShake128(s, d, b);
      int skip = rnd.nextInt(20);
      assertArrayEquals(spec.next(skip), ours.next(skip));
      long[] got = ours.nextVec(field, length);
      List<BigInteger> want = specNextVec(spec, field, length);
      assertEquals(length, field.length(got));
      for (int i = 0; i < length; i++) {
        assertEquals(want.get(i), field.get(got, i),
            "seed " + seed + ", " + fieldName + ", length " + length + ", element " + i);
      }
      // The stream continues at the same place after the vector.
      assertArrayEquals(spec.next(33), ours.next(33), "seed " + seed + ", after " + length);
    }
  }

  private static byte[] le(long... words) {
    byte[] b = new byte[8 * words.length];
    for (int w = 0; w < words.length; w++) {
      for (int k = 0; k < 8; k++) {
        b[8 * w + k] = (byte) (words[w] >>> (8 * k));
      }
    }
    return b;
  }

  /** Field64 candidates >= p are skipped; p - 1 and 0 are kept. */
  @Test
  void field64RejectionSkipsValuesAtOrAboveTheModulus() {
    long p = Field64.MODULUS;
    long[] candidates = {p, p - 1, -1L, 0L, p + 1, 5L};
    long[] out = new long[6];
    int filled = XofTurboShake128.acceptField64(candidates, 6, out, 1);
    assertEquals(4, filled);
    assertArrayEquals(new long[] {0, p - 1, 0, 5, 0, 0}, out);
  }

  /** Field128 candidates >= p are skipped, including those equal to p only in the high word. */
  @Test
  void field128RejectionSkipsValuesAtOrAboveTheModulus() {
    long hi = Field128.MODULUS_HI;
    long[] candidates = {
        1L, hi,           // p: rejected
        0L, hi,           // p - 1: kept
        -1L, -1L,         // 2^128 - 1: rejected
        -1L, hi - 1,      // below p in the high word: kept
        2L, hi,           // p + 1: rejected
        0L, 0L};          // 0: kept
    long[] out = new long[8];
    int filled = XofTurboShake128.acceptField128(candidates, 6, out, 1);
    assertEquals(4, filled);
    assertArrayEquals(new long[] {0, 0, 0, hi, -1L, hi - 1, 0, 0}, out);
  }

  /** deriveSeed is the first SEED_SIZE bytes; expandIntoVec is nextVec on a fresh instance. */
  @Test
  void oneShotHelpersMatchTheInstanceMethods() {
    byte[] s = new byte[32];
    byte[] d = {18, 0, 0, 0, 0, 1, 0, 2};
    byte[] b = {9, 9, 9};
    assertArrayEquals(new XofTurboShake128(s, d, b).next(32),
        XofTurboShake128.deriveSeed(s, d, b));
    assertArrayEquals(new XofTurboShake128(s, d, b).nextVec(Field128.FIELD, 7),
        XofTurboShake128.expandIntoVec(Field128.FIELD, s, d, b, 7));
    assertArrayEquals(new XofTurboShake128(s, d, b).nextVec(Field64.FIELD, 7),
        XofTurboShake128.expandIntoVec(Field64.FIELD, s, d, b, 7));
  }

  // ------------------------------------------------------------------ bad arguments

  @Test
  void rejectsSeedLongerThan255Bytes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new XofTurboShake128(new byte[256], new byte[0], new byte[0]));
    assertEquals("XofTurboShake128 seed must be at most 255 bytes, got 256", e.getMessage());
    new XofTurboShake128(new byte[255], new byte[0], new byte[0]); // the limit itself is fine
  }

  @Test
  void rejectsDstLongerThan65535Bytes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new XofTurboShake128(new byte[32], new byte[65536], new byte[0]));
    assertEquals("XofTurboShake128 domain separation tag must be at most 65535 bytes, got 65536",
        e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> XofTurboShake128.deriveSeed(new byte[32], new byte[65536], new byte[0]));
  }

  @Test
  void oneShotHelpersRequireSeedSizeBytes() {
    for (int n : new int[] {0, 16, 31, 33, 255}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> XofTurboShake128.deriveSeed(new byte[n], new byte[0], new byte[0]));
      assertEquals("XofTurboShake128 seed must be 32 bytes, got " + n, e.getMessage());
      assertThrows(IllegalArgumentException.class,
          () -> XofTurboShake128.expandIntoVec(Field64.FIELD, new byte[n], new byte[0],
              new byte[0], 1));
    }
  }

  @Test
  void rejectsNegativeLengths() {
    XofTurboShake128 xof = new XofTurboShake128(new byte[32], new byte[0], new byte[0]);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> xof.next(-1));
    assertEquals("XOF output length must be >= 0, got -1", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> xof.nextVec(Field128.FIELD, -3));
    assertEquals("XOF vector length must be >= 0, got -3", e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> XofTurboShake128.expandIntoVec(Field64.FIELD, new byte[32], new byte[0],
            new byte[0], -1));
    // A rejected call consumes nothing.
    assertArrayEquals(new XofTurboShake128(new byte[32], new byte[0], new byte[0]).next(8),
        xof.next(8));
  }

  @Test
  void rejectsNullArguments() {
    assertThrows(NullPointerException.class,
        () -> new XofTurboShake128(null, new byte[0], new byte[0]));
    assertThrows(NullPointerException.class,
        () -> new XofTurboShake128(new byte[32], null, new byte[0]));
    assertThrows(NullPointerException.class,
        () -> new XofTurboShake128(new byte[32], new byte[0], null));
    assertThrows(NullPointerException.class,
        () -> new XofTurboShake128(new byte[32], new byte[0], new byte[0]).nextVec(null, 1));
  }

  /** Seed, dst and binder each change the output, and so does moving bytes between them. */
  @Test
  void inputsAreDomainSeparated() {
    byte[] a = new XofTurboShake128(new byte[] {1, 2}, new byte[] {3}, new byte[0]).next(32);
    byte[] b = new XofTurboShake128(new byte[] {1}, new byte[] {3}, new byte[] {2}).next(32);
    byte[] c = new XofTurboShake128(new byte[] {1, 2}, new byte[0], new byte[] {3}).next(32);
    assertTrue(!Arrays.equals(a, b) && !Arrays.equals(a, c) && !Arrays.equals(b, c));
  }
}
