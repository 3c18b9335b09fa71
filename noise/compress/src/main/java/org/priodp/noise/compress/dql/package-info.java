/**
 * The dyadic quantized Laplace (DQL) mechanism of papers/dyadic-quantized-laplace.txt
 * ("Communication-Efficient Laplace Mechanism for Differential Privacy via Random
 * Quantization"): a value x is sent as a short integer description M, coded with the signed
 * Elias codes, from which the decoder computes x plus exactly Laplace(1/epsilon) noise
 * (Proposition 6).
 *
 * <p><b>Guarantee</b> ({@link org.priodp.noise.compress.dql.DqlGuarantees}, Theorem 7, with the
 * l1 metric): the decoded value is epsilon d-private towards the database and everyone
 * downstream, as the Laplace mechanism is; the description together with the shared
 * randomness is ell epsilon d-private towards the decoder itself. The expected description
 * length is bounded by Theorem 8. Doubles are used on this path as the parent package
 * describes; {@link org.priodp.noise.compress.dql.DqlCodec} states the residual error.
 */
package org.priodp.noise.compress.dql;
