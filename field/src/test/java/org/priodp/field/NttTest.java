package org.priodp.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.field.BigPoly.Gen;

class NttTest {

  static Stream<Arguments> upTo1024() {
    return BigPoly.fieldsAndLogs(10);
  }

  static Stream<Arguments> fields() {
    return Stream.of(BigPoly.FIELDS).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0} n=2^{1}")
  @MethodSource("upTo1024")
  void nttMatchesNaiveDft(PrimeField f, int log) {
    int n = 1 << log;
    Gen g = new Gen(f.name() + ".nttMatchesNaiveDft." + n);
    BigInteger[] a = BigPoly.elements(f, g.rnd, n);
    BigInteger[] want = BigPoly.dft(f, a);
    assertArrayEquals(want, BigPoly.big(f, Ntt.ntt(f, BigPoly.flat(f, a), n)), g.tag());
    long[] inPlace = BigPoly.flat(f, a);
    Ntt.nttInPlace(f, inPlace);
    assertArrayEquals(want, BigPoly.big(f, inPlace), g.tag());
  }

  @ParameterizedTest(name = "{0} n=2^{1}")
  @MethodSource("upTo1024")
  void inverseUndoesNtt(PrimeField f, int log) {
    int n = 1 << log;
    Gen g = new Gen(f.name() + ".inverseUndoesNtt." + n);
    long[] x = BigPoly.flat(f, BigPoly.elements(f, g.rnd, n));
    assertArrayEquals(x, Ntt.invNtt(f, Ntt.ntt(f, x, n), n), g.tag());
    assertArrayEquals(x, Ntt.ntt(f, Ntt.invNtt(f, x, n), n), g.tag());
    long[] y = x.clone();
    Ntt.nttInPlace(f, y);
    Ntt.invNttInPlace(f, y);
    assertArrayEquals(x, y, g.tag());
  }

