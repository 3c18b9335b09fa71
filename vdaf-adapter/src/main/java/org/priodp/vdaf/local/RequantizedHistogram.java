package org.priodp.vdaf.local;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.requantization.RequantizationChannel;
import org.priodp.noise.compress.requantization.RequantizationEstimator;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/**
 * Wires a randomized requantization channel (requantization paper, Sec. 2) to Prio3Histogram of
 * length |X-hat|: the client quantizes its reading, samples the exact channel and submits the
 * output index as its histogram measurement; the collector estimates the mean of the quantized
 * readings (and, when the channel is invertible, their distribution) from the unsharded
 * histogram.
 *
 * <p>Each client's report is epsilon-LDP with epsilon = {@code channel().epsilon()}, computed from
 * the exact matrix, whatever the aggregators do. Central noise added by the aggregators enters the
 * estimates' variance through {@code centralVariance} (per coordinate, summed over aggregators).
 *
 * @param channel the deployed exact channel
 * @param chunkLength the Prio3Histogram chunk length
 */
public record RequantizedHistogram(RequantizationChannel channel, int chunkLength) {

  /** Validates the channel and the chunk length against Histogram(|X-hat|). */
  public RequantizedHistogram {
    Objects.requireNonNull(channel, "channel");
    new Prio3Variant.Histogram(channel.outputSize(), chunkLength);
  }

  /** Returns Prio3Histogram(|X-hat|, chunkLength). */
  public Prio3Variant.Histogram variant() {
    return new Prio3Variant.Histogram(channel.outputSize(), chunkLength);
  }

  /** Returns the client's randomized measurement [output index] for a reading. */
  public List<BigInteger> randomize(double reading, RandomSource rnd) {
    return List.of(BigInteger.valueOf(channel.randomize(reading, rnd)));
  }

  /** Randomizes the reading with {@code rnd}, then shards the report with {@code random}. */
  public Prio3.ShardResult shard(Prio3 prio3, byte[] ctx, double reading, byte[] nonce, RandomSource rnd,
      SecureRandom random) {
    Objects.requireNonNull(prio3, "prio3");
    if (!prio3.variant().equals(variant())) {
      throw new IllegalArgumentException("Prio3 is " + prio3.name() + ", the requantization needs " + variant());
    }
    return prio3.shard(ctx, randomize(reading, rnd), nonce, random);
  }

  /**
   * Returns the histogram counts from the unsharded aggregate, values above (p-1)/2 read as
   * negative (central noise may push a count below zero).
   */
  public double[] counts(List<BigInteger> unsharded) {
    Objects.requireNonNull(unsharded, "unsharded");
    if (unsharded.size() != channel.outputSize()) {
      throw new IllegalArgumentException("expected " + channel.outputSize() + " aggregate values, got " + unsharded.size());
    }
    BigInteger p = variant().field().modulus();
    BigInteger half = p.subtract(BigInteger.ONE).shiftRight(1);
    double[] c = new double[unsharded.size()];
    for (int j = 0; j < c.length; j++) {
      BigInteger v = Objects.requireNonNull(unsharded.get(j), "aggregate value");
      if (v.signum() < 0 || v.compareTo(p) >= 0) {
        throw new IllegalArgumentException("aggregate value " + v + " is not in [0, p)");
      }
      c[j] = (v.compareTo(half) > 0 ? v.subtract(p) : v).doubleValue();
    }
    return c;
  }

  /** Estimates the mean of the n clients' quantized readings, with its variance and bias bound. */
  public RequantizationEstimator.Estimate estimateMean(List<BigInteger> unsharded, long n, double centralVariance) {
    return RequantizationEstimator.of(channel).mean(counts(unsharded), n, centralVariance);
  }

  /**
   * Estimates the fraction of clients in each input cell, when the channel is square and invertible.
   *
   * @throws IllegalArgumentException if it is not
   */
  public RequantizationEstimator.Estimate[] estimateDistribution(List<BigInteger> unsharded, long n, double centralVariance) {
    return RequantizationEstimator.of(channel).distribution(counts(unsharded), n, centralVariance);
  }
}
