package org.priodp.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FieldVectorTest {

  static Stream<PrimeField> fields() {
    return Stream.of(Field64.FIELD, Field128.FIELD);
  }

  @ParameterizedTest
  @MethodSource("fields")
  void arithmeticIsElementWise(PrimeField f) {
    BigInteger p = f.modulus();
    FieldVector a = FieldVector.fromSigned(f, 1, -2, 3, -(1L << 62));
    FieldVector b = FieldVector.fromSigned(f, 10, 20, -30, -1);
    for (int i = 0; i < 4; i++) {
      assertEquals(a.get(i).add(b.get(i)).mod(p), a.add(b).get(i), "add at " + i);
      assertEquals(a.get(i).subtract(b.get(i)).mod(p), a.sub(b).get(i), "sub at " + i);
    }
    FieldVector sum = a.add(b);
    assertEquals(BigInteger.valueOf(-(1L << 62) - 1), sum.getSigned(3));
    assertEquals(BigInteger.valueOf(-9), a.sub(b).getSigned(0));
    FieldVector scaled = a.scalarMul(p.subtract(BigInteger.ONE)); // multiply by -1
    assertEquals(BigInteger.valueOf(2), scaled.getSigned(1));
    assertEquals(BigInteger.valueOf(1L << 62), scaled.getSigned(3));
    assertEquals(4, a.length());
    assertEquals(f, a.field());
  }

  @ParameterizedTest
  @MethodSource("fields")
  void encodingRoundTrips(PrimeField f) {
    FieldVector v = FieldVector.of(f, BigInteger.ZERO, f.modulus().subtract(BigInteger.ONE), BigInteger.TEN);
    byte[] enc = v.encode();
    assertEquals(3 * f.encodedSize(), enc.length);
    assertEquals(v, FieldVector.decode(f, enc, 3));
    assertEquals(v, FieldVector.decode(f, enc));
    assertEquals(v.hashCode(), FieldVector.decode(f, enc).hashCode());
    assertArrayEquals(enc, FieldVector.ofWords(f, v.toWords()).encode());
  }

  @ParameterizedTest
  @MethodSource("fields")
  void badInputGetsSpecificErrors(PrimeField f) {
    BigInteger p = f.modulus();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FieldVector.of(f, BigInteger.ONE, p));
    assertTrue(e.getMessage().startsWith("element 1:"), e.getMessage());
    byte[] enc = FieldVector.fromSigned(f, 1, 2).encode();
    DecodeException d = assertThrows(DecodeException.class, () -> FieldVector.decode(f, enc, 3));
    assertTrue(d.getMessage().contains("3 elements"), d.getMessage());
    long[] words = f.newArray(2);
    words[f.words()] = -1L; // element 1 = 2^64 - 1 (Field64: >= p)
    words[words.length - 1] = -1L; // Field128: high word all ones, >= p
    d = assertThrows(DecodeException.class, () -> FieldVector.ofWords(f, words));
    assertTrue(d.getMessage().contains("element 1"), d.getMessage());
    if (f.words() == 2) {
      IllegalArgumentException odd =
          assertThrows(IllegalArgumentException.class, () -> FieldVector.ofWords(f, new long[3]));
      assertTrue(odd.getMessage().contains("2 words per element"), odd.getMessage());
    }
    FieldVector a = FieldVector.zeros(f, 2);
    FieldVector other = FieldVector.zeros(f == Field64.FIELD ? Field128.FIELD : Field64.FIELD, 2);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> a.add(other)).getMessage().contains("field mismatch"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> a.add(FieldVector.zeros(f, 3))).getMessage().contains("length mismatch"));
    assertThrows(IndexOutOfBoundsException.class, () -> a.get(2));
    assertNotEquals(a, other);
  }
}
