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

  /** Creates the FLP for a circuit. */
  public Flp(Circuit circuit) {
    this.circuit = circuit;
    this.f = circuit.field();
  }

  /** Returns the validity circuit. */
  public Circuit circuit() {
    return circuit;
  }

  /** Records the wire values of each call of one gadget (both shims use it). */
  private static final class Wires {
    final Gadget gadget;
    final long[][] wires;
    final int p;
    int k;

    Wires(PrimeField f, Gadget gadget, int calls, long[] seeds, int seedOff) {
      this.gadget = gadget;
      this.p = Gadget.wirePolyLen(calls);
      int w = f.words();
      this.wires = new long[gadget.arity()][];
      for (int j = 0; j < wires.length; j++) {
        wires[j] = f.newArray(p);
        System.arraycopy(seeds, (seedOff + j) * w, wires[j], 0, w);
      }
    }

    int record(PrimeField f, long[] inp) {
      k++;
      if (k >= p) {
        throw new IllegalStateException("circuit called a gadget more often than declared");
      }
      int w = f.words();
      for (int j = 0; j < wires.length; j++) {
        System.arraycopy(inp, j * w, wires[j], k * w, w);
      }
      return k;
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
            wr.record(f, inp);
            g.eval(f, inp, 0, out, oi);
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
        System.arraycopy(wr.wires[j], 0, proof, (off + j) * w, w);
      }
      off += g.arity();
      long[] gadgetPoly = g.evalPoly(f, wr.wires);
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
    Wires[] recorded = new Wires[n];
    long[][] polys = new long[n][];
    Circuit.GadgetCall[] calls = new Circuit.GadgetCall[n];
    int off = 0;
    for (int i = 0; i < n; i++) {
      Gadget g = circuit.gadget(i);
      Wires wr = new Wires(f, g, circuit.gadgetCalls(i), proof, off);
      off += g.arity();
      int len = Gadget.gadgetPolyLen(g.degree(), wr.p);
      long[] gadgetPoly = f.newArray(len);
      System.arraycopy(proof, off * w, gadgetPoly, 0, len * w);
      off += len;
      long[] poly = Lagrange.extendValuesToPowerOf2(f, gadgetPoly, Gadget.nextPowerOf2(len));
      int size = Gadget.nextPowerOf2(len);
      while (f.length(poly) < size) {
        poly = Lagrange.doubleEvaluations(f, poly);
      }
      int step = f.length(poly) / wr.p;
      recorded[i] = wr;
      polys[i] = poly;
      long[] finalPoly = poly;
      calls[i] =
          (inp, out, oi) -> {
            int k = wr.record(f, inp);
            System.arraycopy(finalPoly, k * step * w, out, oi * w, w);
          };
    }
    long[] out = circuit.eval(meas, jointRand, numShares, calls);

    long[] verifier = f.newArray(circuit.verifierLen());
    int qi = 0;
    if (circuit.evalOutputLen() > 1) {
      long[] t = f.newArray(1);
      for (int i = 0; i < circuit.evalOutputLen(); i++) {
        f.mul(queryRand, i, out, i, t, 0);
        f.add(verifier, 0, t, 0, verifier, 0);
      }
      qi = circuit.evalOutputLen();
    } else {
      System.arraycopy(out, 0, verifier, 0, w);
    }
    int vi = 1;
    long[] one = f.newArray(1);
    f.setSigned(one, 0, 1);
    long[] tp = f.newArray(1);
    for (int i = 0; i < n; i++) {
      Wires wr = recorded[i];
      f.pow(queryRand, qi + i, BigInteger.valueOf(wr.p), tp, 0);
      if (f.equal(tp, 0, one, 0)) {
        throw new VdafException(
            VdafException.Reason.PROOF_REJECTED, "FLP query point is a root of unity");
      }
      int arity = wr.gadget.arity();
      long[] wireChecks = f.newArray(arity);
      Lagrange.polyEvalBatched(f, wr.wires, queryRand, qi + i, wireChecks);
      System.arraycopy(wireChecks, 0, verifier, vi * w, arity * w);
      vi += arity;
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
