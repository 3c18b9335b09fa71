package org.priodp.vdaf.internal;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.VdafException;

/**
 * A validity circuit (VDAF draft-20, section "Validity Circuits", the specification's {@code
 * Valid}): the gadgets it calls, its sizes, the encoding of measurements, the circuit itself,
 * truncation to the aggregatable output and decoding of the aggregate.
 *
 * <p>Measurements are given as a list of integers: one element for scalar types, one per entry
 * for vector types (booleans as 0 or 1).
 */
public abstract class Circuit {

  /** A gadget as the circuit sees it during evaluation: the prover's or the verifier's shim. */
  @FunctionalInterface
  public interface GadgetCall {
    /** Sets {@code out[oi]} to the gadget output for the inputs {@code inp[0 .. arity)}. */
    void call(long[] inp, long[] out, int oi);
  }

  /** The field the circuit computes in. */
  protected final PrimeField field;

  private final Gadget[] gadgets;
  private final int[] gadgetCalls;
  private final int measLen;
  private final int jointRandLen;
  private final int evalOutputLen;
  private final int outputLen;

  /** Creates the circuit description; the arrays are copied. */
  protected Circuit(
      PrimeField field,
      Gadget[] gadgets,
      int[] gadgetCalls,
      int measLen,
      int jointRandLen,
      int evalOutputLen,
      int outputLen) {
    if (gadgets.length != gadgetCalls.length || gadgets.length == 0) {
      throw new IllegalArgumentException("one call count per gadget, at least one gadget");
    }
    this.field = field;
    this.gadgets = gadgets.clone();
    this.gadgetCalls = gadgetCalls.clone();
    this.measLen = measLen;
    this.jointRandLen = jointRandLen;
    this.evalOutputLen = evalOutputLen;
    this.outputLen = outputLen;
  }

  /** Returns the field. */
  public final PrimeField field() {
    return field;
  }

  /** Returns the number of gadgets. */
  public final int gadgetCount() {
    return gadgets.length;
  }

  /** Returns gadget {@code i} (GADGETS[i]). */
  public final Gadget gadget(int i) {
    return gadgets[i];
  }

  /** Returns how often the circuit calls gadget {@code i} (GADGET_CALLS[i]). */
  public final int gadgetCalls(int i) {
    return gadgetCalls[i];
  }

  /** Returns MEAS_LEN. */
  public final int measLen() {
    return measLen;
  }

  /** Returns JOINT_RAND_LEN. */
  public final int jointRandLen() {
    return jointRandLen;
  }

  /** Returns EVAL_OUTPUT_LEN. */
  public final int evalOutputLen() {
    return evalOutputLen;
  }

  /** Returns OUTPUT_LEN. */
  public final int outputLen() {
    return outputLen;
  }

  /** Returns the length of the prover randomness: the sum of the gadget arities. */
  public final int proveRandLen() {
    int len = 0;
    for (Gadget g : gadgets) {
      len = Math.addExact(len, g.arity());
    }
    return len;
  }

  /** Returns the length of the query randomness. */
  public final int queryRandLen() {
    return gadgets.length + (evalOutputLen > 1 ? evalOutputLen : 0);
  }

  /** Returns the length of one proof. */
  public final int proofLen() {
    int len = 0;
    for (int i = 0; i < gadgets.length; i++) {
      int p = Gadget.wirePolyLen(gadgetCalls[i]);
      len = Math.addExact(len, gadgets[i].arity() + Gadget.gadgetPolyLen(gadgets[i].degree(), p));
    }
    return len;
  }

  /** Returns the length of the verifier message of one proof. */
  public final int verifierLen() {
    int len = 1;
    for (Gadget g : gadgets) {
      len = Math.addExact(len, g.arity() + 1);
    }
    return len;
  }

  /**
   * Encodes a measurement into MEAS_LEN field elements.
   *
   * @throws VdafException (INVALID_MEASUREMENT) if the measurement is not valid for the circuit
   */
  public abstract long[] encode(List<BigInteger> measurement);

  /**
   * Evaluates the circuit on (a share of) the encoded measurement and the joint randomness,
   * calling the gadgets through {@code calls}, and returns EVAL_OUTPUT_LEN elements.
   */
  public abstract long[] eval(long[] meas, long[] jointRand, int numShares, GadgetCall[] calls);

  /** Maps (a share of) an encoded measurement to (a share of) the OUTPUT_LEN output. */
  public abstract long[] truncate(long[] meas);

  /** Decodes an aggregate (the sum of the aggregate shares) into integers in [0, p). */
  public List<BigInteger> decode(long[] aggregate, long numMeasurements) {
    int n = field.length(aggregate);
    List<BigInteger> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(field.get(aggregate, i));
    }
    return Collections.unmodifiableList(out);
  }

  // ------------------------------------------------------------------ helpers for circuits

  /** Throws the exception for an invalid measurement. */
  protected static VdafException invalid(String message) {
    return new VdafException(VdafException.Reason.INVALID_MEASUREMENT, message);
  }

  /** Requires a measurement of exactly {@code n} non-null integers. */
  protected static void requireSize(List<BigInteger> measurement, int n, String what) {
    if (measurement == null) {
      throw invalid("measurement is null");
    }
    if (measurement.size() != n) {
      throw invalid(what + " needs " + n + " measurement value(s), got " + measurement.size());
    }
    for (int i = 0; i < n; i++) {
      if (measurement.get(i) == null) {
        throw invalid("measurement value " + i + " is null");
      }
    }
  }

  /** Returns the element {@code 1 / numShares}. */
  protected final long[] sharesInv(int numShares) {
    // computed once per share count: an inversion costs ~250 multiplications
    long[] cached = sharesInvCache.get(numShares);
    if (cached == null) {
      cached = field.newArray(1);
      field.setSigned(cached, 0, numShares);
      field.inv(cached, 0, cached, 0);
      sharesInvCache.set(numShares, cached);
    }
    return cached;
  }

  /** Inverses of the share counts 0..255 (AtomicReferenceArray publishes them safely); read-only. */
  private final java.util.concurrent.atomic.AtomicReferenceArray<long[]> sharesInvCache =
      new java.util.concurrent.atomic.AtomicReferenceArray<>(256);
}
