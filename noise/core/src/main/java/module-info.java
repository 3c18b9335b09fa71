/**
 * Exact rationals and privacy budgets, random-bit sources, exact samplers (discrete Laplace,
 * its fixed-work variant, discrete Gaussian), accuracy bounds, local randomizers and the privacy
 * ledger's exact arithmetic ({@code org.priodp.noise.ledger}): the DP
 * core, on the JDK only.
 *
 * <p>Exports the public API packages; {@code org.priodp.noise.internal} (the exact Bernoulli
 * and geometric kernels, fixed-point exp, the fixed-work helpers) is not exported. The module
 * requires nothing beyond {@code java.base}.
 */
module org.priodp.noise {
  exports org.priodp.noise;
  exports org.priodp.noise.local;
  exports org.priodp.noise.ledger;
}
