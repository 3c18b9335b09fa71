package org.priodp.field;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class Field128Test extends PrimeFieldContract {
  Field128Test() {
    super(Field128.FIELD);
  }

  @Test
  void constantsMatchTheSpecification() {
    BigInteger two = BigInteger.TWO;
    assertEquals(two.pow(128).subtract(BigInteger.valueOf(7).multiply(two.pow(66))).add(BigInteger.ONE), p);
    assertEquals(new BigInteger("6d278fbf4f60228b1f9b2759c5109f06", 16), f.generator());
    assertEquals(66, f.twoAdicity());
    assertEquals(16, f.encodedSize());
  }

  @Test
  void toBigIntegerReadsUnsignedWords() {
    assertEquals(BigInteger.TWO.pow(128).subtract(BigInteger.ONE), Field128.toBigInteger(-1L, -1L));
    assertEquals(BigInteger.TWO.pow(64), Field128.toBigInteger(0, 1));
  }
}
