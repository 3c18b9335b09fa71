package org.priodp.vdaf;

import java.math.BigInteger;
import java.util.List;
import java.util.Objects;

/**
 * The collector's view of an unsharded, noised aggregate: one signed estimate per coordinate,
 * the half-width of the confidence interval of the total noise, and, if asked for, separately
 * marked post-processed values.
 *
 * <p>With a DP strategy each aggregator adds its own noise, so each estimate carries the sum of
 * {@code noisedShares} independent draws ({@link #noiseNote()} says so); the interval
 * [estimate - halfWidth, estimate + halfWidth] covers the noise-free value with probability at
 * least {@code confidence}. Without DP the estimates are the exact VDAF result in [0, p).
 *
 * @param variant the VDAF parameters
 * @param strategy the DP strategy the aggregators used
 * @param numMeasurements the number of measurements aggregated
 * @param noisedShares how many aggregate shares carry noise (0 without DP)
 * @param fieldValues the VDAF's decoded aggregate, each in [0, p)
 * @param estimates the estimates: the signed lift of {@code fieldValues} (in [-(p-1)/2,
 *     (p-1)/2]) with DP, {@code fieldValues} as they are without
 * @param halfWidth the half-width of every coordinate's interval (0 without DP)
 * @param confidence the interval's coverage probability
 * @param noiseNote what noise the estimates carry, for people
 * @param postProcessing the post-processing applied, {@link PostProcessing#NONE} by default
 * @param postProcessed the post-processed values; empty when {@code postProcessing} is NONE
 */
public record CollectorResult(
    Prio3Variant variant,
    DpStrategy strategy,
    long numMeasurements,
    int noisedShares,
    List<BigInteger> fieldValues,
    List<BigInteger> estimates,
    long halfWidth,
    double confidence,
    String noiseNote,
    PostProcessing postProcessing,
    List<BigInteger> postProcessed) {

  /** Copies the lists and checks their lengths. */
  public CollectorResult {
    Objects.requireNonNull(variant, "variant");
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(noiseNote, "noiseNote");
    Objects.requireNonNull(postProcessing, "postProcessing");
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
    return estimates.get(i).subtract(BigInteger.valueOf(halfWidth));
  }

  /** Returns the upper end of coordinate {@code i}'s interval. */
  public BigInteger upper(int i) {
    return estimates.get(i).add(BigInteger.valueOf(halfWidth));
  }
}
