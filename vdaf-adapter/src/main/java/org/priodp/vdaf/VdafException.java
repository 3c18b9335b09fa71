package org.priodp.vdaf;

import java.util.Objects;

/**
 * Signals that a VDAF operation rejected its input (VDAF draft-20, section "Prio3"): a malformed
 * or wrongly sized message, an invalid measurement, a proof that does not verify or a joint
 * randomness mismatch. It is the only exception type the Prio3 operations throw on bad input.
 */
public final class VdafException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Why an operation failed. */
  public enum Reason {
    /** An argument has the wrong size or form (nonce, verify key, rand, aggregator id, ...). */
    INVALID_ARGUMENT,
    /** An encoded message has the wrong length or holds a non-canonical field element. */
    MALFORMED_MESSAGE,
    /** The measurement is outside the set the variant accepts. */
    INVALID_MEASUREMENT,
    /** The FLP decision rejected a proof, or a query point was unusable. */
    PROOF_REJECTED,
    /** The joint randomness seed the aggregators computed differs from the client's. */
    JOINT_RAND_MISMATCH
  }

  private final Reason reason;

  /** Creates an exception with a reason and a message. */
  public VdafException(Reason reason, String message) {
    super(message);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** Creates an exception with a reason, a message and the underlying cause. */
  public VdafException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** Returns why the operation failed. */
  public Reason reason() {
    return reason;
  }
}
