package org.priodp.vdaf.local;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.priodp.noise.RandomSource;
import org.priodp.noise.local.KaryRandomizedResponse;
import org.priodp.noise.local.LocalEstimator;
import org.priodp.noise.local.RandomizedResponse;
import org.priodp.noise.local.SymmetricRappor;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/**
 * Wires a local randomizer (lecture, Section 1) to a Prio3 variant: the client randomizes its
 * measurement before sharding ({@link #randomize}, {@link #shard}), and the collector debiases
 * the unsharded aggregate ({@link #debias}). The set is closed: Prio3Count with binary RR,
 * Prio3Histogram with k-RR, and Prio3MultihotCountVec carrying symmetric RAPPOR reports of a
 * histogram bucket.
 *
 * <p>Each client's report is epsilon-DP on its own, whatever the aggregators do. If the
 * aggregators also add central noise to their aggregate shares, pass its per-coordinate variance
 * (summed over the aggregators) to {@link #debias}; zero-mean noise leaves the estimate unbiased.
 */
public sealed interface LocalRandomization
    permits LocalRandomization.CountRr, LocalRandomization.HistogramKrr, LocalRandomization.MultihotRappor {

  /** Returns the Prio3 variant that carries the randomized reports. */
  Prio3Variant variant();

  /** Returns the collector's estimator for the randomizer. */
  LocalEstimator estimator();

  /**
   * Returns the randomized measurement, ready for {@link Prio3#shard}, from the true measurement
   * in its natural form: Count [bit], Histogram [bucket], MultihotCountVec [bucket] (RAPPOR
   * randomizes a one-hot histogram measurement into a multi-hot vector).
   *
   * @throws IllegalArgumentException if the true measurement is malformed
   */
  List<BigInteger> randomize(List<BigInteger> measurement, RandomSource rnd);

  /** Randomizes the measurement with {@code rnd}, then shards the report with {@code random}. */
  default Prio3.ShardResult shard(Prio3 prio3, byte[] ctx, List<BigInteger> measurement, byte[] nonce,
      RandomSource rnd, SecureRandom random) {
    Objects.requireNonNull(prio3, "prio3");
    if (!prio3.variant().equals(variant())) {
      throw new IllegalArgumentException("Prio3 is " + prio3.name() + ", the randomization needs " + variant());
    }
    return prio3.shard(ctx, randomize(measurement, rnd), nonce, random);
  }

  /**
   * Debiases the unsharded aggregate of {@code n} randomized reports: per coordinate, the
   * estimated true count and its variance (lecture Claim 3, generalised in {@link
   * LocalEstimator}). Values above (p-1)/2 are read as negative (central noise may push a
   * coordinate below zero).
   *
   * @param unsharded the output of {@link Prio3#unshard}, one value in [0, p) per coordinate
   * @param centralVariance the per-coordinate variance of central noise in the aggregate (0 if none)
   * @return for Count one entry (the number of true ones); otherwise one entry per bucket
   */
  default List<LocalEstimator.Debiased> debias(List<BigInteger> unsharded, long n, double centralVariance) {
    Objects.requireNonNull(unsharded, "unsharded");
    if (unsharded.size() != variant().outputLength()) {
      throw new IllegalArgumentException(
          "expected " + variant().outputLength() + " aggregate values, got " + unsharded.size());
    }
    BigInteger p = variant().field().modulus();
    BigInteger half = p.subtract(BigInteger.ONE).shiftRight(1);
    LocalEstimator est = estimator();
    List<LocalEstimator.Debiased> out = new ArrayList<>(unsharded.size());
    for (BigInteger v : unsharded) {
      if (v.signum() < 0 || v.compareTo(p) >= 0) {
        throw new IllegalArgumentException("aggregate value " + v + " is not in [0, p)");
      }
      BigInteger signed = v.compareTo(half) > 0 ? v.subtract(p) : v; // the signed lift
      out.add(est.debias(signed.doubleValue(), n, centralVariance));
    }
    return Collections.unmodifiableList(out);
  }

  /** Prio3Count with binary randomized response: the measurement is [bit]. */
  record CountRr(RandomizedResponse rr) implements LocalRandomization {
    /** Validates that the randomizer is present. */
    public CountRr {
      Objects.requireNonNull(rr, "rr");
    }

    @Override
    public Prio3Variant variant() {
      return new Prio3Variant.Count();
    }

    @Override
    public LocalEstimator estimator() {
      return rr.estimator();
    }

    @Override
    public List<BigInteger> randomize(List<BigInteger> measurement, RandomSource rnd) {
      int bit = single(measurement, 2, "Prio3Count measurement");
      // fixed work: the client's running time must not show whether the bit was flipped
      return List.of(BigInteger.valueOf(rr.randomizeFixedWork(bit, rnd)));
    }
  }

  /** Prio3Histogram(k, chunkLength) with k-ary randomized response: the measurement is [bucket]. */
  record HistogramKrr(KaryRandomizedResponse krr, int chunkLength) implements LocalRandomization {
    /** Validates the randomizer and the chunk length against Histogram(k). */
    public HistogramKrr {
      Objects.requireNonNull(krr, "krr");
      new Prio3Variant.Histogram(krr.k(), chunkLength);
    }

    @Override
    public Prio3Variant variant() {
      return new Prio3Variant.Histogram(krr.k(), chunkLength);
    }

    @Override
    public LocalEstimator estimator() {
      return krr.estimator();
    }

    @Override
    public List<BigInteger> randomize(List<BigInteger> measurement, RandomSource rnd) {
      int bucket = single(measurement, krr.k(), "Prio3Histogram bucket");
      // fixed work: the client's running time must not show whether it reported the true bucket
      return List.of(BigInteger.valueOf(krr.randomizeFixedWork(bucket, rnd)));
    }
  }

  /**
   * Prio3MultihotCountVec(length, maxWeight, chunkLength) carrying symmetric RAPPOR reports of a
   * bucket: the measurement is [bucket], the report a vector of at most maxWeight ones.
   */
  record MultihotRappor(SymmetricRappor rappor, int chunkLength) implements LocalRandomization {
    /** Validates the randomizer and the chunk length against MultihotCountVec. */
    public MultihotRappor {
      Objects.requireNonNull(rappor, "rappor");
      new Prio3Variant.MultihotCountVec(rappor.length(), rappor.maxWeight(), chunkLength);
    }

    @Override
    public Prio3Variant variant() {
      return new Prio3Variant.MultihotCountVec(rappor.length(), rappor.maxWeight(), chunkLength);
    }

    @Override
    public LocalEstimator estimator() {
      return rappor.estimator();
    }

    @Override
    public List<BigInteger> randomize(List<BigInteger> measurement, RandomSource rnd) {
      int bucket = single(measurement, rappor.length(), "RAPPOR bucket");
      // fixed work per attempt: the running time must not show which bits were flipped
      boolean[] bits = rappor.randomizeFixedWork(bucket, rnd);
      List<BigInteger> out = new ArrayList<>(bits.length);
      for (boolean b : bits) {
        out.add(b ? BigInteger.ONE : BigInteger.ZERO);
      }
      return Collections.unmodifiableList(out);
    }
  }

  private static int single(List<BigInteger> measurement, int bound, String what) {
    Objects.requireNonNull(measurement, "measurement");
    if (measurement.size() != 1 || measurement.get(0) == null) {
      throw new IllegalArgumentException(what + ": expected one value, got " + measurement);
    }
    BigInteger v = measurement.get(0);
    if (v.signum() < 0 || v.compareTo(BigInteger.valueOf(bound)) >= 0) {
      throw new IllegalArgumentException(what + " must be in [0, " + bound + "), got " + v);
    }
    return v.intValueExact();
  }
}
