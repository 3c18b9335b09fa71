package org.priodp.field.internal;

import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;

/**
 * Iterative radix-2 NTT kernels on flat storage: a bit-reversal permutation followed by
 * Cooley-Tukey (decimation-in-time) butterflies, so both input and output are in natural order.
 *
 * <p>Callers validate sizes; these methods assume {@code a} holds exactly {@code n} elements and
 * {@code powers} holds {@code Wn^0 .. Wn^(n-1)} for the principal n-th root {@code Wn}.
 */
public final class Radix2 {
  private Radix2() {}

  /** Replaces {@code a} (n elements, natural order) by {@code a_hat[k] = sum_j a[j] Wn^(jk)}. */
  public static void forward(PrimeField f, long[] a, int n, long[] powers) {
    if (n == 1) {
      return;
    }
    bitReverse(a, n, f.words());
    if (f instanceof Field64) {
      butterflies64(a, n, powers);
    } else {
      butterflies128(a, n, powers);
    }
  }

  /**
   * Replaces {@code a} by its inverse transform {@code a[j] = n^-1 sum_k a_hat[k] Wn^(-jk)}, as
   * the forward transform followed by reversing entries 1..n-1 (since Wn^(-jk) = Wn^((n-k)j))
   * and scaling by {@code n^-1}.
   */
  public static void inverse(PrimeField f, long[] a, int n, long[] powers, long[] nInv) {
    forward(f, a, n, powers);
    int words = f.words();
    for (int i = 1, j = n - 1; i < j; i++, j--) {
      swap(a, i, j, words);
    }
    f.scalarMulVec(nInv, 0, a, a, n);
  }

  private static void bitReverse(long[] a, int n, int words) {
    int shift = 32 - Integer.numberOfTrailingZeros(n);
    for (int i = 1; i < n - 1; i++) {
      int r = Integer.reverse(i) >>> shift;
      if (i < r) {
        swap(a, i, r, words);
      }
    }
  }

  private static void swap(long[] a, int i, int j, int words) {
    if (words == 1) {
      long t = a[i];
      a[i] = a[j];
      a[j] = t;
    } else {
      long t0 = a[2 * i];
      long t1 = a[2 * i + 1];
      a[2 * i] = a[2 * j];
      a[2 * i + 1] = a[2 * j + 1];
      a[2 * j] = t0;
      a[2 * j + 1] = t1;
    }
  }

  private static void butterflies64(long[] a, int n, long[] powers) {
    for (int half = 1, step = n >>> 1; half < n; half <<= 1, step >>>= 1) {
      for (int start = 0; start < n; start += 2 * half) {
        // j = 0: the twiddle is Wn^0 = 1, no multiplication (n - 1 of the (n/2) log n)
        long u0 = a[start];
        long v0 = a[start + half];
        a[start] = Field64.add(u0, v0);
        a[start + half] = Field64.sub(u0, v0);
        for (int j = 1, t = step; j < half; j++, t += step) {
          int lo = start + j;
          int hi = lo + half;
          long u = a[lo];
          long v = Field64.mul(a[hi], powers[t]);
          a[lo] = Field64.add(u, v);
          a[hi] = Field64.sub(u, v);
        }
      }
    }
  }

  private static void butterflies128(long[] a, int n, long[] powers) {
    Field128 f = Field128.FIELD;
    long[] v = new long[2];
    for (int half = 1, step = n >>> 1; half < n; half <<= 1, step >>>= 1) {
      for (int start = 0; start < n; start += 2 * half) {
        // j = 0: the twiddle is Wn^0 = 1, no multiplication (n - 1 of the (n/2) log n)
        int hi0 = start + half;
        v[0] = a[2 * hi0];
        v[1] = a[2 * hi0 + 1];
        f.sub(a, start, v, 0, a, hi0);
        f.add(a, start, v, 0, a, start);
        for (int j = 1, t = step; j < half; j++, t += step) {
          int lo = start + j;
          int hi = lo + half;
          f.mul(a, hi, powers, t, v, 0);
          f.sub(a, lo, v, 0, a, hi);
          f.add(a, lo, v, 0, a, lo);
        }
      }
    }
  }
}
