package org.priodp.vdaf.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;

/**
 * WireQuery's weights against a BigInteger reference (Lagrange interpolation), on seeded random
 * polynomials, at random points and at roots of unity (where the weights must still be right).
 */
class WireQueryTest {

  static Stream<Arguments> cases() {
    long seed = 0x77697265L;
    System.out.println("WireQueryTest seed = " + Long.toHexString(seed));
    Random rnd = new Random(seed);
    Stream.Builder<Arguments> b = Stream.builder();
    for (PrimeField f : new PrimeField[] {Field64.FIELD, Field128.FIELD}) {
      for (int n : new int[] {1, 2, 4, 8, 32}) {
        b.add(Arguments.of(f, n, false, rnd.nextLong()));
        b.add(Arguments.of(f, n, true, rnd.nextLong()));
      }
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0} n={1} rootOfUnity={2} seed={3}")
  @MethodSource("cases")
  void weightsEvaluateLikeLagrangeInterpolation(PrimeField f, int n, boolean atRoot, long seed) {
    Random rnd = new Random(seed);
    BigInteger x =
        atRoot
            ? BigLagrange.root(f, n).modPow(BigInteger.valueOf(rnd.nextInt(n)), f.modulus())
            : BigLagrange.random(f, rnd);
    long[] xs = f.newArray(2);
    f.set(xs, 1, x);
    long[] weights = new WireQuery(f, n).weights(xs, 1);
    for (int poly = 0; poly < 3; poly++) {
      BigInteger[] v = new BigInteger[n];
      BigInteger got = BigInteger.ZERO;
      for (int k = 0; k < n; k++) {
        v[k] = BigLagrange.random(f, rnd);
        got = got.add(v[k].multiply(f.get(weights, k)));
      }
      assertEquals(BigLagrange.eval(f, v, x), got.mod(f.modulus()));
    }
  }
}
