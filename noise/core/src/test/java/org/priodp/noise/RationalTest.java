package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RationalTest {

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
    "0.1; 1/10", "1/10; 1/10", "2/20; 1/10", "  3 ; 3", "-3; -3", "+2.50; 5/2", ".5; 1/2", "5.; 5",
    "1e-3; 1/1000", "2.5E+2; 250", "1E2; 100", "0; 0", "-0.0; 0", "6 / -4; -3/2", "007; 7",
    "0.000000000000000000000000000001; 1/1000000000000000000000000000000"})
  void parsesExactly(String text, String expected) {
    assertEquals(expected, Rational.parse(text).toString());
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
    "''; empty", "'   '; empty", "NaN; not a finite number", "Infinity; not a finite number",
    "-inf; not a finite number", "abc; not a number", "1/0; zero denominator", "1.2.3; not a number",
    "1e101; exponent 101", "1e-101; exponent -101", "0x10; not a number", "1/2/3; not a number",
    "1.5/2; not a number", "e5; not a number", ".; not a number", "--1; not a number"})
  void rejectsMalformedTextClearly(String text, String messagePart) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Rational.parse(text));
    assertTrue(e.getMessage().contains(messagePart), e.getMessage());
  }

  @Test
  void rejectsHugeDenominatorsAndTexts() {
    String digits = "1/" + "9".repeat(90); // about 299 bits
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Rational.parse(digits));
    assertTrue(e.getMessage().contains("256 bits"), e.getMessage());
    String longText = "0." + "1".repeat(250);
    e = assertThrows(IllegalArgumentException.class, () -> Rational.parse(longText));
    assertTrue(e.getMessage().contains("characters"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {"0; must be > 0", "-1; must be > 0", "-0.5; must be > 0", "0/7; must be > 0",
      "NaN; epsilon: ", "''; epsilon: empty"})
  void parsePositiveNamesTheParameter(String text, String messagePart) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Rational.parsePositive("epsilon", text));
    assertTrue(e.getMessage().startsWith("epsilon"), e.getMessage());
    assertTrue(e.getMessage().contains(messagePart), e.getMessage());
  }

  @Test
  void arithmeticIsExactAndNormalized() {
    Rational a = Rational.of(1, 3);
    Rational b = Rational.of(1, 6);
    assertEquals(Rational.of(1, 2), a.add(b));
    assertEquals(Rational.of(1, 6), a.subtract(b));
    assertEquals(Rational.of(1, 18), a.multiply(b));
    assertEquals(Rational.of(2), a.divide(b));
    assertEquals(Rational.of(1, 9), a.square());
    assertEquals(Rational.of(-1, 3), a.negate());
    assertEquals(BigInteger.valueOf(-2), Rational.of(-3, 2).floor());
    assertEquals(BigInteger.valueOf(-1), Rational.of(-3, 2).ceil());
    assertEquals(BigInteger.ONE, Rational.of(3, 2).floor());
    assertEquals(BigInteger.TWO, Rational.of(3, 2).ceil());
    assertEquals(BigInteger.valueOf(6), Rational.of(-4, -6).denominator().multiply(BigInteger.TWO));
    assertEquals(Rational.of(2, 3), Rational.of(-4, -6));
    assertTrue(Rational.of(1, 3).compareTo(Rational.of(1, 2)) < 0);
    assertEquals(Rational.of(2, 4).hashCode(), Rational.of(1, 2).hashCode());
    assertThrows(ArithmeticException.class, () -> a.divide(Rational.ZERO));
    assertThrows(ArithmeticException.class, () -> Rational.of(1, 0));
  }
}
