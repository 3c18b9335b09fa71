package org.priodp.noise.local;

/**
 * A local randomizer: each client perturbs its own value before it leaves the device, so that
 * every single report is epsilon-differentially private (lecture, Section 1). The set is closed:
 * binary randomized response, k-ary randomized response and symmetric RAPPOR.
 *
 * <p>Sampling is exact (no floating point); the collector-side debiasing, which needs only
 * estimates shown to people, is in {@link LocalEstimator}.
 */
public sealed interface LocalRandomizer
    permits RandomizedResponse, KaryRandomizedResponse, SymmetricRappor {

  /** Returns the number of possible true values (2 for a bit, k for a histogram bucket). */
  int domainSize();

  /** Returns the collector's unbiased estimator of the true counts for this randomizer. */
  LocalEstimator estimator();
}
