package org.priodp.vdaf.internal;

import java.math.BigInteger;
import java.util.Random;
import org.priodp.field.PrimeField;

/**
 * A test reference on BigInteger: values at the n-th roots of unity (computed as the
 * specification's {@code gen^(2^twoAdicity / n)}) and the Lagrange interpolation formula.
 */
final class BigLagrange {
  private BigLagrange() {}

  /** Returns the principal n-th root of unity of the field. */
  static BigInteger root(PrimeField f, int n) {
    BigInteger e = BigInteger.ONE.shiftLeft(f.twoAdicity()).divide(BigInteger.valueOf(n));
    return f.generator().modPow(e, f.modulus());
  }

  /** Returns the value at z of the polynomial of degree < n with {@code v[k]} at Wn^k. */
  static BigInteger eval(PrimeField f, BigInteger[] v, BigInteger z) {
    BigInteger p = f.modulus();
    int n = v.length;
    BigInteger w = root(f, n);
    BigInteger[] nodes = new BigInteger[n];
    for (int k = 0; k < n; k++) {
      nodes[k] = w.modPow(BigInteger.valueOf(k), p);
    }
    BigInteger sum = BigInteger.ZERO;
    for (int k = 0; k < n; k++) {
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      for (int j = 0; j < n; j++) {
        if (j != k) {
          num = num.multiply(z.subtract(nodes[j])).mod(p);
          den = den.multiply(nodes[k].subtract(nodes[j])).mod(p);
        }
      }
      sum = sum.add(v[k].multiply(num).multiply(den.modInverse(p))).mod(p);
    }
    return sum;
  }

  /** Returns a uniformly random field element. */
  static BigInteger random(PrimeField f, Random rnd) {
    BigInteger x;
    do {
      x = new BigInteger(f.modulus().bitLength(), rnd);
    } while (x.compareTo(f.modulus()) >= 0);
    return x;
  }
}
