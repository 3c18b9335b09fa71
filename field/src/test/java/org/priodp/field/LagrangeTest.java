package org.priodp.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.priodp.field.NttTest.assertMessage;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.field.BigPoly.Gen;

class LagrangeTest {

  static Stream<Arguments> upTo256() {
    return BigPoly.fieldsAndLogs(8);
  }

  static Stream<Arguments> upTo64() {
    return BigPoly.fieldsAndLogs(6);
  }

  static Stream<Arguments> fields() {
    return Stream.of(BigPoly.FIELDS).map(Arguments::of);
  }

  private static BigInteger eval(PrimeField f, long[] p, BigInteger x) {
    long[] out = f.newArray(1);
    Lagrange.polyEval(f, p, BigPoly.flat(f, x), 0, out, 0);
    return f.get(out, 0);
  }

  @ParameterizedTest(name = "{0} n=2^{1}")
  @MethodSource("upTo256")
  void polyEvalMatchesHornerOnTheInterpolantAndTheLagrangeFormula(PrimeField f, int log) {
    int n = 1 << log;
    Gen g = new Gen(f.name() + ".lagrangePolyEval." + n);
    BigInteger[] v = BigPoly.elements(f, g.rnd, n);
    long[] p = BigPoly.flat(f, v);
    BigInteger[] coeffs = BigPoly.big(f, Ntt.invNtt(f, p, n));
    BigInteger[] nodes = BigPoly.powers(f, BigPoly.root(f, n), n);
    BigInteger[] points = {
      BigPoly.element(f, g.rnd), BigPoly.element(f, g.rnd), BigInteger.ZERO,
      nodes[n - 1], f.modulus().subtract(BigInteger.ONE)
    };
    for (BigInteger x : points) {
      BigInteger got = eval(f, p, x);
      assertEquals(BigPoly.horner(f, coeffs, x), got, g.tag() + " x=" + x);
      assertEquals(BigPoly.lagrange(f, nodes, v, x), got, g.tag() + " x=" + x);
    }
    assertEquals(v[n - 1], eval(f, p, nodes[n - 1]), "at a node the value itself");
  }

  @ParameterizedTest(name = "{0} n=2^{1}")
  @MethodSource("upTo64")
  void polyEvalBatchedMatchesPolyEval(PrimeField f, int log) {
    int n = 1 << log;
    Gen g = new Gen(f.name() + ".lagrangeBatched." + n);
    long[][] polys = new long[3][];
    for (int j = 0; j < polys.length; j++) {
      polys[j] = BigPoly.flat(f, BigPoly.elements(f, g.rnd, n));
    }
    long[] x = BigPoly.flat(f, BigPoly.element(f, g.rnd));
    long[] out = f.newArray(3);
    Lagrange.polyEvalBatched(f, polys, x, 0, out);
    for (int j = 0; j < polys.length; j++) {
      assertEquals(eval(f, polys[j], f.get(x, 0)), f.get(out, j), g.tag() + " j=" + j);
    }
  }

  @ParameterizedTest(name = "{0} n=2^{1}")
  @MethodSource("upTo256")
  void polyMulMatchesSchoolbookOnTheInterpolants(PrimeField f, int log) {
    int n = 1 << log;
    Gen g = new Gen(f.name() + ".lagrangePolyMul." + n);
    long[] p = BigPoly.flat(f, BigPoly.elements(f, g.rnd, n));
    long[] q = BigPoly.flat(f, BigPoly.elements(f, g.rnd, n));
    BigInteger[] want = BigPoly.schoolbook(f,
        BigPoly.big(f, Ntt.invNtt(f, p, n)), BigPoly.big(f, Ntt.invNtt(f, q, n)));
    want = Arrays.copyOf(want, 2 * n);
    want[2 * n - 1] = BigInteger.ZERO; // degree <= 2n - 2
    long[] prod = Lagrange.polyMul(f, p, q);
    assertArrayEquals(want, BigPoly.big(f, Ntt.invNtt(f, prod, 2 * n)), g.tag());
  }

  @ParameterizedTest(name = "{0} n=2^{1}")
  @MethodSource("upTo256")
  void doubleEvaluationsGivesTheValuesAtThe2nthRoots(PrimeField f, int log) {
    int n = 1 << log;
    Gen g = new Gen(f.name() + ".doubleEvaluations." + n);
    long[] p = BigPoly.flat(f, BigPoly.elements(f, g.rnd, n));
    BigInteger[] coeffs = BigPoly.big(f, Ntt.invNtt(f, p, n));
    BigInteger[] nodes2n = BigPoly.powers(f, BigPoly.root(f, 2L * n), 2 * n);
    BigInteger[] got = BigPoly.big(f, Lagrange.doubleEvaluations(f, p));
    for (int i = 0; i < 2 * n; i++) {
      assertEquals(BigPoly.horner(f, coeffs, nodes2n[i]), got[i], g.tag() + " i=" + i);
    }
  }

