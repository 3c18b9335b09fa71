package org.priodp.field;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Test support: slow, obviously correct BigInteger reference versions of the NTT and the
 * polynomial operations, and seeded random inputs. Roots are computed here from the constants
 * of {@link PrimeField#generator()}, independently of the cached tables under test.
 */
final class BigPoly {
  static final PrimeField[] FIELDS = {Field64.FIELD, Field128.FIELD};

  private BigPoly() {}

  /** A seeded generator that remembers its seed for failure messages. */
  static final class Gen {
    final long seed;
    final SplittableRandom rnd;

    Gen(String test) {
      this.seed = PrimeFieldContract.seed(test);
      this.rnd = new SplittableRandom(seed);
    }

    String tag() {
      return "seed=0x" + Long.toHexString(seed);
    }
  }

  /** Arguments (field, logN) for both fields and logN in [0, maxLog]. */
  static Stream<Arguments> fieldsAndLogs(int maxLog) {
    Stream.Builder<Arguments> b = Stream.builder();
    for (PrimeField f : FIELDS) {
      for (int log = 0; log <= maxLog; log++) {
        b.add(Arguments.of(f, log));
      }
    }
    return b.build();
  }

  /** Returns a uniformly random element of [0, p). */
  static BigInteger element(PrimeField f, SplittableRandom rnd) {
    byte[] bytes = new byte[f.encodedSize() + 9];
    rnd.nextBytes(bytes);
    bytes[0] = 0;
    return new BigInteger(bytes).mod(f.modulus());
  }

  /** Returns n random elements. */
  static BigInteger[] elements(PrimeField f, SplittableRandom rnd, int n) {
    BigInteger[] v = new BigInteger[n];
    for (int i = 0; i < n; i++) {
      v[i] = element(f, rnd);
    }
    return v;
  }

  static long[] flat(PrimeField f, BigInteger... v) {
    long[] w = f.newArray(v.length);
    for (int i = 0; i < v.length; i++) {
      f.set(w, i, v[i]);
    }
    return w;
  }

  static BigInteger[] big(PrimeField f, long[] w) {
    BigInteger[] v = new BigInteger[f.length(w)];
    for (int i = 0; i < v.length; i++) {
      v[i] = f.get(w, i);
    }
    return v;
  }

  /** The principal n-th root gen^(2^k / n), from the BigInteger constants. */
  static BigInteger root(PrimeField f, long n) {
    BigInteger order = BigInteger.ONE.shiftLeft(f.twoAdicity());
    return f.generator().modPow(order.divide(BigInteger.valueOf(n)), f.modulus());
  }

  /** Returns {@code w^0 .. w^(n-1)}. */
  static BigInteger[] powers(PrimeField f, BigInteger w, int n) {
    BigInteger[] pw = new BigInteger[n];
    BigInteger acc = BigInteger.ONE;
    for (int i = 0; i < n; i++) {
      pw[i] = acc;
      acc = acc.multiply(w).mod(f.modulus());
    }
    return pw;
  }

  /** The naive O(n^2) DFT: out[k] = sum_j a[j] Wn^(jk). */
  static BigInteger[] dft(PrimeField f, BigInteger[] a) {
    int n = a.length;
    BigInteger[] pw = powers(f, root(f, n), n);
    BigInteger[] out = new BigInteger[n];
    for (int k = 0; k < n; k++) {
      BigInteger sum = BigInteger.ZERO;
      for (int j = 0; j < n; j++) {
        sum = sum.add(a[j].multiply(pw[(int) ((long) j * k % n)]));
      }
      out[k] = sum.mod(f.modulus());
    }
    return out;
  }

  /** p(x) for coefficients in ascending degree order. */
  static BigInteger horner(PrimeField f, BigInteger[] p, BigInteger x) {
    BigInteger acc = BigInteger.ZERO;
    for (int i = p.length - 1; i >= 0; i--) {
      acc = acc.multiply(x).add(p[i]).mod(f.modulus());
    }
    return acc;
  }

  /**
   * The textbook Lagrange formula: the value at x of the polynomial of degree < len(nodes)
   * through (nodes[i], values[i]).
   */
  static BigInteger lagrange(PrimeField f, BigInteger[] nodes, BigInteger[] values, BigInteger x) {
    BigInteger mod = f.modulus();
    BigInteger sum = BigInteger.ZERO;
    for (int i = 0; i < nodes.length; i++) {
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      for (int j = 0; j < nodes.length; j++) {
        if (j != i) {
          num = num.multiply(x.subtract(nodes[j])).mod(mod);
          den = den.multiply(nodes[i].subtract(nodes[j])).mod(mod);
        }
      }
      sum = sum.add(values[i].multiply(num).multiply(den.modInverse(mod)));
    }
    return sum.mod(mod);
  }

  /** The schoolbook product of two coefficient vectors. */
  static BigInteger[] schoolbook(PrimeField f, BigInteger[] a, BigInteger[] b) {
    if (a.length == 0 || b.length == 0) {
      return new BigInteger[0];
    }
    BigInteger[] out = new BigInteger[a.length + b.length - 1];
    java.util.Arrays.fill(out, BigInteger.ZERO);
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < b.length; j++) {
        out[i + j] = out[i + j].add(a[i].multiply(b[j])).mod(f.modulus());
      }
    }
    return out;
  }
}
