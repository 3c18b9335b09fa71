/**
 * The compression mechanisms of the papers: bit streams, Elias codes and indexed shared
 * randomness ({@code org.priodp.noise.compress}), the dyadic quantized Laplace ({@code .dql}),
 * randomized requantization ({@code .requantization}) and the Poisson private representation
 * ({@code .ppr}).
 *
 * <p>Exports the public API packages; {@code org.priodp.noise.compress.internal} (the 53-bit
 * uniforms and the exact uniform integer of the channel sampler) is not exported. The DP core
 * {@code org.priodp.noise} is required transitively: its types ({@code RandomSource},
 * {@code Rational}, ...) appear in this module's API. Hipparchus is read only by
 * {@code org.priodp.noise.compress.requantization} (its linear programs and least squares) and
 * appears in no public signature, so it is not required transitively. Hipparchus 4.0.3 declares
 * no module name: its names here are the ones the JDK derives from the jar file names.
 */
module org.priodp.noise.compress {
  requires transitive org.priodp.noise;
  requires hipparchus.core;
  requires hipparchus.optim;

  exports org.priodp.noise.compress;
  exports org.priodp.noise.compress.dql;
  exports org.priodp.noise.compress.ppr;
  exports org.priodp.noise.compress.requantization;
}
