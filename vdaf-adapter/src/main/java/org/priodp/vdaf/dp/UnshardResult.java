package org.priodp.vdaf.dp;

import java.math.BigInteger;
import java.util.List;
import java.util.Objects;
import org.priodp.vdaf.Prio3Variant;

/**
 * The collector's view of an unsharded, noised aggregate: one signed estimate per coordinate,
 * the half-width of the confidence interval of the total noise, and, if asked for, separately
 * marked post-processed values.
 *
 * <p>With a DP strategy each aggregator adds its own noise, so each estimate carries the sum of
 * {@code noisedShares} independent draws ({@link #noiseNote()} says so); the interval
 * [estimate - halfWidth, estimate + halfWidth] covers the noise-free value with probability at
 * least {@code confidence}. Without DP the estimates are the exact VDAF result in [0, p).
 * With DP each estimate is the integer representative of the field value nearest the valid
 * range of the aggregate widened by the noise ({@link DpUnsharder} describes the lift).
 *
 * @param variant the VDAF parameters
 * @param strategy the DP strategy the aggregators used
 * @param numMeasurements the number of measurements aggregated
 * @param noisedShares how many aggregate shares carry noise (0 without DP)
 * @param fieldValues the VDAF's decoded aggregate, each in [0, p)
 * @param estimates the estimates: with DP the lift of {@code fieldValues} to the integers
 *     (congruent mod p, nearest [-h, numMeasurements * max + h]); {@code fieldValues} as they
 *     are without
 * @param halfWidth the half-width of every coordinate's interval (0 without DP); a BigInteger
 *     because very large noise scales give half-widths beyond the long range
 * @param confidence the interval's coverage probability
 * @param noiseNote what noise the estimates carry, for people
 * @param postProcessing the post-processing applied, {@link PostProcessing#NONE} by default
 * @param postProcessed the post-processed values; empty when {@code postProcessing} is NONE
 */
public record UnshardResult(
    Prio3Variant variant,
    DpStrategy strategy,
    long numMeasurements,
    int noisedShares,
    List<BigInteger> fieldValues,
    List<BigInteger> estimates,
    BigInteger halfWidth,
    double confidence,
    String noiseNote,
    PostProcessing postProcessing,
    List<BigInteger> postProcessed) {

  /** Copies the lists and checks their lengths. */
  public UnshardResult {
    Objects.requireNonNull(variant, "variant");
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(noiseNote, "noiseNote");
    Objects.requireNonNull(postProcessing, "postProcessing");
    Objects.requireNonNull(halfWidth, "halfWidth");
    if (halfWidth.signum() < 0) {
      throw new IllegalArgumentException("halfWidth must be >= 0, got " + halfWidth);
    }
    fieldValues = List.copyOf(fieldValues);
    estimates = List.copyOf(estimates);
    postProcessed = List.copyOf(postProcessed);
    if (estimates.size() != fieldValues.size()
        || (postProcessing != PostProcessing.NONE) != (postProcessed.size() == estimates.size())) {
      throw new IllegalArgumentException("inconsistent result lengths");
    }
  }

  /** Returns the lower end of coordinate {@code i}'s interval. */
  public BigInteger lower(int i) {
    return estimates.get(i).subtract(halfWidth);
  }

  /** Returns the upper end of coordinate {@code i}'s interval. */
  public BigInteger upper(int i) {
    return estimates.get(i).add(halfWidth);
  }
}
