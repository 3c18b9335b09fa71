package org.priodp.noise;

import java.math.BigInteger;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An exact rational number n/d with {@code d > 0} and {@code gcd(n, d) = 1}.
 *
 * <p>Budgets, scales and every probability a sampler uses are {@code Rational}s, never
 * floating point. {@link #parse} reads decimals ("0.1", "2.5e-3"), fractions ("1/10") and
 * integers, exactly.
 */
public final class Rational implements Comparable<Rational> {

  /** Largest accepted |exponent| in decimal input such as "1e-5". */
  public static final int MAX_EXPONENT = 100;

  /** Largest accepted bit length of a parsed numerator or denominator (after reduction). */
  public static final int MAX_BITS = 256;

  /** Longest accepted input text, in characters. */
  public static final int MAX_TEXT = 200;

  public static final Rational ZERO = new Rational(BigInteger.ZERO, BigInteger.ONE);
  public static final Rational ONE = new Rational(BigInteger.ONE, BigInteger.ONE);

  private static final Pattern DECIMAL =
      Pattern.compile("([+-]?)(\\d*)(?:\\.(\\d*))?(?:[eE]([+-]?\\d{1,9}))?");
  private static final Pattern FRACTION = Pattern.compile("([+-]?\\d+)\\s*/\\s*([+-]?\\d+)");

  private final BigInteger num;
  private final BigInteger den;

  private Rational(BigInteger num, BigInteger den) {
    this.num = num;
    this.den = den;
  }

  /** Returns n/d in lowest terms. */
  public static Rational of(BigInteger n, BigInteger d) {
    Objects.requireNonNull(n, "numerator");
    Objects.requireNonNull(d, "denominator");
    if (d.signum() == 0) {
      throw new ArithmeticException("denominator is zero");
    }
    if (d.signum() < 0) {
      n = n.negate();
      d = d.negate();
    }
    BigInteger g = n.gcd(d);
    if (!g.equals(BigInteger.ONE) && g.signum() != 0) {
      n = n.divide(g);
      d = d.divide(g);
    }
    if (n.signum() == 0) {
      d = BigInteger.ONE;
    }
    return new Rational(n, d);
  }

  /** Returns n/d in lowest terms. */
  public static Rational of(long n, long d) {
    return of(BigInteger.valueOf(n), BigInteger.valueOf(d));
  }

  /** Returns the integer n. */
  public static Rational of(long n) {
    return new Rational(BigInteger.valueOf(n), BigInteger.ONE);
  }

  /** Returns the integer n. */
  public static Rational of(BigInteger n) {
    return new Rational(Objects.requireNonNull(n), BigInteger.ONE);
  }

  /**
   * Parses a decimal ("0.1", "-3", "2.5e-3"), or a fraction of integers ("1/10"), exactly.
   *
   * @throws IllegalArgumentException for empty text, words such as NaN or Infinity, malformed
   *     numbers, a zero denominator, |exponent| above {@value #MAX_EXPONENT}, or a numerator or
   *     denominator above {@value #MAX_BITS} bits; the message says which
   */
  public static Rational parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("empty value: expected a decimal like 0.1 or a fraction like 1/10");
    }
    String s = text.strip();
    if (s.length() > MAX_TEXT) {
      throw new IllegalArgumentException(
          "value has " + s.length() + " characters; at most " + MAX_TEXT + " are accepted");
    }
    String lower = s.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("nan") || lower.contains("inf")) {
      throw new IllegalArgumentException("'" + s + "' is not a finite number");
    }
    Rational r;
    Matcher f = FRACTION.matcher(s);
    Matcher m = DECIMAL.matcher(s);
    if (f.matches()) {
      BigInteger d = new BigInteger(f.group(2));
      if (d.signum() == 0) {
        throw new IllegalArgumentException("'" + s + "' has a zero denominator");
      }
      r = of(new BigInteger(f.group(1)), d);
    } else if (m.matches() && !(m.group(2).isEmpty() && (m.group(3) == null || m.group(3).isEmpty()))) {
      String intPart = m.group(2);
      String fracPart = m.group(3) == null ? "" : m.group(3);
      long exp = m.group(4) == null ? 0 : Long.parseLong(m.group(4));
      if (Math.abs(exp) > MAX_EXPONENT) {
        throw new IllegalArgumentException(
            "'" + s + "': exponent " + exp + " is outside [-" + MAX_EXPONENT + ", " + MAX_EXPONENT + "]");
      }
      BigInteger digits = new BigInteger(intPart + fracPart);
      if (m.group(1).equals("-")) {
        digits = digits.negate();
      }
      long scale = fracPart.length() - exp; // value = digits * 10^-scale
      r = scale >= 0
          ? of(digits, BigInteger.TEN.pow((int) scale))
          : of(digits.multiply(BigInteger.TEN.pow((int) -scale)), BigInteger.ONE);
    } else {
      throw new IllegalArgumentException(
          "'" + s + "' is not a number: expected a decimal like 0.1 or a fraction like 1/10");
    }
    if (r.den.bitLength() > MAX_BITS || r.num.bitLength() > MAX_BITS) {
      throw new IllegalArgumentException(
          "'" + s + "' needs more than " + MAX_BITS + " bits of numerator or denominator");
    }
    return r;
  }

  /**
   * Parses a value that must be strictly positive, naming it in errors ("epsilon must be > 0,
   * got -1").
   */
  public static Rational parsePositive(String name, String text) {
    Rational r;
    try {
      r = parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
    if (r.signum() <= 0) {
      throw new IllegalArgumentException(name + " must be > 0, got " + text.strip());
    }
    return r;
  }

  /** Returns the numerator (carries the sign). */
  public BigInteger numerator() {
    return num;
  }

  /** Returns the denominator (always positive). */
  public BigInteger denominator() {
    return den;
  }

  /** Returns -1, 0 or 1. */
  public int signum() {
    return num.signum();
  }

  /** Returns true if the denominator is 1. */
  public boolean isInteger() {
    return den.equals(BigInteger.ONE);
  }

  public Rational add(Rational o) {
    return of(num.multiply(o.den).add(o.num.multiply(den)), den.multiply(o.den));
  }

  public Rational subtract(Rational o) {
    return of(num.multiply(o.den).subtract(o.num.multiply(den)), den.multiply(o.den));
  }

  public Rational multiply(Rational o) {
    return of(num.multiply(o.num), den.multiply(o.den));
  }

  /**
   * Returns this / o.
   *
   * @throws ArithmeticException if o is zero
   */
  public Rational divide(Rational o) {
    if (o.num.signum() == 0) {
      throw new ArithmeticException("division by zero");
    }
    return of(num.multiply(o.den), den.multiply(o.num));
  }

  public Rational negate() {
    return new Rational(num.negate(), den);
  }

  /** Returns this squared. */
  public Rational square() {
    return new Rational(num.multiply(num), den.multiply(den));
  }

  /** Returns the largest integer <= this. */
  public BigInteger floor() {
    BigInteger[] qr = num.divideAndRemainder(den);
    return qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
  }

  /** Returns the smallest integer >= this. */
  public BigInteger ceil() {
    return negate().floor().negate();
  }

  @Override
  public int compareTo(Rational o) {
    return num.multiply(o.den).compareTo(o.num.multiply(den));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Rational r && r.num.equals(num) && r.den.equals(den);
  }

  @Override
  public int hashCode() {
    return num.hashCode() * 31 + den.hashCode();
  }

  /** Returns "n" for integers, else "n/d". */
  @Override
  public String toString() {
    return isInteger() ? num.toString() : num + "/" + den;
  }
}
