package org.priodp.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.field.internal.LongBytes;

/**
 * Laws and BigInteger cross-checks that every {@link PrimeField} must satisfy. Subclasses name
 * the field; randomized checks print their seed and put it into every failure message.
 */
abstract class PrimeFieldContract {
  static final int PAIRS = 100_000;

  final PrimeField f;
  final BigInteger p;

  PrimeFieldContract(PrimeField f) {
    this.f = f;
    this.p = f.modulus();
  }

  // ------------------------------------------------------------------ generators

  /**
   * Returns a canonical element, mixing uniform values with values that stress carries:
   * small values, values just below p, and values with all-ones or all-zero words.
   */
  BigInteger element(SplittableRandom rnd) {
    int bits = p.bitLength();
    switch (rnd.nextInt(6)) {
      case 0:
        return BigInteger.valueOf(rnd.nextInt(1 << 20));
      case 1:
        return p.subtract(BigInteger.valueOf(1 + rnd.nextInt(1 << 20)));
      case 2: {
        // random words, each either all ones, all zeros or random, then reduced below p
        BigInteger v = BigInteger.ZERO;
        for (int w = 0; w < f.words(); w++) {
          long word = switch (rnd.nextInt(3)) {
            case 0 -> -1L;
            case 1 -> 0L;
            default -> rnd.nextLong();
          };
          v = v.or(Field128.toBigInteger(word, 0).shiftLeft(64 * w));
        }
        return v.mod(p);
      }
      default:
        return new BigInteger(bits + 32, new java.util.Random(rnd.nextLong())).mod(p);
    }
  }