  @ParameterizedTest(name = "{0} n=2^{1}")
  @MethodSource("upTo1024")
  void invNttInterpolatesTheValuesAtTheRoots(PrimeField f, int log) {
    int n = 1 << log;
    Gen g = new Gen(f.name() + ".invNttInterpolates." + n);
    BigInteger[] v = BigPoly.elements(f, g.rnd, n);
    BigInteger[] coeffs = BigPoly.big(f, Ntt.invNtt(f, BigPoly.flat(f, v), n));
    BigInteger[] pw = BigPoly.powers(f, BigPoly.root(f, n), n);
    for (int i = 0; i < n; i += Math.max(1, n / 16)) {
      assertEquals(v[i], BigPoly.horner(f, coeffs, pw[i]), g.tag() + " i=" + i);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void rootsFollowTheSpecificationConvention(PrimeField f) {
    BigInteger p = f.modulus();
    for (int log = 0; log <= 30; log++) {
      int n = 1 << log;
      BigInteger w = f.get(Ntt.nthRoot(f, n), 0);
      assertEquals(BigPoly.root(f, n), w, "n=2^" + log);
      assertEquals(BigInteger.ONE, w.modPow(BigInteger.valueOf(n), p), "Wn^n, n=2^" + log);
      if (n > 1) {
        assertEquals(p.subtract(BigInteger.ONE), w.modPow(BigInteger.valueOf(n / 2), p),
            "Wn^(n/2) must be -1 (primitive), n=2^" + log);
      }
    }
    // the generator itself has order exactly 2^twoAdicity
    BigInteger gen = f.generator();
    BigInteger half = BigInteger.ONE.shiftLeft(f.twoAdicity() - 1);
    assertEquals(p.subtract(BigInteger.ONE), gen.modPow(half, p));
    assertArrayEquals(BigPoly.powers(f, BigPoly.root(f, 64), 64),
        BigPoly.big(f, Ntt.nthRootPowers(f, 64)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void nttPadsShortAndFoldsLongCoefficientVectors(PrimeField f) {
    Gen g = new Gen(f.name() + ".nttPadsAndFolds");
    int n = 16;
    BigInteger[] pw = BigPoly.powers(f, BigPoly.root(f, n), n);
    for (int m : new int[] {0, 1, 5, 15, 16, 17, 40, 64}) {
      BigInteger[] p = BigPoly.elements(f, g.rnd, m);
      BigInteger[] got = BigPoly.big(f, Ntt.ntt(f, BigPoly.flat(f, p), n));
      for (int i = 0; i < n; i++) {
        assertEquals(BigPoly.horner(f, p, pw[i]), got[i], g.tag() + " m=" + m + " i=" + i);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void nttShiftedEvaluatesAtTheOddPowersOfThe2nthRoot(PrimeField f) {
    Gen g = new Gen(f.name() + ".nttShifted");
    for (int n : new int[] {1, 2, 8, 32}) {
      BigInteger[] pw2n = BigPoly.powers(f, BigPoly.root(f, 2L * n), 2 * n);
      for (int m : new int[] {n, n / 2 + 1, 3 * n}) {
        BigInteger[] p = BigPoly.elements(f, g.rnd, m);
        BigInteger[] got = BigPoly.big(f, Ntt.nttShifted(f, BigPoly.flat(f, p), n));
        for (int i = 0; i < n; i++) {
          assertEquals(BigPoly.horner(f, p, pw2n[2 * i + 1]), got[i],
              g.tag() + " n=" + n + " m=" + m + " i=" + i);
        }
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void outputArrayVariantAllowsAliasing(PrimeField f) {
    Gen g = new Gen(f.name() + ".nttOutputArray");
    long[] x = BigPoly.flat(f, BigPoly.elements(f, g.rnd, 32));
    long[] want = Ntt.ntt(f, x, 32);
    long[] out = f.newArray(32);
    Ntt.ntt(f, x, 32, out);
    assertArrayEquals(want, out, g.tag());
    long[] same = x.clone();
    Ntt.ntt(f, same, 32, same);
    assertArrayEquals(want, same, g.tag());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void badSizesAndLengthsAreRejectedWithClearMessages(PrimeField f) {
    long[] eight = f.newArray(8);
    assertMessage("power of two", () -> Ntt.ntt(f, eight, 12));
    assertMessage("power of two", () -> Ntt.ntt(f, eight, 0));
    assertMessage("power of two", () -> Ntt.ntt(f, eight, -4));
    assertMessage("power of two", () -> Ntt.nthRoot(f, 3));
    assertMessage("power of two", () -> Ntt.nthRootPowers(f, 0));
    assertMessage("power of two", () -> Ntt.nttInPlace(f, f.newArray(6)));
    assertMessage("power of two", () -> Ntt.invNttInPlace(f, f.newArray(0)));
    assertMessage("power of two", () -> Ntt.nttShifted(f, eight, 24));
    assertMessage("v must hold 16", () -> Ntt.invNtt(f, eight, 16));
    assertMessage("out must hold 8", () -> Ntt.ntt(f, eight, 8, f.newArray(4)));
    if (f.words() == 2) {
      assertMessage("words per element", () -> Ntt.ntt(f, new long[3], 2));
      assertMessage("words per element", () -> Ntt.nttInPlace(f, new long[5]));
    }
  }

  @Test
  void sizesBeyondThe2PowerSubgroupAreRejected() {
    // int sizes cannot exceed either subgroup (2^32, 2^66); the shared check takes a long.
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> org.priodp.field.internal.RootTables.logSize(Field64.FIELD, 1L << 33, "NTT size"));
    assertTrue(e.getMessage().contains("exceeds the order 2^32"), e.getMessage());
  }

  static void assertMessage(String fragment, org.junit.jupiter.api.function.Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(fragment),
        () -> "message \"" + e.getMessage() + "\" should contain \"" + fragment + "\"");
  }
}
