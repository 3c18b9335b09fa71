/**
 * The differential-privacy layer on Prio3 aggregate shares
 * (papers/prio3-pure-dp-discrete-laplace.txt): the {@link org.priodp.vdaf.dp.Sensitivity} of
 * each variant under a {@link org.priodp.vdaf.dp.SensitivityRule}, the {@link
 * org.priodp.vdaf.dp.DpStrategy} that turns it into exactly calibrated noise, {@link
 * org.priodp.vdaf.dp.Prio3DpMechanism} which adds that noise to an aggregator's share, and the
 * {@link org.priodp.vdaf.dp.DpUnsharder} which unshards the noised shares, lifts them to the
 * integers and reports the confidence intervals of the noise.
 *
 * <p>The guarantee: epsilon-DP (discrete Laplace) or rho-zCDP (discrete Gaussian) for one
 * report under replacement, per release of a batch, as long as one aggregator is honest.
 */
package org.priodp.vdaf.dp;
