package org.priodp.noise.compress.ppr;

/**
 * The mechanism PPR simulates for one input x: the distribution P = P_{Z|X=x}, given by its log
 * density ratio log(dP/dQ)(z) against the proposal Q and an upper bound on that ratio's supremum.
 * The encoder only needs ratios; P itself is never sampled.
 *
 * @param <Z> the output space
 */
public interface PprTarget<Z> {
  /** Returns log(dP/dQ)(z) in nats; may be -infinity where P has no mass. */
  double logRatio(Z z);

  /**
   * Returns an upper bound on sup_z log(dP/dQ)(z) in nats (finite). A smaller bound makes the
   * encoder faster; a bound that is exceeded is detected and reported as an error.
   */
  double logRatioBound();
}
