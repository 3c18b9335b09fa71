/**
 * Poisson private representation (PPR) of papers/poisson-private-representation.txt
 * ("Universal Exact Compression of Differentially Private Mechanisms"): the encoder compresses
 * one output of any mechanism to an index K into shared proposal samples, and the decoder's
 * Z_K has exactly the mechanism's distribution ({@link org.priodp.noise.compress.ppr.PprCodec},
 * with an exact stopping rule and a reported iteration cap). Here it compresses the Gaussian
 * mechanism for distributed mean estimation ({@link
 * org.priodp.noise.compress.ppr.PprGaussianMean}, sliced into chunks) and k-ary randomized
 * response; the paper's CSGM baseline and a Renyi-DP accountant sit beside them.
 *
 * <p><b>Guarantee</b> ({@link org.priodp.noise.compress.ppr.PprGuarantees}): the decoded output
 * keeps the simulated mechanism's central guarantee unchanged (for the averaged Gaussian
 * mechanism, the (epsilon, delta) of {@link org.priodp.noise.compress.ppr.RenyiAccountant});
 * towards the decoder, who sees the index and the shared randomness, an epsilon-LDP mechanism
 * stays 2 alpha epsilon-LDP (Theorem 4.5) and an (epsilon, delta)-DP one becomes (2 alpha
 * epsilon, 2 delta)-LDP (Theorem 4.6), per chunk, composed over chunks. A capped run adds its
 * total variation to delta. Doubles are used on this path as the parent package describes.
 */
package org.priodp.noise.compress.ppr;
