package org.priodp.vdaf;

/**
 * Which rule gives the sensitivity of a Prio3SumVec. Every other variant has one rule.
 *
 * <p>prio-dp's own rule uses max_measurement (DESIGN.md, sensitivity table). libprio-rs and
 * Janus use (2^bits - 1) * length, which is looser whenever max_measurement is not 2^k - 1;
 * {@link #JANUS_COMPATIBLE} reproduces it so that a deployment can match a Janus peer's noise.
 */
public enum SensitivityRule {
  /** SumVec L1 = length * max_measurement, squared L2 = length * max_measurement^2. */
  PRIODP,
  /** SumVec L1 = length * (2^bits - 1), squared L2 = length * (2^bits - 1)^2 (libprio-rs, Janus). */
  JANUS_COMPATIBLE
}
