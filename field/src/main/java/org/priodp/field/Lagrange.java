package org.priodp.field;

import org.priodp.field.internal.RootTables;

/**
 * Operations on polynomials in the Lagrange basis (VDAF draft-20, section "Lagrange Basis"): a
 * polynomial p of degree < n is the flat array {@code v} of its n values {@code v[i] = p(Wn^i)}
 * at the powers of the principal n-th root of unity {@code Wn} (see {@link Ntt} for the root
 * convention), in natural order, n a power of two.
 *
 * <p>This is the representation the FLP uses for wire polynomials (wire seed at {@code Wp^0},
 * the k-th gadget call's input at {@code Wp^k}) and for gadget polynomials, both in the proof and
 * in the verifier.
 *
 * <p>Single field elements (the point x, outputs) are passed as (array, element index) like the
 * methods of {@link PrimeField}. Bad sizes and lengths throw {@link IllegalArgumentException}.
 */
public final class Lagrange {
  private Lagrange() {}

  /**
   * Multiplies two polynomials in the Lagrange basis (the specification's
   * {@code Lagrange.poly_mul}): given n values of p and of q, returns the 2n values of p*q at the
   * 2n-th roots of unity, in natural order.
   *
   * @throws IllegalArgumentException if p and q differ in length, or the length is not a power
   *     of two n with 2n within the 2-power subgroup
   */
  public static long[] polyMul(PrimeField f, long[] p, long[] q) {
    int n = RootTables.elements(f, p, "p");
    RootTables.requireElements(f, q, n, "q (same length as p)");
    long[] out = doubleEvaluations(f, p);
    long[] q2 = doubleEvaluations(f, q);
    f.mulVec(out, q2, out, 2 * n);
    return out;
  }

  /**
   * Evaluates a polynomial in the Lagrange basis at a point in linear time, without
   * interpolation (the specification's {@code Lagrange.poly_eval}): sets {@code out[oi] = p(x)}
   * for {@code x = x[xi]}.
   *
   * <p>It computes {@code p(x) = n^-1 * sum_i p[i] Wn^i prod_{j != i} (x - Wn^j)}, which needs no
   * inversion apart from the cached {@code n^-1} and is also correct when x is a root of unity.
   *
   * @throws IllegalArgumentException if the length of p is not a supported power of two
   */
  public static void polyEval(PrimeField f, long[] p, long[] x, int xi, long[] out, int oi) {
    checkIndex(f, out, oi, "out");
    long[] u = evalBatched(f, new long[][] {p}, x, xi);
    System.arraycopy(u, 0, out, oi * f.words(), f.words());
  }

  /**
   * Evaluates each polynomial in the Lagrange basis at the same point (the specification's
   * {@code Lagrange.poly_eval_batched}): sets {@code out[j] = polys[j](x[xi])}. Faster than
   * repeated {@link #polyEval} because the products over the nodes are shared.
   *
   * @throws IllegalArgumentException if the polynomials differ in length, the length is not a
   *     supported power of two, there are none, or {@code out} does not hold one element per
   *     polynomial
   */
  public static void polyEvalBatched(
      PrimeField f, long[][] polys, long[] x, int xi, long[] out) {
    RootTables.requireElements(f, out, polys.length, "out (one element per polynomial)");
    long[] u = evalBatched(f, polys, x, xi);
    System.arraycopy(u, 0, out, 0, u.length);
  }

  private static long[] evalBatched(PrimeField f, long[][] polys, long[] x, int xi) {
    if (polys.length == 0) {
      throw new IllegalArgumentException("polys must hold at least one polynomial");
    }
    int n = RootTables.elements(f, polys[0], "polys[0]");
    for (int j = 1; j < polys.length; j++) {
      RootTables.requireElements(f, polys[j], n, "polys[" + j + "] (same length as polys[0])");
    }
    int log = RootTables.logSize(f, n, "Lagrange-basis length");
    checkIndex(f, x, xi, "x");
    RootTables.Table t = RootTables.table(f, log);
    long[] nodes = t.powers;
    int m = polys.length;
    int words = f.words();
    long[] u = f.newArray(m);
    for (int j = 0; j < m; j++) {
      System.arraycopy(polys[j], 0, u, j * words, words);
    }
    // s[0] = k (product of the previous differences), s[1] = d = nodes[i] - x,
    // s[2] = k * nodes[i], s[3] = scratch.
    long[] s = f.newArray(4);
    System.arraycopy(nodes, 0, s, 0, words); // k = 1
    f.sub(nodes, 0, x, xi, s, 1);
    for (int i = 1; i < n; i++) {
      f.mul(s, 0, s, 1, s, 0);
      f.sub(nodes, i, x, xi, s, 1);
      f.mul(s, 0, nodes, i, s, 2);
      for (int j = 0; j < m; j++) {
        f.mul(u, j, s, 1, u, j);
        f.mul(s, 2, polys[j], i, s, 3);
        f.add(u, j, s, 3, u, j);
      }
    }
    // u used prod_{j != i} (Wn^j - x) = (-1)^(n-1) prod_{j != i} (x - Wn^j).
    long[] factor = t.nInv.clone();
    if (n > 1) {
      f.neg(factor, 0, factor, 0);
    }
    f.scalarMulVec(factor, 0, u, u, m);
    return u;
  }

