package org.priodp.noise.local;

import java.util.Objects;
import org.priodp.noise.Budget;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.internal.Exact;
import org.priodp.noise.internal.FixedWork;

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
 * the report equals the true bucket, so a client that an adversary can time should use {@link
 * #randomizeFixedWork} instead (the production client path, {@code LocalRandomization}, does).
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

  /**
   * Returns the randomized report with fixed work: exactly 64 random bits and the same
   * operations (masks, multiplications; no branch on the bucket, the report or the random bits)
   * whatever the outcome, so its running time does not show whether the report is the true
   * bucket.
   *
   * <p><b>Method.</b> With integer weights W_o = ceil(2^64 / (L + k - 1)), L <= e^epsilon a
   * certified lower bound ({@link FixedWork#weightAtLeast}), and W_t = 2^64 - (k - 1) W_o, a
   * 64-bit uniform U reports the true bucket if U < W_t and otherwise other bucket number
   * floor((U - W_t) / W_o) in [0, k - 1) (skipping the true bucket), computed by a
   * multiplication with a precomputed reciprocal and two masked corrections. So P[true bucket] =
   * W_t / 2^64 and P[each other bucket] = W_o / 2^64 exactly.
   *
   * <p><b>Privacy, exactly.</b> The ratio is W_t / W_o = 2^64 / W_o - (k - 1) <= L <= e^epsilon,
   * so every report is epsilon-DP (pure, delta = 0). The report probabilities differ from the
   * exact k-RR's by less than k 2^-64 (W_o is the exact weight rounded up by less than one), so
   * {@link #estimator()}'s debiasing is off by at most about k 2^-64 divided by the gap between
   * the two probabilities, far below any sampling error.
   *
   * @throws IllegalArgumentException if the bucket is outside [0, k)
   */
  public int randomizeFixedWork(int bucket, RandomSource rnd) {
    if (bucket < 0 || bucket >= k) {
      throw new IllegalArgumentException("bucket must be in [0, " + k + "), got " + bucket);
    }
    FixedWeights w = fixedWeights();
    long u = rnd.nextLong();
    long isTrue = FixedWork.lessThan(u, w.trueWeight);
    long d = u - w.trueWeight; // in [0, (k - 1) W_o) when the report is another bucket
    long q = FixedWork.unsignedMultiplyHigh(d, w.reciprocal); // floor(d / W_o) - 2 <= q <= floor(d / W_o)
    long r = d - q * w.otherWeight;
    long step = 1 ^ FixedWork.lessThan(r, w.otherWeight);
    q += step;
    r -= step * w.otherWeight;
    q += 1 ^ FixedWork.lessThan(r, w.otherWeight);
    long other = q + ((bucket - q - 1) >>> 63); // skip the true bucket: q >= bucket maps to q + 1
    long mask = -isTrue;
    return (int) ((bucket & mask) | (other & ~mask));
  }

  /** The integer weights of {@link #randomizeFixedWork}: W_t, W_o and floor((2^64 - 1) / W_o). */
  record FixedWeights(long trueWeight, long otherWeight, long reciprocal) {}

  private static final java.util.Map<KaryRandomizedResponse, FixedWeights> WEIGHTS =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Returns W_t, W_o and the reciprocal of W_o, computed once per (k, epsilon). */
  FixedWeights fixedWeights() {
    return WEIGHTS.computeIfAbsent(this, KaryRandomizedResponse::computeFixedWeights);
  }

  private FixedWeights computeFixedWeights() {
    java.math.BigInteger wo = FixedWork.weightAtLeast(epsilon.numerator(), epsilon.denominator(), k - 1L);
    java.math.BigInteger wt = java.math.BigInteger.ONE.shiftLeft(64).subtract(wo.multiply(java.math.BigInteger.valueOf(k - 1L)));
    if (wt.compareTo(wo) < 0) { // only for epsilon below about 2^-120
      throw new IllegalArgumentException("epsilon " + epsilon + " is too small for fixed-work k-RR");
    }
    long otherWeight = wo.longValue();
    return new FixedWeights(wt.longValue(), otherWeight, Long.divideUnsigned(-1L, otherWeight));
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
