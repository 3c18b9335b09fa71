package org.priodp.vdaf;

import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;

/**
 * The Prio3 algorithm identifiers (VDAF draft-20, IANA "VDAF Identifiers" table, and
 * draft-ietf-ppm-l1-bound-sum-02, section 6, for Prio3L1BoundSum).
 */
public enum Prio3Algorithm {
  COUNT(0x00000001L, "Prio3Count", Field64.FIELD),
  SUM(0x00000002L, "Prio3Sum", Field64.FIELD),
  SUM_VEC(0x00000003L, "Prio3SumVec", Field128.FIELD),
  HISTOGRAM(0x00000004L, "Prio3Histogram", Field128.FIELD),
  MULTIHOT_COUNT_VEC(0x00000005L, "Prio3MultihotCountVec", Field128.FIELD),
  /** Prio3L1BoundSum (draft-ietf-ppm-l1-bound-sum-02, section 6). */
  L1_BOUND_SUM(0x00000007L, "Prio3L1BoundSum", Field128.FIELD),
  /** The private-use id of the multiproof SumVec over Field64 in the official test vectors. */
  SUM_VEC_FIELD64_MULTIPROOF(0xFFFFFFFFL, "Prio3SumVecWithMultiproof", Field64.FIELD);

  private final long id;
  private final String specName;
  private final PrimeField field;

  Prio3Algorithm(long id, String specName, PrimeField field) {
    this.id = id;
    this.specName = specName;
    this.field = field;
  }

  /** Returns the field the algorithm computes in (VDAF draft-20, section "Variants"). */
  public PrimeField field() {
    return field;
  }

  /** Returns the 32-bit algorithm id as an unsigned value. */
  public long id() {
    return id;
  }

  /**
   * Returns true for an id of the IANA "VDAF Identifiers" registry, false for the private-use id
   * 0xFFFFFFFF of the test vectors' multiproof SumVec (not a VDAF a DAP task names).
   */
  public boolean registered() {
    return id != 0xFFFFFFFFL;
  }

  /** Returns the name the specification and the test vectors use. */
  public String specName() {
    return specName;
  }
}
