/**
 * Compression mechanisms for locally private uploads: entropy codes over bit streams and the
 * dyadic quantized Laplace (DQL) codec.
 *
 * <p>This is the one package of prio-dp where {@code double} arithmetic is allowed on a
 * privacy path (design brief, non-negotiable 1): the mechanisms here simulate continuous
 * distributions. Every formula is written in a numerically stable form, every uniform variate is
 * built from 53 random bits of an injected {@link org.priodp.noise.RandomSource}, and each class
 * states its residual error.
 */
package org.priodp.noise.compress;