  /**
   * Extends the values of a polynomial to n values (the specification's
   * {@code Lagrange.extend_values_to_power_of_2}): given {@code p[i] = P(Wn^i)} for the first
   * m <= n powers of {@code Wn}, where P has degree < m, returns all n values
   * {@code P(Wn^0) .. P(Wn^(n-1))}; the first m are copied from p.
   *
   * <p>The FLP verifier uses it to recover the full gadget polynomial from the
   * {@code gadget_poly_len} values sent in the proof. The result equals the specification's;
   * the algorithm differs: with {@code A_i = prod_{m <= j < n} (Wn^i - Wn^j)} the barycentric
   * weights of the first m nodes are {@code Wn^i A_i / n}, so each missing value is
   * {@code P(Wn^k) = n^-1 sum_{i < m} p[i] Wn^i A_i prod_{j < m, j != i} (Wn^k - Wn^j)}, which
   * takes O(m (n - m)) multiplications and no inversion (O(n) for degree-2 gadgets, where
   * n - m = 1). An empty p extends to n zeros.
   *
   * @throws IllegalArgumentException if n is not a supported power of two or p holds more than
   *     n elements
   */
  public static long[] extendValuesToPowerOf2(PrimeField f, long[] p, int n) {
    int log = RootTables.logSize(f, n, "extended length n");
    int m = RootTables.elements(f, p, "p");
    if (m > n) {
      throw new IllegalArgumentException(
          "p holds " + m + " values, more than the extended length n = " + n);
    }
    int words = f.words();
    long[] out = f.newArray(n);
    System.arraycopy(p, 0, out, 0, m * words);
    if (m == n || m == 0) {
      return out;
    }
    RootTables.Table t = RootTables.table(f, log);
    long[] x = t.powers;
    long[] c = f.newArray(m);
    long[] s = f.newArray(4);
    for (int i = 0; i < m; i++) {
      f.mul(p, i, x, i, c, i);
      for (int j = m; j < n; j++) {
        f.sub(x, i, x, j, s, 0);
        f.mul(c, i, s, 0, c, i);
      }
    }
    // s[0] = u (running sum), s[1] = K (prefix product), s[2] = d = x_k - x_i, s[3] = scratch.
    for (int k = m; k < n; k++) {
      System.arraycopy(c, 0, s, 0, words);
      System.arraycopy(x, 0, s, words, words); // K = 1
      f.sub(x, k, x, 0, s, 2);
      for (int i = 1; i < m; i++) {
        f.mul(s, 1, s, 2, s, 1); // K *= x_k - x_{i-1}
        f.sub(x, k, x, i, s, 2);
        f.mul(s, 0, s, 2, s, 0); // u *= x_k - x_i
        f.mul(s, 1, c, i, s, 3);
        f.add(s, 0, s, 3, s, 0); // u += K * c_i
      }
      f.mul(s, 0, t.nInv, 0, out, k);
    }
    return out;
  }

  /**
   * Returns the 2n values of a polynomial at the 2n-th roots of unity given its n values at the
   * n-th roots (the specification's {@code Lagrange.double_evaluations}), in natural order: the
   * even entries are p itself, the odd ones the values at the shifted points from
   * {@link Ntt#nttShifted} applied to {@link Ntt#invNtt}.
   *
   * @throws IllegalArgumentException if the length n of p is not a power of two with 2n within
   *     the 2-power subgroup
   */
  public static long[] doubleEvaluations(PrimeField f, long[] p) {
    int n = RootTables.elements(f, p, "p");
    RootTables.logSize(f, n, "Lagrange-basis length");
    RootTables.logSize(f, 2L * n, "doubled length 2n =");
    long[] odd = Ntt.nttShifted(f, Ntt.invNtt(f, p, n), n);
    int words = f.words();
    long[] out = f.newArray(2 * n);
    for (int i = 0; i < n; i++) {
      System.arraycopy(p, i * words, out, 2 * i * words, words);
      System.arraycopy(odd, i * words, out, (2 * i + 1) * words, words);
    }
    return out;
  }

  /**
   * Returns the n values at the n-th roots of unity of the composition {@code P(I(x))}, where P
   * is given by its coefficients (monomial basis) and I by its values in the Lagrange basis (the
   * specification's {@code PolyEval.eval_poly}, VDAF draft-20 section "Polynomial Evaluation").
   *
   * <p>I is interpolated ({@link Ntt#invNtt}), evaluated at the n-th roots ({@link Ntt#ntt}),
   * and P is applied to each value with {@link Monomial#polyEval}. For the result to determine
   * the composition, n must exceed {@code deg(P) * (len(inp) - 1)}; that is the caller's choice
   * (the gadget uses {@code next_power_of_2(gadget_poly_len(DEGREE, len(inp)))}).
   *
   * @throws IllegalArgumentException if the length of {@code inp} or n is not a supported power
   *     of two
   */
  public static long[] polyCompose(PrimeField f, long[] pMon, long[] inp, int n) {
    RootTables.logSize(f, n, "output length n");
    int len = RootTables.elements(f, inp, "inp");
    RootTables.logSize(f, len, "Lagrange-basis length of inp");
    int deg = RootTables.elements(f, pMon, "pMon");
    long[] values = Ntt.ntt(f, Ntt.invNtt(f, inp, len), n);
    long[] scratch = f.newArray(2);
    for (int i = 0; i < n; i++) {
      Monomial.horner(f, pMon, deg, values, i, scratch, values, i);
    }
    return values;
  }

  private static void checkIndex(PrimeField f, long[] a, int i, String name) {
    int len = RootTables.elements(f, a, name);
    if (i < 0 || i >= len) {
      throw new IllegalArgumentException(
          name + " index " + i + " is outside the " + len + " elements of " + name);
    }
  }
}
