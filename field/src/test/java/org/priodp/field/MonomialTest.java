package org.priodp.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.priodp.field.NttTest.assertMessage;

import java.math.BigInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.field.BigPoly.Gen;

class MonomialTest {

  static Stream<Arguments> fields() {
    return Stream.of(BigPoly.FIELDS).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void polyMulMatchesSchoolbook(PrimeField f) {
    Gen g = new Gen(f.name() + ".monomialPolyMul");
    int[][] fixed = {{0, 0}, {0, 5}, {1, 1}, {1, 7}, {2, 2}, {16, 17}, {32, 33}, {64, 64}};
    for (int trial = 0; trial < fixed.length + 24; trial++) {
      int lp = trial < fixed.length ? fixed[trial][0] : g.rnd.nextInt(1, 90);
      int lq = trial < fixed.length ? fixed[trial][1] : g.rnd.nextInt(1, 90);
      BigInteger[] a = BigPoly.elements(f, g.rnd, lp);
      BigInteger[] b = BigPoly.elements(f, g.rnd, lq);
      long[] got = Monomial.polyMul(f, BigPoly.flat(f, a), BigPoly.flat(f, b));
      assertArrayEquals(BigPoly.schoolbook(f, a, b), BigPoly.big(f, got),
          g.tag() + " lengths " + lp + ", " + lq);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void polyEvalMatchesBigIntegerHorner(PrimeField f) {
    Gen g = new Gen(f.name() + ".monomialPolyEval");
    for (int m : new int[] {0, 1, 2, 3, 10, 33}) {
      BigInteger[] p = BigPoly.elements(f, g.rnd, m);
      BigInteger x = BigPoly.element(f, g.rnd);
      long[] xs = BigPoly.flat(f, BigInteger.ONE, x);
      long[] out = f.newArray(3);
      Monomial.polyEval(f, BigPoly.flat(f, p), xs, 1, out, 2);
      assertEquals(BigPoly.horner(f, p, x), f.get(out, 2), g.tag() + " m=" + m);
      Monomial.polyEval(f, BigPoly.flat(f, p), xs, 1, xs, 1); // out aliases x
      assertEquals(BigPoly.horner(f, p, x), f.get(xs, 1), g.tag() + " aliased, m=" + m);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void addSubAndScaleMatchBigInteger(PrimeField f) {
    Gen g = new Gen(f.name() + ".monomialAddSubScale");
    BigInteger mod = f.modulus();
    for (int[] lens : new int[][] {{0, 0}, {3, 3}, {5, 2}, {2, 5}, {0, 4}}) {
      BigInteger[] a = BigPoly.elements(f, g.rnd, lens[0]);
      BigInteger[] b = BigPoly.elements(f, g.rnd, lens[1]);
      int max = Math.max(lens[0], lens[1]);
      BigInteger[] sum = new BigInteger[max];
      BigInteger[] diff = new BigInteger[max];
      for (int i = 0; i < max; i++) {
        BigInteger ai = i < a.length ? a[i] : BigInteger.ZERO;
        BigInteger bi = i < b.length ? b[i] : BigInteger.ZERO;
        sum[i] = ai.add(bi).mod(mod);
        diff[i] = ai.subtract(bi).mod(mod);
      }
      long[] fa = BigPoly.flat(f, a);
      long[] fb = BigPoly.flat(f, b);
      String tag = g.tag() + " lengths " + lens[0] + ", " + lens[1];
      assertArrayEquals(sum, BigPoly.big(f, Monomial.polyAdd(f, fa, fb)), tag);
      assertArrayEquals(diff, BigPoly.big(f, Monomial.polySub(f, fa, fb)), tag);
      BigInteger s = BigPoly.element(f, g.rnd);
      BigInteger[] scaled = new BigInteger[a.length];
      for (int i = 0; i < a.length; i++) {
        scaled[i] = a[i].multiply(s).mod(mod);
      }
      assertArrayEquals(scaled,
          BigPoly.big(f, Monomial.polyScale(f, fa, BigPoly.flat(f, BigInteger.ZERO, s), 1)), tag);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void badLengthsAndIndicesAreRejectedWithClearMessages(PrimeField f) {
    long[] p = f.newArray(3);
    long[] x = f.newArray(1);
    assertMessage("x index 1", () -> Monomial.polyEval(f, p, x, 1, x, 0));
    assertMessage("out index -1", () -> Monomial.polyEval(f, p, x, 0, x, -1));
    assertMessage("s index 3", () -> Monomial.polyScale(f, p, x, 3));
    if (f.words() == 2) {
      assertMessage("words per element", () -> Monomial.polyMul(f, new long[3], p));
      assertMessage("words per element", () -> Monomial.polyAdd(f, p, new long[1]));
    }
  }
}
