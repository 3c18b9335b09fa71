package org.priodp.field;

import org.priodp.field.internal.Radix2;
import org.priodp.field.internal.RootTables;

/**
 * The number-theoretic transform over the 2-power subgroup of a Prio3 field (VDAF draft-20,
 * section "NTT-Friendly Fields"), on flat {@code long[]} storage.
 *
 * <p>Conventions, shared with {@link Lagrange} and {@link Monomial}:
 *
 * <ul>
 *   <li>The principal n-th root of unity is {@code Wn = gen^(2^twoAdicity / n)}, for n a power
 *       of two with {@code 1 <= n <= 2^twoAdicity} (and n <= 2^30, the largest power of two an
 *       {@code int} holds), exactly as the specification's {@code Field.nth_root(n)}.
 *   <li>Coefficient vectors (monomial basis) are in ascending degree order: element i is the
 *       coefficient of x^i.
 *   <li>Evaluation vectors (Lagrange basis) are in natural order: element i is the value at
 *       {@code Wn^i}. Neither inputs nor outputs are ever bit-reversed.
 * </ul>
 *
 * <p>Powers of each root are computed once per (field, n) and cached. The transforms are
 * iterative radix-2 and allocate no per-element objects. All methods throw
 * {@link IllegalArgumentException} for a size that is not a supported power of two or an array
 * of the wrong length, and {@link NullPointerException} for a null array.
 */
public final class Ntt {
  private Ntt() {}

  /**
   * Returns the principal n-th root of unity {@code Wn = gen^(2^twoAdicity / n)} as a
   * one-element flat array (the specification's {@code Field.nth_root(n)}).
   */
  public static long[] nthRoot(PrimeField f, int n) {
    return RootTables.root(f, RootTables.logSize(f, n, "root order n"));
  }

  /**
   * Returns {@code Wn^0 .. Wn^(n-1)}, the first n powers of the principal n-th root of unity (the
   * specification's {@code Field.nth_root_powers(n)}), as a fresh array.
   */
  public static long[] nthRootPowers(PrimeField f, int n) {
    int log = RootTables.logSize(f, n, "root order n");
    return RootTables.table(f, log).powers.clone();
  }

  /**
   * Transforms coefficients into evaluations in place (the specification's
   * {@code Field.ntt(p, n)} with n = the length of {@code a}): afterwards
   * {@code a[i] = p(Wn^i)} where p had coefficients {@code a}.
   *
   * @throws IllegalArgumentException if the element count of {@code a} is not a supported power
   *     of two
   */
  public static void nttInPlace(PrimeField f, long[] a) {
    int n = RootTables.elements(f, a, "a");
    int log = RootTables.logSize(f, n, "NTT size (elements of a)");
    Radix2.forward(f, a, n, RootTables.table(f, log).powers);
  }

  /**
   * Transforms evaluations into coefficients in place (the specification's
   * {@code Field.inv_ntt(v, n)} with n = the length of {@code a}): afterwards {@code a} holds the
   * coefficients of the unique polynomial of degree < n with {@code p(Wn^i)} = the old
   * {@code a[i]}.
   *
   * @throws IllegalArgumentException if the element count of {@code a} is not a supported power
   *     of two
   */
  public static void invNttInPlace(PrimeField f, long[] a) {
    int n = RootTables.elements(f, a, "a");
    int log = RootTables.logSize(f, n, "NTT size (elements of a)");
    RootTables.Table t = RootTables.table(f, log);
    Radix2.inverse(f, a, n, t.powers, t.nInv);
  }

  /**
   * Returns the n evaluations {@code v[i] = p(Wn^i)} of the polynomial with coefficients
   * {@code p} (the specification's {@code Field.ntt(p, n)}).
   *
   * <p>{@code p} may hold any number of coefficients: fewer than n are padded with zeros; more
   * than n are folded modulo {@code x^n - 1} (coefficient i added to i mod n), which leaves the
   * values at the n-th roots of unity unchanged.
   */
  public static long[] ntt(PrimeField f, long[] p, int n) {
    long[] out = f.newArray(checkedSize(f, n));
    ntt(f, p, n, out);
    return out;
  }