  static Stream<Arguments> extensions() {
    int[][] cases = {{1, 0}, {1, 1}, {2, 1}, {4, 3}, {8, 5}, {16, 15}, {16, 9}, {32, 31},
        {64, 1}, {64, 63}, {128, 127}};
    Stream.Builder<Arguments> b = Stream.builder();
    for (PrimeField f : BigPoly.FIELDS) {
      for (int[] c : cases) {
        b.add(Arguments.of(f, c[0], c[1]));
      }
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0} n={1} m={2}")
  @MethodSource("extensions")
  void extendValuesToPowerOf2RecoversTheMissingValues(PrimeField f, int n, int m) {
    Gen g = new Gen(f.name() + ".extendValues." + n + "." + m);
    BigInteger[] coeffs = BigPoly.elements(f, g.rnd, m); // degree < m
    BigInteger[] nodes = BigPoly.powers(f, BigPoly.root(f, n), n);
    BigInteger[] all = new BigInteger[n];
    for (int i = 0; i < n; i++) {
      all[i] = BigPoly.horner(f, coeffs, nodes[i]);
    }
    long[] known = BigPoly.flat(f, Arrays.copyOf(all, m));
    long[] knownCopy = known.clone();
    assertArrayEquals(all, BigPoly.big(f, Lagrange.extendValuesToPowerOf2(f, known, n)),
        g.tag());
    assertArrayEquals(knownCopy, known, "input must not change");
  }

  @ParameterizedTest(name = "{0} n=2^{1}")
  @MethodSource("upTo64")
  void polyComposeMatchesHornerOfTheInterpolant(PrimeField f, int log) {
    int len = 1 << log;
    Gen g = new Gen(f.name() + ".polyCompose." + len);
    BigInteger minusOne = f.modulus().subtract(BigInteger.ONE);
    BigInteger[][] outer = {
      {BigInteger.ZERO, minusOne, BigInteger.ONE}, // x^2 - x, the range check of Prio3Sum
      BigPoly.elements(f, g.rnd, 4)
    };
    long[] inp = BigPoly.flat(f, BigPoly.elements(f, g.rnd, len));
    BigInteger[] inpMon = BigPoly.big(f, Ntt.invNtt(f, inp, len));
    for (BigInteger[] pMon : outer) {
      int degree = pMon.length - 1;
      int n = Integer.highestOneBit(degree * (len - 1) + 1);
      n = n < degree * (len - 1) + 1 ? 2 * n : n;
      BigInteger[] nodes = BigPoly.powers(f, BigPoly.root(f, n), n);
      BigInteger[] got = BigPoly.big(f, Lagrange.polyCompose(f, BigPoly.flat(f, pMon), inp, n));
      for (int i = 0; i < n; i++) {
        BigInteger inner = BigPoly.horner(f, inpMon, nodes[i]);
        assertEquals(BigPoly.horner(f, pMon, inner), got[i], g.tag() + " i=" + i);
      }
    }
  }

  /**
   * The FLP gadget test for a Mul gadget, as prove() and query() use these helpers: wire
   * polynomials of length p, gadget polynomial = polyMul (2p values) truncated to
   * gadget_poly_len = 2(p - 1) + 1, extended back to 2p values, evaluated at a random t; it must
   * equal the product of the wire polynomials at t.
   */
  @ParameterizedTest(name = "{0} p=2^{1}")
  @MethodSource("upTo64")
  void mulGadgetProofRoundTrip(PrimeField f, int log) {
    int p = Math.max(2, 1 << log);
    Gen g = new Gen(f.name() + ".mulGadgetRoundTrip." + p);
    long[] w0 = BigPoly.flat(f, BigPoly.elements(f, g.rnd, p));
    long[] w1 = BigPoly.flat(f, BigPoly.elements(f, g.rnd, p));
    long[] gadget = Lagrange.polyMul(f, w0, w1);
    int sent = 2 * (p - 1) + 1;
    long[] received = Arrays.copyOf(gadget, sent * f.words());
    long[] full = Lagrange.extendValuesToPowerOf2(f, received, 2 * p);
    assertArrayEquals(gadget, full, g.tag());
    long[] t = BigPoly.flat(f, BigPoly.element(f, g.rnd));
    long[] wires = f.newArray(2);
    Lagrange.polyEvalBatched(f, new long[][] {w0, w1}, t, 0, wires);
    long[] check = f.newArray(1);
    Lagrange.polyEval(f, full, t, 0, check, 0);
    f.mul(wires, 0, wires, 1, wires, 0);
    assertEquals(f.get(wires, 0), f.get(check, 0), g.tag());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void badSizesAndLengthsAreRejectedWithClearMessages(PrimeField f) {
    long[] three = f.newArray(3);
    long[] four = f.newArray(4);
    long[] x = f.newArray(1);
    long[] out = f.newArray(1);
    assertMessage("power of two", () -> Lagrange.polyEval(f, three, x, 0, out, 0));
    assertMessage("power of two", () -> Lagrange.polyEval(f, f.newArray(0), x, 0, out, 0));
    assertMessage("x index 1", () -> Lagrange.polyEval(f, four, x, 1, out, 0));
    assertMessage("out index 2", () -> Lagrange.polyEval(f, four, x, 0, out, 2));
    assertMessage("same length", () -> Lagrange.polyMul(f, four, f.newArray(8)));
    assertMessage("power of two", () -> Lagrange.polyMul(f, three, three));
    assertMessage("same length",
        () -> Lagrange.polyEvalBatched(f, new long[][] {four, three}, x, 0, f.newArray(2)));
    assertMessage("one element per polynomial",
        () -> Lagrange.polyEvalBatched(f, new long[][] {four, four}, x, 0, out));
    assertMessage("at least one",
        () -> Lagrange.polyEvalBatched(f, new long[0][], x, 0, f.newArray(0)));
    assertMessage("more than the extended length",
        () -> Lagrange.extendValuesToPowerOf2(f, f.newArray(5), 4));
    assertMessage("power of two", () -> Lagrange.extendValuesToPowerOf2(f, three, 6));
    assertMessage("power of two", () -> Lagrange.doubleEvaluations(f, three));
    assertMessage("power of two", () -> Lagrange.polyCompose(f, three, three, 8));
    assertMessage("power of two", () -> Lagrange.polyCompose(f, three, four, 7));
    if (f.words() == 2) {
      assertMessage("words per element",
          () -> Lagrange.polyEval(f, new long[7], x, 0, out, 0));
    }
  }
}
