package org.priodp.aggregator.core;

/**
 * Thrown inside a Leader job's transaction when its lease token is no longer ours: another lessee
 * owns the job and this one's work is dropped.
 */
final class LeaseLost extends RuntimeException {
  private static final long serialVersionUID = 1L;

  LeaseLost() {
    super("lease lost", null, false, false);
  }
}
