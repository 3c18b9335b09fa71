/**
 * Compression mechanisms for locally private uploads: entropy codes over bit streams, the
 * dyadic quantized Laplace (DQL) codec, and randomized requantization (a Lloyd-Max quantizer,
 * a family of input distributions, the LP channel designer and the exact deployed channel).
 *
 * <p>This is the one package of prio-dp where {@code double} arithmetic is allowed on a
 * privacy path (design brief, non-negotiable 1): the mechanisms here simulate continuous
 * distributions. Every formula is written in a numerically stable form, every uniform variate is
 * built from 53 random bits of an injected {@link org.priodp.noise.RandomSource}, and each class
 * states its residual error. The requantization designer solves its LPs in doubles (Hipparchus),
 * but the channel it deploys is an exact rational matrix sampled exactly, and the epsilon reported
 * is computed from that matrix.
 */
package org.priodp.noise.compress;
