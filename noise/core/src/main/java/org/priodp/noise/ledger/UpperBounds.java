package org.priodp.noise.ledger;

import java.math.BigInteger;
import org.priodp.noise.Rational;

/**
 * Exact rational upper bounds of e^x, sqrt(x) and ln(x), for the stated guarantees of a
 * composition (issue 25, item 1): each result is a dyadic rational at least the true value and
 * within about 2^-200 relative of it.
 */
final class UpperBounds {

  /** Fixed-point bits of the intermediate values. */
  private static final int P = 256;

  private static final BigInteger ONE = BigInteger.ONE.shiftLeft(P);

  /** Largest x for which {@link #exp} computes; beyond it callers cap their results. */
  static final Rational EXP_LIMIT = Rational.of(1000);

  private UpperBounds() {}

  /**
   * Returns an upper bound of e^x for 0 <= x <= {@link #EXP_LIMIT}: e^(x / 2^s) by its Taylor
   * series with the tail bounded by the last term (x / 2^s <= 1/2), every step rounded up, then
   * squared s times, rounding up.
   */
  static Rational exp(Rational x) {
    if (x.signum() < 0 || x.compareTo(EXP_LIMIT) > 0) {
      throw new IllegalArgumentException("exp bound needs 0 <= x <= " + EXP_LIMIT + ", got " + x);
    }
    int s = 0;
    Rational y = x;
    while (y.compareTo(Rational.of(1, 2)) > 0) {
      y = y.divide(Rational.of(2));
      s++;
    }
    BigInteger yFp = ceilDiv(y.numerator().shiftLeft(P), y.denominator());
    BigInteger sum = ONE;
    BigInteger term = ONE;
    for (int k = 1; ; k++) {
      term = ceilDiv(term.multiply(yFp), BigInteger.valueOf(k).shiftLeft(P));
      sum = sum.add(term);
      if (term.bitLength() <= 1) {
        // tail: sum_{j>k} y^j/j! <= term * sum_{i>=1} (y/(k+1))^i <= term, as y <= 1/2
        sum = sum.add(term);
        break;
      }
    }
    for (int i = 0; i < s; i++) {
      sum = ceilDiv(sum.multiply(sum), ONE);
    }
    return Rational.of(sum, ONE);
  }

  /** Returns an upper bound of sqrt(x) for x >= 0: ceil(sqrt(ceil(x 2^(2P)))) / 2^P. */
  static Rational sqrt(Rational x) {
    if (x.signum() < 0) {
      throw new IllegalArgumentException("sqrt of a negative number " + x);
    }
    BigInteger scaled = ceilDiv(x.numerator().shiftLeft(2 * P), x.denominator());
    BigInteger r = scaled.sqrt();
    if (r.multiply(r).compareTo(scaled) < 0) {
      r = r.add(BigInteger.ONE);
    }
    return Rational.of(r, ONE);
  }

  /**
   * Returns an upper bound of ln(x) for x >= 1: x = 2^k m with m in [1, 2), ln x = k ln 2 +
   * 2 atanh(u) with u = (m - 1)/(m + 1) <= 1/3, the series summed rounding up with its tail
   * bounded by the last term times 9/8; ln 2 itself as 2 atanh(1/3), bounded the same way.
   */
  static Rational ln(Rational x) {
    if (x.compareTo(Rational.ONE) < 0) {
      throw new IllegalArgumentException("ln bound needs x >= 1, got " + x);
    }
    int k = x.floor().bitLength() - 1;
    Rational m = x.divide(Rational.of(BigInteger.ONE.shiftLeft(k)));
    BigInteger ln2 = twoAtanh(Rational.of(1, 3));
    BigInteger lnM = twoAtanh(m.subtract(Rational.ONE).divide(m.add(Rational.ONE)));
    return Rational.of(ln2.multiply(BigInteger.valueOf(k)).add(lnM), ONE);
  }

  /** Returns ceil-rounded 2 atanh(u) 2^P for 0 <= u <= 1/3. */
  private static BigInteger twoAtanh(Rational u) {
    BigInteger uFp = ceilDiv(u.numerator().shiftLeft(P), u.denominator());
    BigInteger u2 = ceilDiv(uFp.multiply(uFp), ONE);
    BigInteger power = uFp;
    BigInteger sum = BigInteger.ZERO;
    for (int i = 0; ; i++) {
      BigInteger term = ceilDiv(power, BigInteger.valueOf(2L * i + 1));
      sum = sum.add(term);
      if (term.bitLength() <= 1) {
        // tail: sum_{j>i} u^(2j+1)/(2j+1) <= power * sum_{l>=1} u^(2l) <= power * 1/8
        sum = sum.add(power);
        break;
      }
      power = ceilDiv(power.multiply(u2), ONE);
    }
    return sum.shiftLeft(1);
  }

  private static BigInteger ceilDiv(BigInteger n, BigInteger d) {
    BigInteger[] qr = n.divideAndRemainder(d);
    return qr[1].signum() > 0 ? qr[0].add(BigInteger.ONE) : qr[0];
  }
}
