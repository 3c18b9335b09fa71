/**
 * The compression mechanisms of three papers, one subpackage each, and what they share:
 * {@link org.priodp.noise.compress.BitWriter} and {@link org.priodp.noise.compress.BitReader}
 * (bit streams), the Elias gamma and delta codes of {@link org.priodp.noise.compress.EliasCode},
 * and the indexed {@link org.priodp.noise.compress.SharedRandomness} an encoder and its decoder
 * derive from a common seed.
 *
 * <ul>
 *   <li>{@link org.priodp.noise.compress.dql}: the dyadic quantized Laplace codec
 *       (papers/dyadic-quantized-laplace.txt);
 *   <li>{@link org.priodp.noise.compress.ppr}: Poisson private representation
 *       (papers/poisson-private-representation.txt);
 *   <li>{@link org.priodp.noise.compress.requantization}: randomized requantization
 *       (papers/randomized-requantization-ldp.txt).
 * </ul>
 *
 * <p>These packages are the one place of prio-dp where {@code double} arithmetic is allowed on
 * a privacy path (design brief, non-negotiable 1): the mechanisms simulate continuous
 * distributions. Every formula is written in a numerically stable form, every uniform variate is
 * built from 53 random bits of an injected {@link org.priodp.noise.RandomSource}, and each class
 * states its residual error.
 */
package org.priodp.noise.compress;
