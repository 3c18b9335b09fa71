package org.priodp.vdaf;

/** The Prio3 algorithm identifiers (VDAF draft-20, IANA "VDAF Identifiers" table). */
public enum Prio3Algorithm {
  COUNT(0x00000001L, "Prio3Count"),
  SUM(0x00000002L, "Prio3Sum"),
  SUM_VEC(0x00000003L, "Prio3SumVec"),
  HISTOGRAM(0x00000004L, "Prio3Histogram"),
  MULTIHOT_COUNT_VEC(0x00000005L, "Prio3MultihotCountVec"),
  /** The private-use id of the multiproof SumVec over Field64 in the official test vectors. */
  SUM_VEC_FIELD64_MULTIPROOF(0xFFFFFFFFL, "Prio3SumVecWithMultiproof");

  private final long id;
  private final String specName;

  Prio3Algorithm(long id, String specName) {
    this.id = id;
    this.specName = specName;
  }

  /** Returns the 32-bit algorithm id as an unsigned value. */
  public long id() {
    return id;
  }

  /** Returns the name the specification and the test vectors use. */
  public String specName() {
    return specName;
  }
}
