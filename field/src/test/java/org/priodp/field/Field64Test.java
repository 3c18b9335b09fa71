package org.priodp.field;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class Field64Test extends PrimeFieldContract {
  Field64Test() {
    super(Field64.FIELD);
  }

  @Test
  void constantsMatchTheSpecification() {
    assertEquals(BigInteger.TWO.pow(64).subtract(BigInteger.TWO.pow(32)).add(BigInteger.ONE), p);
    assertEquals(new BigInteger("185629dcda58878c", 16), f.generator());
    assertEquals(32, f.twoAdicity());
    assertEquals(8, f.encodedSize());
  }

  @Test
  void scalarApiAgreesWithFlatApi() {
    long a = 0xFFFFFFFF00000000L; // p - 1
    assertEquals(1L, Field64.mul(a, a));
    assertEquals(0L, Field64.add(a, 1));
    assertEquals(a, Field64.sub(0, 1));
    assertEquals(-5L, Field64.toSigned(Field64.fromSigned(-5)));
    long half = (Field64.MODULUS - 1) >>> 1;
    assertEquals(-half, Field64.toSigned(Field64.fromSigned(-half)));
    assertEquals(half, Field64.toSigned(Field64.fromSigned(half)));
    // beyond (p-1)/2 the projection is still exact but the lift is the other representative
    assertEquals(-half, Field64.toSigned(Field64.fromSigned(half + 1)));
    assertEquals(Field64.MODULUS - 1, Field64.fromSigned(-1));
  }
}
