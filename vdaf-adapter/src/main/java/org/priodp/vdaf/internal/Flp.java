package org.priodp.vdaf.internal;

import java.math.BigInteger;
import org.priodp.field.Lagrange;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.VdafException;

/**
 * The fully linear proof system of VDAF draft-20, section "FLP Specification" (FlpBBCGGI19) for
 * one validity circuit: {@link #prove}, {@link #query} and {@link #decide}, with the prover and
 * verifier shims of section "Shims for Generating and Querying Proofs".
 *
 * <p>All vectors are flat field arrays. Arguments are trusted to have the right lengths (the
 * caller, {@code Prio3}, checks every message before it gets here).
 */
public final class Flp {
  private final Circuit circuit;
  private final PrimeField f;
  private final int[] wirePolyLen;
  private final MulSumProver[] provers;
  private final WireQuery[] queries;

  /** Creates the FLP for a circuit and the polynomial kernels of its gadgets. */
  public Flp(Circuit circuit) {
    this.circuit = circuit;
    this.f = circuit.field();
    int n = circuit.gadgetCount();
    this.wirePolyLen = new int[n];
    this.provers = new MulSumProver[n];
    this.queries = new WireQuery[n];
    for (int i = 0; i < n; i++) {
      wirePolyLen[i] = Gadget.wirePolyLen(circuit.gadgetCalls(i));
      provers[i] = MulSumProver.forGadget(f, circuit.gadget(i), wirePolyLen[i]);
      queries[i] = new WireQuery(f, wirePolyLen[i]);
    }
  }

  /** Returns the validity circuit. */
  public Circuit circuit() {
    return circuit;
  }

  /**
   * Records the wire values of each call of one gadget (the prover's shim): wire j's values at
   * the first {@code calls + 1} of the p-th roots of unity are elements {@code j * stride ..
   * j * stride + calls} of one flat array; the values at the other roots are zero.
   */
  private static final class Wires {
    final Gadget gadget;
    final long[] wires;
    final int p;
    final int stride;
    final int arity;
    /** The gadget's output at call k is element k (element 0 unused). */
    final long[] outputs;
    int k;

    Wires(PrimeField f, Gadget gadget, int calls, long[] seeds, int seedOff) {
      this.outputs = f.newArray(calls + 1);
      this.gadget = gadget;
      this.p = Gadget.wirePolyLen(calls);
      this.stride = calls + 1;
      this.arity = gadget.arity();
      int w = f.words();
      this.wires = f.newArray(Math.multiplyExact(arity, stride));
      for (int j = 0; j < arity; j++) {
        System.arraycopy(seeds, (seedOff + j) * w, wires, j * stride * w, w);
      }
    }

    /** Records one call's inputs and returns its index k (1 for the first call). */
    int record(PrimeField f, long[] inp) {
      k++;
      if (k >= stride) {
        throw new IllegalStateException("circuit called a gadget more often than declared");
      }
      int w = f.words();
      for (int j = 0; j < arity; j++) {
        System.arraycopy(inp, j * w, wires, (j * stride + k) * w, w);
      }
      return k;
    }

    /** Returns the wires as one array of p values per wire (for the generic gadget paths). */
    long[][] split(PrimeField f) {
      int w = f.words();
      long[][] out = new long[arity][];
      for (int j = 0; j < arity; j++) {
        out[j] = f.newArray(p);
        System.arraycopy(wires, j * stride * w, out[j], 0, stride * w);
      }
      return out;
    }
  }

  /**
   * Generates a proof for an encoded measurement (the specification's {@code prove}).
   *
   * @param meas the encoded measurement (MEAS_LEN elements)
   * @param proveRand PROVE_RAND_LEN elements
   * @param jointRand JOINT_RAND_LEN elements
   * @return PROOF_LEN elements
   */
  public long[] prove(long[] meas, long[] proveRand, long[] jointRand) {
    int n = circuit.gadgetCount();
    Wires[] recorded = new Wires[n];
    Circuit.GadgetCall[] calls = new Circuit.GadgetCall[n];
    int seedOff = 0;
    for (int i = 0; i < n; i++) {
      Gadget g = circuit.gadget(i);
      Wires wr = new Wires(f, g, circuit.gadgetCalls(i), proveRand, seedOff);
      seedOff += g.arity();
      recorded[i] = wr;
      calls[i] =
          (inp, out, oi) -> {
            int k = wr.record(f, inp);
            g.eval(f, inp, 0, wr.outputs, k);
            System.arraycopy(wr.outputs, k * f.words(), out, oi * f.words(), f.words());
          };
    }
    circuit.eval(meas, jointRand, 1, calls);

    int w = f.words();
    long[] proof = f.newArray(circuit.proofLen());
    int off = 0;
    for (int i = 0; i < n; i++) {
      Wires wr = recorded[i];
      Gadget g = wr.gadget;
      for (int j = 0; j < g.arity(); j++) {
        System.arraycopy(wr.wires, j * wr.stride * w, proof, (off + j) * w, w);
      }
      off += g.arity();
      long[] gadgetPoly =
          provers[i] != null ? provers[i].gadgetPoly(wr.wires, wr.stride, wr.outputs) : g.evalPoly(f, wr.split(f));
      int len = Gadget.gadgetPolyLen(g.degree(), wr.p);
      System.arraycopy(gadgetPoly, 0, proof, off * w, len * w);
      off += len;
    }
    return proof;
  }