  List<BigInteger> boundaries() {
    return List.of(
        BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, p.subtract(BigInteger.ONE),
        p.subtract(BigInteger.TWO), p.shiftRight(1), p.shiftRight(1).add(BigInteger.ONE),
        BigInteger.ONE.shiftLeft(63), BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE).mod(p),
        BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE));
  }

  long[] store(BigInteger... vs) {
    long[] w = f.newArray(vs.length);
    for (int i = 0; i < vs.length; i++) {
      f.set(w, i, vs[i]);
    }
    return w;
  }

  interface FlatOp {
    void apply(long[] a, int ai, long[] b, int bi, long[] out, int oi);
  }

  BigInteger apply(FlatOp op, BigInteger x, BigInteger y) {
    long[] a = store(x);
    long[] b = store(y);
    long[] out = f.newArray(1);
    op.apply(a, 0, b, 0, out, 0);
    return f.get(out, 0);
  }

  static long seed(String test) {
    long seed = Long.getLong("priodp.seed", 0x5EED_0000L ^ test.hashCode());
    System.out.println(test + ": seed=0x" + Long.toHexString(seed));
    return seed;
  }

  // ------------------------------------------------------------------ cross-checks

  void crossCheck(String name, FlatOp op, BinaryOperator<BigInteger> reference) {
    long seed = seed(f.name() + "." + name);
    SplittableRandom rnd = new SplittableRandom(seed);
    List<String> mismatches = new ArrayList<>();
    List<BigInteger> edges = boundaries();
    for (BigInteger x : edges) {
      for (BigInteger y : edges) {
        check(name, op, reference, x, y, mismatches);
      }
    }
    for (int i = 0; i < PAIRS; i++) {
      check(name, op, reference, element(rnd), element(rnd), mismatches);
    }
    assertTrue(
        mismatches.isEmpty(),
        () -> mismatches.size() + " mismatches (seed=0x" + Long.toHexString(seed) + "), first: "
            + mismatches.subList(0, Math.min(5, mismatches.size())));
  }

  private void check(
      String name, FlatOp op, BinaryOperator<BigInteger> reference, BigInteger x, BigInteger y,
      List<String> mismatches) {
    BigInteger want = reference.apply(x, y).mod(p);
    BigInteger got = apply(op, x, y);
    if (!want.equals(got)) {
      mismatches.add(name + "(" + x + ", " + y + ") = " + got + ", want " + want);
    }
  }

  /**
   * Returns a canonical element built word by word from edge words (0, 1, 2, 2^32 - 1, 2^63,
   * 2^64 - 1 and the words of p - 1, p - 2 and (p-1)/2) and random words, reduced below p, so
   * the carries and the rare folds of the reduction are all reached.
   */
  BigInteger edgeWordElement(SplittableRandom rnd) {
    BigInteger pm1 = p.subtract(BigInteger.ONE);
    long[] pool = {
      0, 1, 2, 0xFFFFFFFFL, Long.MIN_VALUE, -1L, pm1.longValue(), pm1.shiftRight(64).longValue(),
      p.subtract(BigInteger.TWO).longValue(), p.shiftRight(1).longValue(),
      p.shiftRight(65).longValue()
    };
    BigInteger v = BigInteger.ZERO;
    for (int w = 0; w < f.words(); w++) {
      long word = rnd.nextInt(3) == 0 ? rnd.nextLong() : pool[rnd.nextInt(pool.length)];
      v = v.or(Field128.toBigInteger(word, 0).shiftLeft(64 * w));
    }
    return v.compareTo(p) < 0 ? v : v.subtract(p).mod(p);
  }

  /**
   * The differential test of the multiplication, addition and subtraction kernels against
   * BigInteger: every pair of {@link #boundaries()}, then pairs of edge-word and random
   * elements, through the scalar and the vector entry points, on the unsigned multiply this JVM
   * runs (printed: the intrinsic on Java 18+, the portable form on Java 17).
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4})
  void kernelsMatchBigIntegerOnEdgeWords(long base) {
    long seed = seed(f.name() + ".edgeWords" + base);
    System.out.println(
        f.name() + ".edgeWords: unsigned multiply "
            + (LongBytes.intrinsic() ? "intrinsic (Math.unsignedMultiplyHigh)" : "portable")
            + " on Java " + Runtime.version().feature());
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = 50_000;
    List<BigInteger> xs = new ArrayList<>();
    List<BigInteger> ys = new ArrayList<>();
    for (BigInteger x : boundaries()) {
      for (BigInteger y : boundaries()) {
        xs.add(x);
        ys.add(y);
      }
    }
    while (xs.size() < n) {
      xs.add(rnd.nextBoolean() ? edgeWordElement(rnd) : element(rnd));
      ys.add(rnd.nextBoolean() ? edgeWordElement(rnd) : element(rnd));
    }
    long[] a = store(xs.toArray(BigInteger[]::new));
    long[] b = store(ys.toArray(BigInteger[]::new));
    long[] mul = f.newArray(n);
    long[] add = f.newArray(n);
    long[] sub = f.newArray(n);
    f.mulVec(a, b, mul, n);
    f.addVec(a, b, add, n);
    f.subVec(a, b, sub, n);
    long[] one = f.newArray(1);
    List<String> mismatches = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      BigInteger x = xs.get(i);
      BigInteger y = ys.get(i);
      f.mul(a, i, b, i, one, 0);
      expect(mismatches, "mul", x, y, x.multiply(y).mod(p), f.get(mul, i), f.get(one, 0));
      f.add(a, i, b, i, one, 0);
      expect(mismatches, "add", x, y, x.add(y).mod(p), f.get(add, i), f.get(one, 0));
      f.sub(a, i, b, i, one, 0);
      expect(mismatches, "sub", x, y, x.subtract(y).mod(p), f.get(sub, i), f.get(one, 0));
    }
    assertTrue(
        mismatches.isEmpty(),
        () -> mismatches.size() + " mismatches (seed=0x" + Long.toHexString(seed) + "), first: "
            + mismatches.subList(0, Math.min(5, mismatches.size())));
  }

  private static void expect(
      List<String> mismatches, String op, BigInteger x, BigInteger y, BigInteger want,
      BigInteger vector, BigInteger scalar) {
    if (!want.equals(vector) || !want.equals(scalar)) {
      mismatches.add(op + "(" + x + ", " + y + ") = " + vector + " (vector), " + scalar
          + " (scalar), want " + want);
    }
  }

  @Test
  void addMatchesBigInteger() {
    crossCheck("add", f::add, BigInteger::add);
  }

  @Test
  void subMatchesBigInteger() {
    crossCheck("sub", f::sub, BigInteger::subtract);
  }

  @Test
  void mulMatchesBigInteger() {
    crossCheck("mul", f::mul, BigInteger::multiply);
  }

  @Test
  void negMatchesBigInteger() {
    crossCheck("neg", (a, ai, b, bi, out, oi) -> f.neg(a, ai, out, oi), (x, y) -> x.negate());
  }

  @Test
  void invMatchesBigInteger() {
    crossCheck(
        "inv",
        (a, ai, b, bi, out, oi) -> {
          if (f.isZero(a, ai)) {
            f.set(out, oi, BigInteger.ZERO); // checked separately: inverse of zero throws
          } else {
            f.inv(a, ai, out, oi);
          }
        },
        (x, y) -> x.signum() == 0 ? BigInteger.ZERO : x.modInverse(p));
  }

  @Test
  void powMatchesBigInteger() {
    crossCheck(
        "pow",
        (a, ai, b, bi, out, oi) -> f.pow(a, ai, f.get(b, bi), out, oi),
        (x, y) -> x.modPow(y, p));
  }

  @Test
  void vectorOpsMatchScalarOps() {
    long seed = seed(f.name() + ".vectorOps");
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = 1000;
    BigInteger[] xs = new BigInteger[n];
    BigInteger[] ys = new BigInteger[n];
    for (int i = 0; i < n; i++) {
      xs[i] = element(rnd);
      ys[i] = element(rnd);
    }
    long[] a = store(xs);
    long[] b = store(ys);
    long[] sum = f.newArray(n);
    long[] diff = f.newArray(n);
    long[] prod = f.newArray(n);
    long[] scaled = f.newArray(n);
    f.addVec(a, b, sum, n);
    f.subVec(a, b, diff, n);
    f.mulVec(a, b, prod, n);
    f.scalarMulVec(b, 7, a, scaled, n);
    for (int i = 0; i < n; i++) {
      String at = " at " + i + " (seed=0x" + Long.toHexString(seed) + ")";
      assertEquals(xs[i].add(ys[i]).mod(p), f.get(sum, i), "addVec" + at);
      assertEquals(xs[i].subtract(ys[i]).mod(p), f.get(diff, i), "subVec" + at);
      assertEquals(xs[i].multiply(ys[i]).mod(p), f.get(prod, i), "mulVec" + at);
      assertEquals(xs[i].multiply(ys[7]).mod(p), f.get(scaled, i), "scalarMulVec" + at);
    }
  }

  // ------------------------------------------------------------------ algebraic laws

  @Test
  void algebraicLawsHoldOnRandomElements() {
    long seed = seed(f.name() + ".laws");
    SplittableRandom rnd = new SplittableRandom(seed);
    String s = " (seed=0x" + Long.toHexString(seed) + ")";
    BigInteger one = BigInteger.ONE;
    for (int i = 0; i < 20_000; i++) {
      BigInteger x = element(rnd);
      BigInteger y = element(rnd);
      BigInteger z = element(rnd);
      assertEquals(apply(f::add, x, y), apply(f::add, y, x), "add commutes" + s);
      assertEquals(apply(f::mul, x, y), apply(f::mul, y, x), "mul commutes" + s);
      assertEquals(
          apply(f::add, apply(f::add, x, y), z), apply(f::add, x, apply(f::add, y, z)),
          "add associates" + s);
      assertEquals(
          apply(f::mul, apply(f::mul, x, y), z), apply(f::mul, x, apply(f::mul, y, z)),
          "mul associates" + s);
      assertEquals(
          apply(f::mul, x, apply(f::add, y, z)),
          apply(f::add, apply(f::mul, x, y), apply(f::mul, x, z)),
          "mul distributes over add" + s);
      assertEquals(BigInteger.ZERO, apply(f::add, x, negate(x)), "x + (-x) = 0" + s);
      assertEquals(x, apply(f::sub, apply(f::add, x, y), y), "(x + y) - y = x" + s);
      if (x.signum() != 0) {
        assertEquals(one, apply(f::mul, x, inverse(x)), "x * x^-1 = 1" + s);
        assertEquals(one, power(x, p.subtract(one)), "Fermat: x^(p-1) = 1" + s);
      }
    }
  }

  BigInteger negate(BigInteger x) {
    long[] a = store(x);
    f.neg(a, 0, a, 0);
    return f.get(a, 0);
  }

  BigInteger inverse(BigInteger x) {
    long[] a = store(x);
    f.inv(a, 0, a, 0);
    return f.get(a, 0);
  }

  BigInteger power(BigInteger x, BigInteger e) {
    long[] a = store(x);
    f.pow(a, 0, e, a, 0);
    return f.get(a, 0);
  }

  @Test
  void boundaryValuesBehave() {
    BigInteger pm1 = p.subtract(BigInteger.ONE);
    BigInteger pm2 = p.subtract(BigInteger.TWO);
    assertEquals(BigInteger.ZERO, apply(f::add, pm1, BigInteger.ONE));
    assertEquals(pm2, apply(f::add, pm1, pm1));
    assertEquals(BigInteger.ONE, apply(f::mul, pm1, pm1));
    assertEquals(pm1, apply(f::sub, BigInteger.ZERO, BigInteger.ONE));
    assertEquals(BigInteger.ZERO, negate(BigInteger.ZERO));
    assertEquals(BigInteger.ONE, negate(pm1));
    assertEquals(pm1, inverse(pm1));
    assertEquals(BigInteger.ONE, power(BigInteger.ZERO, BigInteger.ZERO));
    assertEquals(BigInteger.ZERO, power(BigInteger.ZERO, BigInteger.ONE.shiftLeft(200)));
    assertEquals(
        BigInteger.TWO.modPow(BigInteger.ONE.shiftLeft(200).add(BigInteger.TEN), p),
        power(BigInteger.TWO, BigInteger.ONE.shiftLeft(200).add(BigInteger.TEN)));
    long[] zero = f.newArray(1);
    assertThrows(ArithmeticException.class, () -> f.inv(zero, 0, zero, 0));
    assertThrows(IllegalArgumentException.class, () -> power(BigInteger.TWO, BigInteger.valueOf(-1)));
  }

  @Test
  void generatorHasTheStatedOrder() {
    BigInteger g = f.generator();
    int k = f.twoAdicity();
    assertEquals(BigInteger.ONE, power(g, BigInteger.ONE.shiftLeft(k)));
    assertEquals(p.subtract(BigInteger.ONE), power(g, BigInteger.ONE.shiftLeft(k - 1)));
    assertEquals(BigInteger.ZERO, p.subtract(BigInteger.ONE).mod(BigInteger.ONE.shiftLeft(k)));
  }

  @Test
  void setRejectsValuesOutsideTheField() {
    long[] w = f.newArray(1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> f.set(w, 0, p));
    assertTrue(e.getMessage().contains("not in [0, p)"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> f.set(w, 0, BigInteger.valueOf(-1)));
  }

  // ------------------------------------------------------------------ projection and lift

  @Test
  void constantTimeProjectionEqualsTheBranchingOne() {
    long seed = seed(f.name() + ".signedConstantTime");
    SplittableRandom rnd = new SplittableRandom(seed);
    long half = p.subtract(BigInteger.ONE).shiftRight(1).min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    List<Long> zs = new ArrayList<>(List.of(0L, 1L, -1L, 2L, -2L, Long.MIN_VALUE, Long.MAX_VALUE,
        Long.MIN_VALUE + 1, half, -half, half - 1, -half + 1, 1L << 32, -(1L << 32), 0xFFFFFFFFL, -0xFFFFFFFFL));
    for (int i = 0; i < PAIRS; i++) {
      zs.add(switch (rnd.nextInt(3)) {
        case 0 -> rnd.nextLong();
        case 1 -> (long) rnd.nextInt(1 << 20) - (1 << 19);
        default -> rnd.nextLong() >> rnd.nextInt(64);
      });
    }
    long[] want = f.newArray(1);
    long[] got = f.newArray(1);
    for (long z : zs) {
      f.setSigned(want, 0, z);
      f.setSignedConstantTime(got, 0, z);
      assertArrayEquals(want, got, "z=" + z + " (seed=0x" + Long.toHexString(seed) + ")");
      assertEquals(BigInteger.valueOf(z).mod(p), f.get(got, 0), "z=" + z);
    }
  }

  @Test
  void constantTimeAdditionEqualsTheBranchingOne() {
    long seed = seed(f.name() + ".addConstantTime");
    SplittableRandom rnd = new SplittableRandom(seed);
    BigInteger[] edges = {BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, p.subtract(BigInteger.ONE),
        p.subtract(BigInteger.TWO), p.shiftRight(1), p.shiftRight(1).add(BigInteger.ONE),
        BigInteger.ONE.shiftLeft(32), BigInteger.ONE.shiftLeft(63), BigInteger.ONE.shiftLeft(64).min(p.subtract(BigInteger.ONE))};
    int n = edges.length * edges.length + PAIRS;
    long[] a = f.newArray(n);
    long[] b = f.newArray(n);
    for (int i = 0; i < n; i++) {
      boolean edge = i < edges.length * edges.length;
      f.set(a, i, edge ? edges[i / edges.length] : element(rnd));
      f.set(b, i, edge ? edges[i % edges.length] : element(rnd));
    }
    long[] want = f.newArray(n);
    long[] got = f.newArray(n);
    f.addVec(a, b, want, n);
    f.addVecConstantTime(a, b, got, n);
    for (int i = 0; i < n; i++) {
      assertEquals(f.get(want, i), f.get(got, i),
          f.get(a, i) + " + " + f.get(b, i) + " (seed=0x" + Long.toHexString(seed) + ")");
    }
  }

  @Test
  void signedProjectionRoundTrips() {
    long seed = seed(f.name() + ".signed");
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] w = f.newArray(1);
    List<Long> values = new ArrayList<>(List.of(0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE,
        Long.MIN_VALUE + 1, 123456789L, -123456789L));
    for (int i = 0; i < 10_000; i++) {
      values.add(rnd.nextLong());
      values.add((long) rnd.nextInt());
    }
    for (long z : values) {
      f.setSigned(w, 0, z);
      BigInteger want = BigInteger.valueOf(z).mod(p);
      assertEquals(want, f.get(w, 0), "projection of " + z);
      assertEquals(lift(want), f.getSigned(w, 0), "lift of " + z);
      f.setSigned(w, 0, BigInteger.valueOf(z));
      assertEquals(want, f.get(w, 0), "BigInteger projection of " + z);
    }
  }

  @Test
  void liftCoversTheSymmetricRange() {
    BigInteger half = p.subtract(BigInteger.ONE).shiftRight(1);
    long[] w = f.newArray(1);
    for (BigInteger z : List.of(half, half.negate(), half.subtract(BigInteger.ONE),
        half.negate().add(BigInteger.ONE), p.subtract(BigInteger.ONE).negate(),
        p.subtract(BigInteger.ONE))) {
      f.setSigned(w, 0, z);
      assertEquals(lift(z.mod(p)), f.getSigned(w, 0), "lift of projection of " + z);
      if (z.abs().compareTo(half) <= 0) {
        assertEquals(z, f.getSigned(w, 0), "lift inverts projection of " + z);
      }
    }
    f.set(w, 0, half);
    assertEquals(half, f.getSigned(w, 0));
    f.set(w, 0, half.add(BigInteger.ONE));
    assertEquals(half.negate(), f.getSigned(w, 0));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> f.setSigned(w, 0, p));
    assertTrue(e.getMessage().contains("without wrapping"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> f.setSigned(w, 0, p.negate()));
  }

  /** The reference lift: v if v <= (p-1)/2, else v - p. */
  BigInteger lift(BigInteger v) {
    return v.compareTo(p.shiftRight(1)) <= 0 ? v : v.subtract(p);
  }

  // ------------------------------------------------------------------ encoding

  @Test
  void encodingRoundTripsAndIsLittleEndian() {
    long seed = seed(f.name() + ".encoding");
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = 257;
    BigInteger[] xs = new BigInteger[n];
    for (int i = 0; i < n; i++) {
      xs[i] = element(rnd);
    }
    xs[0] = p.subtract(BigInteger.ONE);
    xs[1] = BigInteger.ONE;
    long[] w = store(xs);
    byte[] enc = new byte[n * f.encodedSize() + 3];
    f.encode(w, n, enc, 3);
    assertArrayEquals(w, f.decode(enc, 3, n * f.encodedSize(), n));
    // element 1 is the integer 1: least significant byte first
    assertEquals(1, enc[3 + f.encodedSize()]);
    for (int k = 1; k < f.encodedSize(); k++) {
      assertEquals(0, enc[3 + f.encodedSize() + k]);
    }
    byte[] pm1 = p.subtract(BigInteger.ONE).toByteArray();
    for (int k = 0; k < f.encodedSize(); k++) {
      assertEquals(pm1[pm1.length - 1 - k], enc[3 + k], "byte " + k + " of p-1");
    }
  }

  byte[] encodeRaw(BigInteger... vs) {
    int size = f.encodedSize();
    byte[] out = new byte[vs.length * size];
    for (int i = 0; i < vs.length; i++) {
      byte[] be = vs[i].toByteArray();
      for (int k = 0; k < size && k < be.length; k++) {
        out[i * size + k] = be[be.length - 1 - k];
      }
    }
    return out;
  }

  @Test
  void decodingRejectsNonCanonicalElementsNamingTheIndex() {
    BigInteger max = BigInteger.ONE.shiftLeft(8 * f.encodedSize()).subtract(BigInteger.ONE);
    for (BigInteger bad : List.of(p, p.add(BigInteger.ONE), max)) {
      byte[] enc = encodeRaw(BigInteger.ONE, BigInteger.TWO, bad, BigInteger.ZERO);
      DecodeException e =
          assertThrows(DecodeException.class, () -> f.decode(enc, 0, enc.length, 4));
      assertTrue(e.getMessage().contains("element 2"), e.getMessage());
      assertTrue(e.getMessage().contains(">= p"), e.getMessage());
      assertThrows(DecodeException.class, () -> f.decodeAll(enc, 0, enc.length));
    }
  }

  @Test
  void decodingRejectsWrongLengthsAndCounts() {
    int size = f.encodedSize();
    byte[] enc = new byte[3 * size];
    DecodeException e = assertThrows(DecodeException.class, () -> f.decode(enc, 0, enc.length, 4));
    assertTrue(e.getMessage().contains("4 elements"), e.getMessage());
    e = assertThrows(DecodeException.class, () -> f.decodeAll(enc, 0, enc.length - 1));
    assertTrue(e.getMessage().contains("multiple of " + size), e.getMessage());
    e = assertThrows(DecodeException.class, () -> f.decodeAll(enc, 1, enc.length));
    assertTrue(e.getMessage().contains("outside the input"), e.getMessage());
    assertThrows(DecodeException.class, () -> f.decodeAll(enc, -1, size));
    assertThrows(DecodeException.class, () -> f.decode(enc, 0, enc.length, -1));
    assertEquals(0, f.decodeAll(new byte[0], 0, 0).length);
  }
}
