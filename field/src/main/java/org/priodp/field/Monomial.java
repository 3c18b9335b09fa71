package org.priodp.field;

import org.priodp.field.internal.RootTables;

/**
 * Operations on polynomials in the monomial basis (VDAF draft-20, section "Monomial Basis"): a
 * polynomial is the flat array of its coefficients in ascending degree order, element i being
 * the coefficient of x^i. Arrays may have any length, including 0 (the zero polynomial);
 * results are not stripped of leading zero coefficients.
 *
 * <p>Single field elements are passed as (array, element index) like the methods of
 * {@link PrimeField}. Bad lengths throw {@link IllegalArgumentException}.
 */
public final class Monomial {
  private Monomial() {}

  /**
   * Evaluates a polynomial at a point with Horner's rule (the specification's
   * {@code poly_eval(field, p, x)}): sets {@code out[oi] = p(x[xi])}. {@code out} may be
   * {@code x}.
   */
  public static void polyEval(PrimeField f, long[] p, long[] x, int xi, long[] out, int oi) {
    int m = RootTables.elements(f, p, "p");
    int xl = RootTables.elements(f, x, "x");
    int ol = RootTables.elements(f, out, "out");
    if (xi < 0 || xi >= xl) {
      throw new IllegalArgumentException("x index " + xi + " is outside the " + xl + " elements");
    }
    if (oi < 0 || oi >= ol) {
      throw new IllegalArgumentException(
          "out index " + oi + " is outside the " + ol + " elements");
    }
    horner(f, p, m, x, xi, f.newArray(2), out, oi);
  }

  /** Horner's rule with caller-provided scratch of two elements; indices already checked. */
  static void horner(
      PrimeField f, long[] p, int m, long[] x, int xi, long[] s, long[] out, int oi) {
    int words = f.words();
    System.arraycopy(x, xi * words, s, words, words); // s[1] = x (out may alias x)
    java.util.Arrays.fill(s, 0, words, 0L); // s[0] = acc = 0
    for (int i = m - 1; i >= 0; i--) {
      f.mul(s, 0, s, 1, s, 0);
      f.add(s, 0, p, i, s, 0);
    }
    System.arraycopy(s, 0, out, oi * words, words);
  }

  /**
   * Multiplies two polynomials via the NTT: returns the {@code len(p) + len(q) - 1}
   * coefficients of p*q (none if either is empty).
   *
   * @throws IllegalArgumentException if the product has more coefficients than the 2-power
   *     subgroup has elements
   */
  public static long[] polyMul(PrimeField f, long[] p, long[] q) {
    int lp = RootTables.elements(f, p, "p");
    int lq = RootTables.elements(f, q, "q");
    if (lp == 0 || lq == 0) {
      return f.newArray(0);
    }
    long r = (long) lp + lq - 1;
    long size = Long.highestOneBit(r) == r ? r : Long.highestOneBit(r) << 1;
    RootTables.logSize(f, size, "product size (next power of two >= len(p) + len(q) - 1)");
    int n = (int) size;
    long[] a = Ntt.ntt(f, p, n);
    long[] b = Ntt.ntt(f, q, n);
    f.mulVec(a, b, a, n);
    Ntt.invNttInPlace(f, a);
    long[] out = f.newArray((int) r);
    System.arraycopy(a, 0, out, 0, out.length);
    return out;
  }

  /** Returns p + q, with {@code max(len(p), len(q))} coefficients. */
  public static long[] polyAdd(PrimeField f, long[] p, long[] q) {
    return addOrSub(f, p, q, false);
  }

  /** Returns p - q, with {@code max(len(p), len(q))} coefficients. */
  public static long[] polySub(PrimeField f, long[] p, long[] q) {
    return addOrSub(f, p, q, true);
  }

  /** Returns {@code s[si] * p}, coefficient by coefficient. */
  public static long[] polyScale(PrimeField f, long[] p, long[] s, int si) {
    int m = RootTables.elements(f, p, "p");
    int sl = RootTables.elements(f, s, "s");
    if (si < 0 || si >= sl) {
      throw new IllegalArgumentException("s index " + si + " is outside the " + sl + " elements");
    }
    long[] out = f.newArray(m);
    f.scalarMulVec(s, si, p, out, m);
    return out;
  }

  private static long[] addOrSub(PrimeField f, long[] p, long[] q, boolean sub) {
    int lp = RootTables.elements(f, p, "p");
    int lq = RootTables.elements(f, q, "q");
    int common = Math.min(lp, lq);
    long[] out = f.newArray(Math.max(lp, lq));
    if (sub) {
      f.subVec(p, q, out, common);
    } else {
      f.addVec(p, q, out, common);
    }
    int words = f.words();
    if (lp > common) {
      System.arraycopy(p, common * words, out, common * words, (lp - common) * words);
    } else {
      for (int i = common; i < lq; i++) {
        if (sub) {
          f.neg(q, i, out, i);
        } else {
          System.arraycopy(q, i * words, out, i * words, words);
        }
      }
    }
    return out;
  }
}
