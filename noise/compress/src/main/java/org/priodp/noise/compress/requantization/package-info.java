/**
 * Randomized requantization of papers/randomized-requantization-ldp.txt ("Randomized
 * Requantization with Local Differential Privacy"): a sensor's value, quantized to 2^R levels by
 * a Lloyd-Max quantizer, is sent through a randomized channel to 2^R-hat levels. {@link
 * org.priodp.noise.compress.requantization.RequantizationDesigner} finds the privacy-optimal
 * channel for a worst-case distortion bound over a family of input distributions (bisection with
 * one linear program per step, Theorem 1); {@link
 * org.priodp.noise.compress.requantization.RequantizationEstimator} estimates the mean and the
 * input distribution from the received histogram.
 *
 * <p><b>Guarantee:</b> the deployed {@link
 * org.priodp.noise.compress.requantization.RequantizationChannel} is an exact rational matrix
 * sampled exactly, and the epsilon-LDP it reports (Eq. (1)) is computed from that matrix, not
 * taken from the design. The linear programs and the estimator's least squares (and the error
 * function of the Gaussian family) are computed in doubles with Hipparchus, which no other
 * package of prio-dp uses.
 */
package org.priodp.noise.compress.requantization;