  /**
   * Queries (a share of) a measurement and proof (the specification's {@code query}) and returns
   * (a share of) the verifier message, VERIFIER_LEN elements.
   *
   * @throws VdafException (PROOF_REJECTED) if a query point is a root of unity of a wire
   *     polynomial's order
   */
  public long[] query(
      long[] meas, long[] proof, long[] queryRand, long[] jointRand, int numShares) {
    int n = circuit.gadgetCount();
    int w = f.words();
    int qi = circuit.evalOutputLen() > 1 ? circuit.evalOutputLen() : 0;
    long[][] polys = new long[n][];
    long[][] wireChecks = new long[n][];
    Circuit.GadgetCall[] calls = new Circuit.GadgetCall[n];
    int off = 0;
    for (int i = 0; i < n; i++) {
      Gadget g = circuit.gadget(i);
      int p = wirePolyLen[i];
      int arity = g.arity();
      // The wire polynomials are only ever evaluated at the query point, so each recorded wire
      // value is folded into that evaluation at once (its Lagrange weight times the value).
      long[] weights = queries[i].weights(queryRand, qi + i);
      long[] acc = f.newArray(arity);
      for (int j = 0; j < arity; j++) {
        f.mul(proof, off + j, weights, 0, acc, j);
      }
      off += arity;
      int len = Gadget.gadgetPolyLen(g.degree(), p);
      long[] gadgetPoly = f.newArray(len);
      System.arraycopy(proof, off * w, gadgetPoly, 0, len * w);
      off += len;
      long[] poly = Lagrange.extendValuesToPowerOf2(f, gadgetPoly, Gadget.nextPowerOf2(len));
      int size = Gadget.nextPowerOf2(len);
      while (f.length(poly) < size) {
        poly = Lagrange.doubleEvaluations(f, poly);
      }
      int step = f.length(poly) / p;
      polys[i] = poly;
      wireChecks[i] = acc;
      long[] finalPoly = poly;
      long[] t = f.newArray(1);
      int[] count = new int[1];
      calls[i] =
          (inp, out, oi) -> {
            int k = ++count[0];
            if (k >= p) {
              throw new IllegalStateException("circuit called a gadget more often than declared");
            }
            for (int j = 0; j < arity; j++) {
              f.mul(inp, j, weights, k, t, 0);
              f.add(acc, j, t, 0, acc, j);
            }
            System.arraycopy(finalPoly, k * step * w, out, oi * w, w);
          };
    }
    long[] out = circuit.eval(meas, jointRand, numShares, calls);

    long[] verifier = f.newArray(circuit.verifierLen());
    if (circuit.evalOutputLen() > 1) {
      long[] t = f.newArray(1);
      for (int i = 0; i < circuit.evalOutputLen(); i++) {
        f.mul(queryRand, i, out, i, t, 0);
        f.add(verifier, 0, t, 0, verifier, 0);
      }
    } else {
      System.arraycopy(out, 0, verifier, 0, w);
    }
    int vi = 1;
    long[] one = f.newArray(1);
    f.setSigned(one, 0, 1);
    long[] tp = f.newArray(1);
    for (int i = 0; i < n; i++) {
      f.pow(queryRand, qi + i, BigInteger.valueOf(wirePolyLen[i]), tp, 0);
      if (f.equal(tp, 0, one, 0)) {
        throw new VdafException(
            VdafException.Reason.PROOF_REJECTED, "FLP query point is a root of unity");
      }
      System.arraycopy(wireChecks[i], 0, verifier, vi * w, wireChecks[i].length);
      vi += f.length(wireChecks[i]);
      Lagrange.polyEval(f, polys[i], queryRand, qi + i, verifier, vi);
      vi++;
    }
    return verifier;
  }

  /** Decides from a verifier message (the specification's {@code decide}). */
  public boolean decide(long[] verifier) {
    if (!f.isZero(verifier, 0)) {
      return false;
    }
    int vi = 1;
    long[] gOut = f.newArray(1);
    for (int i = 0; i < circuit.gadgetCount(); i++) {
      Gadget g = circuit.gadget(i);
      g.eval(f, verifier, vi, gOut, 0);
      vi += g.arity();
      if (!f.equal(gOut, 0, verifier, vi)) {
        return false;
      }
      vi++;
    }
    return true;
  }
}
