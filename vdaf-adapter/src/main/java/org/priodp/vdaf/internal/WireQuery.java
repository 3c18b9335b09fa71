package org.priodp.vdaf.internal;

import org.priodp.field.Ntt;
import org.priodp.field.PrimeField;

/**
 * Computes the Lagrange weights with which the verifier evaluates the wire polynomials of one
 * gadget at the query point (VDAF draft-20, section "Lagrange Basis", {@code
 * Lagrange.poly_eval_batched}): about 4n multiplications once, then one per wire value, instead
 * of {@code 2 * arity * n}.
 *
 * <p>For values {@code v_i} at the n-th roots of unity {@code Wn^i}, {@code p(x) = sum_i v_i c_i}
 * with {@code c_i = n^-1 Wn^i prod_{j != i} (x - Wn^j)}; the products are formed from prefix and
 * suffix products of {@code x - Wn^j}, so no inversion is needed and the result is also correct
 * when x is a root of unity. Immutable after construction; the scratch is per call.
 */
public final class WireQuery {
  private final PrimeField f;
  private final int n;
  private final long[] nodes;
  private final long[] scaledNodes;

  /** Creates the evaluator for wire polynomials of n values (n a power of two). */
  public WireQuery(PrimeField f, int n) {
    this.f = f;
    this.n = n;
    long[] nodes = Ntt.nthRootPowers(f, n);
    long[] nInv = f.newArray(1);
    f.setSigned(nInv, 0, n);
    f.inv(nInv, 0, nInv, 0);
    this.nodes = nodes;
    this.scaledNodes = f.newArray(n);
    f.scalarMulVec(nInv, 0, nodes, scaledNodes, n);
  }

  /**
   * Returns the n Lagrange weights {@code c_i} at the point {@code x[xi]}: the value of a
   * polynomial with values {@code v_i} at the n-th roots of unity is {@code sum_i v_i c_i}.
   */
  public long[] weights(long[] x, int xi) {
    long[] weights = f.newArray(n);
    long[] d = f.newArray(n);
    for (int j = 0; j < n; j++) {
      f.sub(x, xi, nodes, j, d, j);
    }
    // weights[i] = prod_{j < i} d_j, then times prod_{j > i} d_j and n^-1 Wn^i.
    long[] s = f.newArray(1);
    f.setSigned(s, 0, 1);
    for (int i = 0; i < n; i++) {
      System.arraycopy(s, 0, weights, i * f.words(), f.words());
      f.mul(s, 0, d, i, s, 0);
    }
    f.setSigned(s, 0, 1);
    for (int i = n - 1; i >= 0; i--) {
      f.mul(weights, i, s, 0, weights, i);
      f.mul(s, 0, d, i, s, 0);
    }
    f.mulVec(weights, scaledNodes, weights, n);
    return weights;
  }
}
