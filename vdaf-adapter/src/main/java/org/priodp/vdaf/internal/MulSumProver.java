package org.priodp.vdaf.internal;

import org.priodp.field.Ntt;
import org.priodp.field.PrimeField;

/**
 * The prover's gadget polynomial of Mul and of ParallelSum(Mul) (VDAF draft-20, sections
 * "Multiplication", "Parallel Sum" and "Lagrange Basis"), computed with two forward NTTs per wire
 * and no intermediate arrays: the same values as {@link Gadget#evalPoly} for these gadgets.
 *
 * <p>For wire polynomials P and Q given by their n values at the n-th roots of unity, P*Q is
 * wanted at the 2n-th roots. At the even ones (the n-th roots) it is {@code P[k] Q[k]}. At the
 * odd ones, {@code s Wn^k} with {@code s = W2n}, the values of P are {@code n^-1 NTT(b)} where
 * {@code b_i = A[(n - i) mod n] s^i} and {@code A = NTT(P)} (the inverse transform is the
 * forward one with reversed indices), so the unscaled products are summed over the calls and the
 * sum is scaled once by {@code n^-2}. Immutable after construction; the scratch is per call.
 */
public final class MulSumProver {
  private final PrimeField f;
  private final int n;
  private final int pairs;
  private final long[] shift;
  private final long[] nInv2;

  private MulSumProver(PrimeField f, int n, int pairs) {
    this.f = f;
    this.n = n;
    this.pairs = pairs;
    long[] s = Ntt.nthRootPowers(f, 2 * n);
    this.shift = java.util.Arrays.copyOf(s, n * f.words());
    this.nInv2 = f.newArray(1);
    f.setSigned(nInv2, 0, n);
    f.inv(nInv2, 0, nInv2, 0);
    f.mul(nInv2, 0, nInv2, 0, nInv2, 0);
  }

  /**
   * Returns the kernel for a gadget whose wire polynomials hold {@code n} values, or null if the
   * gadget is neither Mul nor ParallelSum(Mul) (or n is too large for the doubled evaluation).
   */
  public static MulSumProver forGadget(PrimeField f, Gadget g, int n) {
    int pairs;
    if (g instanceof Gadget.Mul) {
      pairs = 1;
    } else if (g instanceof Gadget.ParallelSum ps && ps.subcircuit() instanceof Gadget.Mul) {
      pairs = ps.count();
    } else {
      return null;
    }
    if (Integer.numberOfTrailingZeros(2 * n) > f.twoAdicity()) {
      return null;
    }
    return new MulSumProver(f, n, pairs);
  }

  /**
   * Returns the 2n values of {@code sum_i W[2i] * W[2i+1]} at the 2n-th roots of unity, natural
   * order, where wire j's first {@code stride <= n} values are the elements {@code j * stride ..}
   * of {@code wires} and its other values are zero, and {@code outputs[k]} for {@code 1 <= k <
   * stride} is the gadget's value on the k-th values of the wires (the prover's shim computed it
   * for the circuit; it is the gadget polynomial at {@code Wn^k}, so it is not computed again).
   */
  public long[] gadgetPoly(long[] wires, int stride, long[] outputs) {
    int w = f.words();
    long[] out = f.newArray(2 * n);
    long[] even = f.newArray(n);
    long[] odd = f.newArray(n);
    long[] a = f.newArray(n);
    long[] b = f.newArray(n);
    long[] oddQ = f.newArray(n);
    long[] prod = f.newArray(n);
    for (int i = 0; i < pairs; i++) {
      int x = 2 * i * stride;
      int y = x + stride;
      // even point Wn^0 (the wire seeds): P[0] Q[0]
      f.mul(wires, x, wires, y, prod, 0);
      f.add(even, 0, prod, 0, even, 0);
      // odd points, unscaled
      oddUnscaled(wires, x, stride, a, b);
      System.arraycopy(b, 0, oddQ, 0, n * w);
      oddUnscaled(wires, y, stride, a, b);
      f.mulVec(oddQ, b, prod, n);
      f.addVec(odd, prod, odd, n);
    }
    f.scalarMulVec(nInv2, 0, odd, odd, n);
    // even points Wn^k, 0 < k < stride: the recorded outputs; zero from stride on
    System.arraycopy(outputs, w, even, w, (stride - 1) * w);
    for (int k = 0; k < n; k++) {
      System.arraycopy(even, k * w, out, 2 * k * w, w);
      System.arraycopy(odd, k * w, out, (2 * k + 1) * w, w);
    }
    return out;
  }

  /**
   * Sets {@code b} to n times the values at {@code s Wn^k} of the wire whose first {@code stride}
   * values start at element {@code off} (the others zero).
   */
  private void oddUnscaled(long[] wires, int off, int stride, long[] a, long[] b) {
    int w = f.words();
    System.arraycopy(wires, off * w, a, 0, stride * w);
    java.util.Arrays.fill(a, stride * w, n * w, 0L);
    Ntt.nttInPlace(f, a);
    System.arraycopy(a, 0, b, 0, w);
    for (int i = 1; i < n; i++) {
      f.mul(a, n - i, shift, i, b, i);
    }
    Ntt.nttInPlace(f, b);
  }
}
