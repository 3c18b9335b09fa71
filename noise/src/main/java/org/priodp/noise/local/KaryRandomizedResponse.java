package org.priodp.noise.local;

import java.util.Objects;
import org.priodp.noise.Budget;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.internal.Exact;

/**
 * k-ary randomized response, the generalisation of the lecture's RR (Section 1) to a histogram
 * bucket in [0, k): report the true bucket with probability e^epsilon/(e^epsilon + k - 1) and
 * each other bucket with probability 1/(e^epsilon + k - 1). For k = 2 it is RR with p = 1/(1 +
 * e^epsilon).
 *
 * <p><b>Privacy.</b> For any report j and true buckets x, x', P[j | x]/P[j | x'] is at most
 * (e^epsilon/(e^epsilon + k - 1)) / (1/(e^epsilon + k - 1)) = e^epsilon, so every report is
 * epsilon-DP under replacement of the bucket (as in the proof of Theorem 2).
 *
 * <p><b>Exact sampling.</b> Repeat: draw j uniform in [0, k) (exactly); if j = x, report x; else
 * draw Bernoulli(e^-epsilon) exactly and report j on success, start over on failure. One round
 * reports x with probability 1/k and a given j != x with probability e^-epsilon/k, so
 * conditioned on stopping P[x] = 1/(1 + (k - 1) e^-epsilon) = e^epsilon/(e^epsilon + k - 1) and
 * P[j] = e^-epsilon/(1 + (k - 1) e^-epsilon) = 1/(e^epsilon + k - 1). The number of rounds is
 * geometric with a parameter that does not depend on x; at most min(k, e^epsilon) + 1 rounds are
 * expected. The random bits of the last round (with or without the Bernoulli draw) show whether
 * the report equals the true bucket, so a client that an adversary can time should pad its
 * running time.
 *
 * @param k the number of buckets, >= 2
 * @param epsilon the privacy level, > 0
 */
public record KaryRandomizedResponse(int k, Rational epsilon) implements LocalRandomizer {

  /** Validates k >= 2 (and below 2^31) and epsilon > 0. */
  public KaryRandomizedResponse {
    Objects.requireNonNull(epsilon, "epsilon");
    if (k < 2) {
      throw new IllegalArgumentException("k-ary randomized response needs k >= 2 buckets, got " + k);
    }
    if (epsilon.signum() <= 0) {
      throw new IllegalArgumentException("epsilon must be > 0, got " + epsilon);
    }
  }

  /** Returns k-RR over k buckets for a pure-DP budget. */
  public static KaryRandomizedResponse of(int k, Budget.PureDp budget) {
    return new KaryRandomizedResponse(k, budget.epsilon());
  }

  /**
   * Returns the randomized report of the true bucket.
   *
   * @throws IllegalArgumentException if the bucket is outside [0, k)
   */
  public int randomize(int bucket, RandomSource rnd) {
    if (bucket < 0 || bucket >= k) {
      throw new IllegalArgumentException("bucket must be in [0, " + k + "), got " + bucket);
    }
    while (true) {
      int j = (int) Exact.uniform(k, rnd);
      if (j == bucket || Exact.bernoulliExp(epsilon.numerator(), epsilon.denominator(), rnd)) {
        return j;
      }
    }
  }

  @Override
  public int domainSize() {
    return k;
  }

  @Override
  public LocalEstimator estimator() {
    return LocalEstimator.of(this);
  }
}
