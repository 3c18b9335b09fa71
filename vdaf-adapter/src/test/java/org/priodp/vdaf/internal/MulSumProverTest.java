package org.priodp.vdaf.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigInteger;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;

/**
 * MulSumProver against a BigInteger reference (Lagrange interpolation of each wire at the 2n-th
 * roots of unity) and against the generic {@link Gadget#evalPoly}, on seeded random wires.
 */
class MulSumProverTest {

  static Stream<Arguments> cases() {
    long seed = 0x6d756c73L;
    System.out.println("MulSumProverTest seed = " + Long.toHexString(seed));
    Random rnd = new Random(seed);
    Stream.Builder<Arguments> b = Stream.builder();
    for (PrimeField f : new PrimeField[] {Field64.FIELD, Field128.FIELD}) {
      for (int n : new int[] {2, 4, 8, 16}) {
        for (int pairs : new int[] {1, 3}) {
          // stride: the used values (calls + 1), from just over n/2 to n
          int stride = n / 2 + 1 + rnd.nextInt(n / 2);
          b.add(Arguments.of(f, n, pairs, stride, rnd.nextLong()));
        }
      }
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0} n={1} pairs={2} stride={3} seed={4}")
  @MethodSource("cases")
  void matchesBigIntegerReferenceAndGenericGadget(
      PrimeField f, int n, int pairs, int stride, long seed) {
    Random rnd = new Random(seed);
    int arity = 2 * pairs;
    BigInteger[][] values = new BigInteger[arity][n];
    long[] flat = f.newArray(arity * stride);
    long[][] split = new long[arity][];
    for (int j = 0; j < arity; j++) {
      split[j] = f.newArray(n);
      for (int k = 0; k < n; k++) {
        values[j][k] = k < stride ? BigLagrange.random(f, rnd) : BigInteger.ZERO;
        f.set(split[j], k, values[j][k]);
        if (k < stride) {
          f.set(flat, j * stride + k, values[j][k]);
        }
      }
    }
    Gadget g = pairs == 1 ? Gadget.Mul.INSTANCE : new Gadget.ParallelSum(Gadget.Mul.INSTANCE, pairs);
    long[] outputs = f.newArray(stride);
    long[] inp = f.newArray(arity);
    for (int k = 1; k < stride; k++) {
      for (int j = 0; j < arity; j++) {
        f.set(inp, j, values[j][k]);
      }
      g.eval(f, inp, 0, outputs, k);
    }
    long[] got = MulSumProver.forGadget(f, g, n).gadgetPoly(flat, stride, outputs);

    BigInteger p = f.modulus();
    BigInteger w2n = BigLagrange.root(f, 2 * n);
    assertEquals(2 * n, f.length(got));
    for (int m = 0; m < 2 * n; m++) {
      BigInteger z = w2n.modPow(BigInteger.valueOf(m), p);
      BigInteger want = BigInteger.ZERO;
      for (int i = 0; i < pairs; i++) {
        want = want.add(
            BigLagrange.eval(f, values[2 * i], z).multiply(BigLagrange.eval(f, values[2 * i + 1], z)));
      }
      assertEquals(want.mod(p), f.get(got, m), "value at W2n^" + m);
    }
    assertArrayEquals(g.evalPoly(f, split), got);
  }

  @Test
  void onlyMulAndParallelSumOfMulHaveTheKernel() {
    PrimeField f = Field64.FIELD;
    assertNull(MulSumProver.forGadget(f, new Gadget.PolyEval(f, new long[] {0, -1, 1}, 3), 4));
    assertNull(
        MulSumProver.forGadget(
            f, new Gadget.ParallelSum(new Gadget.PolyEval(f, new long[] {0, -1, 1}, 3), 2), 4));
  }
}
