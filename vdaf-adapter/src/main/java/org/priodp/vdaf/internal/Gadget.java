package org.priodp.vdaf.internal;

import java.util.Arrays;
import org.priodp.field.Lagrange;
import org.priodp.field.Monomial;
import org.priodp.field.PrimeField;

/**
 * A non-affine sub-circuit of a validity circuit (VDAF draft-20, section "FLP Gadgets"): it can
 * be evaluated on field elements and on polynomials in the Lagrange basis.
 *
 * <p>Inputs are flat field arrays; {@link #eval} reads {@link #arity()} elements starting at an
 * element offset.
 */
public sealed interface Gadget permits Gadget.Mul, Gadget.PolyEval, Gadget.ParallelSum {

  /** Returns the number of input wires (ARITY). */
  int arity();

  /** Returns the arithmetic degree of the gadget (DEGREE). */
  int degree();

  /** Sets {@code out[oi]} to the gadget's value on {@code inp[off .. off + arity)}. */
  void eval(PrimeField f, long[] inp, int off, long[] out, int oi);

  /**
   * Evaluates the gadget over polynomials in the Lagrange basis (the specification's {@code
   * eval_poly}): {@code inpPoly[j]} holds the values of wire polynomial j at the n-th roots of
   * unity; returns the values of the output polynomial at the roots of unity of order {@code
   * nextPowerOf2(gadgetPolyLen(degree, n))}.
   */
  long[] evalPoly(PrimeField f, long[][] inpPoly);

  /** Returns {@code wire_poly_len(calls) = next_power_of_2(1 + calls)}. */
  static int wirePolyLen(int calls) {
    return nextPowerOf2(1 + calls);
  }

  /** Returns {@code gadget_poly_len(degree, p) = degree * (p - 1) + 1}. */
  static int gadgetPolyLen(int degree, int wirePolyLen) {
    return Math.addExact(Math.multiplyExact(degree, wirePolyLen - 1), 1);
  }

  /** Returns the smallest power of two >= n (n >= 1). */
  static int nextPowerOf2(int n) {
    if (n <= 1) {
      return 1;
    }
    int p = Integer.highestOneBit(n - 1) << 1;
    if (p <= 0) {
      throw new ArithmeticException("no power of two >= " + n + " fits an int");
    }
    return p;
  }

  /** The multiplication gadget Mul(x, y) = x * y (section "Multiplication"). */
  final class Mul implements Gadget {
    /** The only instance. */
    public static final Mul INSTANCE = new Mul();

    private Mul() {}

    @Override
    public int arity() {
      return 2;
    }

    @Override
    public int degree() {
      return 2;
    }

    @Override
    public void eval(PrimeField f, long[] inp, int off, long[] out, int oi) {
      f.mul(inp, off, inp, off + 1, out, oi);
    }

    @Override
    public long[] evalPoly(PrimeField f, long[][] inpPoly) {
      return Lagrange.polyMul(f, inpPoly[0], inpPoly[1]);
    }
  }

  /**
   * The polynomial-evaluation gadget PolyEval(p)(x) = p(x) (section "Polynomial Evaluation"),
   * for a polynomial given by its coefficients, lowest degree first.
   */
  final class PolyEval implements Gadget {
    private final long[] coefficients;
    private final int degree;
    private final int n;

    /**
     * Creates the gadget for the polynomial with the given signed integer coefficients (leading
     * zeros are stripped) and the number of times the circuit calls it.
     *
     * @throws IllegalArgumentException if the polynomial is zero
     */
    public PolyEval(PrimeField f, long[] signedCoefficients, int numCalls) {
      int len = signedCoefficients.length;
      while (len > 0 && signedCoefficients[len - 1] == 0) {
        len--;
      }
      if (len < 1) {
        throw new IllegalArgumentException("invalid polynomial: zero length");
      }
      this.coefficients = f.newArray(len);
      for (int i = 0; i < len; i++) {
        f.setSigned(coefficients, i, signedCoefficients[i]);
      }
      this.degree = len - 1;
      this.n = nextPowerOf2(gadgetPolyLen(degree, wirePolyLen(numCalls)));
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public int degree() {
      return degree;
    }

    @Override
    public void eval(PrimeField f, long[] inp, int off, long[] out, int oi) {
      Monomial.polyEval(f, coefficients, inp, off, out, oi);
    }

    @Override
    public long[] evalPoly(PrimeField f, long[][] inpPoly) {
      return Lagrange.polyCompose(f, coefficients, inpPoly[0], n);
    }
  }

  /**
   * The parallel-sum gadget (section "Parallel Sum"): applies a subcircuit to {@code count}
   * consecutive groups of inputs and returns the sum of the results.
   */
  final class ParallelSum implements Gadget {
    private final Gadget subcircuit;
    private final int count;

    /** Creates the gadget that sums {@code count} calls of {@code subcircuit}. */
    public ParallelSum(Gadget subcircuit, int count) {
      if (count < 1) {
        throw new IllegalArgumentException("count must be >= 1, got " + count);
      }
      this.subcircuit = subcircuit;
      this.count = count;
    }

    /** Returns the gadget applied to each group of inputs. */
    public Gadget subcircuit() {
      return subcircuit;
    }

    /** Returns the number of groups (COUNT). */
    public int count() {
      return count;
    }

    @Override
    public int arity() {
      return Math.multiplyExact(subcircuit.arity(), count);
    }

    @Override
    public int degree() {
      return subcircuit.degree();
    }

    @Override
    public void eval(PrimeField f, long[] inp, int off, long[] out, int oi) {
      long[] acc = f.newArray(2);
      int a = subcircuit.arity();
      for (int i = 0; i < count; i++) {
        subcircuit.eval(f, inp, off + i * a, acc, 1);
        f.add(acc, 0, acc, 1, acc, 0);
      }
      System.arraycopy(acc, 0, out, oi * f.words(), f.words());
    }

    @Override
    public long[] evalPoly(PrimeField f, long[][] inpPoly) {
      int outLen = nextPowerOf2(gadgetPolyLen(degree(), f.length(inpPoly[0])));
      long[] sum = f.newArray(outLen);
      int a = subcircuit.arity();
      for (int i = 0; i < count; i++) {
        long[] part = subcircuit.evalPoly(f, Arrays.copyOfRange(inpPoly, i * a, (i + 1) * a));
        f.addVec(sum, part, sum, outLen);
      }
      return sum;
    }
  }
}
