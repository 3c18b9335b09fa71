/**
 * Exact rationals and privacy budgets, random-bit sources, exact samplers (discrete Laplace,
 * its fixed-work variant, discrete Gaussian), accuracy bounds, local randomizers, and the
 * compression mechanisms of the papers (DQL, PPR, randomized requantization).
 *
 * <p>Exports the public API packages; {@code org.priodp.noise.internal} (the exact Bernoulli
 * and geometric kernels, fixed-point exp, the 53-bit uniforms) is not exported. Hipparchus is
 * read only by {@code org.priodp.noise.compress.requantization} (its linear programs and least
 * squares) and appears in no public signature, so it is not required transitively. Hipparchus
 * 4.0.3 declares no module name: its names here are the ones the JDK derives from the jar file
 * names.
 */
module org.priodp.noise {
  requires hipparchus.core;
  requires hipparchus.optim;

  exports org.priodp.noise;
  exports org.priodp.noise.local;
  exports org.priodp.noise.compress;
  exports org.priodp.noise.compress.dql;
  exports org.priodp.noise.compress.ppr;
  exports org.priodp.noise.compress.requantization;
}