  /**
   * Writes the n evaluations {@code out[i] = p(Wn^i)} of the polynomial with coefficients
   * {@code p} into {@code out} (the specification's {@code Field.ntt(p, n)}; see
   * {@link #ntt(PrimeField, long[], int)} for the padding and folding of {@code p}). {@code out}
   * may be {@code p} itself when {@code p} holds exactly n elements.
   *
   * @throws IllegalArgumentException if {@code out} does not hold exactly n elements
   */
  public static void ntt(PrimeField f, long[] p, int n, long[] out) {
    int log = RootTables.logSize(f, n, "NTT size n");
    int m = RootTables.elements(f, p, "p");
    RootTables.requireElements(f, out, n, "out");
    loadFolded(f, p, m, out, n);
    Radix2.forward(f, out, n, RootTables.table(f, log).powers);
  }

  /**
   * Returns the n evaluations {@code v[i] = p(s * Wn^i)} at the coset of the n-th roots shifted
   * by {@code s = W2n}, the principal 2n-th root of unity (the specification's
   * {@code Field.ntt(p, n, set_s=True)}). Together with {@link #ntt} these are the values at
   * the odd powers of {@code W2n}. {@code p} may hold any number of coefficients, as in
   * {@link #ntt}; the result is always the values of p at the shifted points.
   *
   * @throws IllegalArgumentException if 2n exceeds the order of the 2-power subgroup
   */
  public static long[] nttShifted(PrimeField f, long[] p, int n) {
    int log = RootTables.logSize(f, n, "NTT size n");
    RootTables.logSize(f, 2L * n, "shifted NTT needs the 2n-th root of unity: 2n =");
    int m = RootTables.elements(f, p, "p");
    long[] shift = RootTables.table(f, log + 1).powers; // W2n^i; i < 2n
    long[] out = f.newArray(n);
    long[] term = f.newArray(1);
    // p(s x) = sum_i (p_i s^i) x^i; fold with x^n = 1 at the n-th roots (s^(i+n) = -s^i is
    // already included in s^(i mod 2n)).
    for (int i = 0; i < m; i++) {
      f.mul(p, i, shift, i & (2 * n - 1), term, 0);
      f.add(out, i & (n - 1), term, 0, out, i & (n - 1));
    }
    Radix2.forward(f, out, n, RootTables.table(f, log).powers);
    return out;
  }

  /**
   * Returns the coefficients of the unique polynomial p of degree < n with {@code p(Wn^i) =
   * v[i]} (the specification's {@code Field.inv_ntt(v, n)}): interpolation over the n-th roots
   * of unity.
   *
   * @throws IllegalArgumentException if {@code v} does not hold exactly n elements
   */
  public static long[] invNtt(PrimeField f, long[] v, int n) {
    int log = RootTables.logSize(f, n, "NTT size n");
    RootTables.requireElements(f, v, n, "v");
    long[] out = v.clone();
    RootTables.Table t = RootTables.table(f, log);
    Radix2.inverse(f, out, n, t.powers, t.nInv);
    return out;
  }

  private static int checkedSize(PrimeField f, int n) {
    RootTables.logSize(f, n, "NTT size n");
    return n;
  }

  /** Sets out = p padded with zeros, or folded modulo x^n - 1, to n elements. */
  private static void loadFolded(PrimeField f, long[] p, int m, long[] out, int n) {
    if (p == out) {
      return; // m == n, checked by the caller
    }
    int words = f.words();
    int direct = Math.min(m, n);
    System.arraycopy(p, 0, out, 0, direct * words);
    java.util.Arrays.fill(out, direct * words, n * words, 0L);
    for (int i = n; i < m; i++) {
      f.add(out, i & (n - 1), p, i, out, i & (n - 1));
    }
  }
}
