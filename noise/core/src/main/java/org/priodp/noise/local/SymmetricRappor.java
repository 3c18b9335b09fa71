package org.priodp.noise.local;

import java.util.Objects;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.internal.FixedWork;

/**
 * Symmetric (basic one-time) RAPPOR: encode the bucket x in [0, length) as a one-hot vector and
 * flip every bit independently with probability f = 1/(1 + e^(epsilon/2)), the lecture's RR
 * (Section 1) applied per coordinate with epsilon/2; then keep the report only if at most
 * {@code maxWeight} bits are set, drawing a fresh one otherwise, so that it fits a
 * Prio3MultihotCountVec(length, maxWeight).
 *
 * <p><b>Privacy, including the truncation.</b> Two one-hot vectors differ in exactly two
 * coordinates, so before truncation P[y | x]/P[y | x'] <= (e^(epsilon/2))^2 = e^epsilon for every
 * report y (Theorem 2, twice). Keeping only reports of weight <= w conditions on the event A =
 * {weight(y) <= w}: P[y | x, A] = P[y | x]/P[A | x]. The weight of the untruncated report is
 * Bernoulli(1 - f) + Binomial(length - 1, f) for every one-hot x, so P[A | x] is the same for all
 * inputs and cancels from the ratio: the truncated report is exactly epsilon-DP (delta = 0). The
 * truncation changes only the collector's debiasing constants (see {@link LocalEstimator}) and
 * the expected number of attempts, 1/P[A], which does not depend on x. The guarantee is for
 * one-hot inputs (a Prio3Histogram measurement); a multi-hot input would make P[A | x] depend on
 * its weight.
 *
 * @param length the number of buckets (and of bits in the report), >= 2
 * @param epsilon the privacy level of one report under replacement of the bucket, > 0
 * @param maxWeight the largest number of set bits in a report, in [1, length]
 */
public record SymmetricRappor(int length, Rational epsilon, int maxWeight) implements LocalRandomizer {

  /** Attempts after which {@link #randomize} gives up; the acceptance probability is input-independent. */
  public static final int MAX_ATTEMPTS = 1 << 16;

  /** Validates length >= 2, epsilon > 0 and 1 <= maxWeight <= length. */
  public SymmetricRappor {
    Objects.requireNonNull(epsilon, "epsilon");
    if (length < 2) {
      throw new IllegalArgumentException("RAPPOR needs length >= 2 buckets, got " + length);
    }
    if (epsilon.signum() <= 0) {
      throw new IllegalArgumentException("epsilon must be > 0, got " + epsilon);
    }
    if (maxWeight < 1 || maxWeight > length) {
      throw new IllegalArgumentException(
          "max weight must be in [1, length = " + length + "], got " + maxWeight);
    }
  }

  /** Returns untruncated symmetric RAPPOR (max weight = length). */
  public static SymmetricRappor untruncated(int length, Rational epsilon) {
    return new SymmetricRappor(length, epsilon, length);
  }

  /** Returns the per-bit flip probability f = 1/(1 + e^(epsilon/2)). */
  public FlipProbability.OfEpsilon perBitFlip() {
    return new FlipProbability.OfEpsilon(epsilon.divide(Rational.of(2)));
  }

  /**
   * Returns the report for the bucket: a fresh array of {@code length} bits with at most
   * {@code maxWeight} set.
   *
   * @throws IllegalArgumentException if the bucket is outside [0, length)
   * @throws IllegalStateException if {@value #MAX_ATTEMPTS} attempts all exceeded the max weight
   *     (choose a larger max weight; the failure probability does not depend on the bucket)
   */
  public boolean[] randomize(int bucket, RandomSource rnd) {
    if (bucket < 0 || bucket >= length) {
      throw new IllegalArgumentException("bucket must be in [0, " + length + "), got " + bucket);
    }
    FlipProbability f = perBitFlip();
    boolean[] y = new boolean[length];
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      int weight = 0;
      for (int i = 0; i < length; i++) {
        y[i] = (i == bucket) != f.flip(rnd);
        if (y[i]) {
          weight++;
        }
      }
      if (weight <= maxWeight) {
        return y;
      }
    }
    throw new IllegalStateException("no RAPPOR report of weight <= " + maxWeight + " in "
        + MAX_ATTEMPTS + " attempts; choose a larger max weight");
  }

  /**
   * Returns the report with fixed work per attempt: every bit reads exactly 64 random bits and
   * is computed with the same operations (a branch-free comparison and an exclusive or, no
   * branch on the bucket or the bits), so the running time of an attempt does not depend on
   * which bits were flipped. The only branch is the truncation's accept/retry on the weight,
   * whose probability is the same for every one-hot input (see the class comment) and which is
   * independent of the accepted report, so it shows nothing about the bucket.
   *
   * <p><b>Method and privacy, exactly.</b> Each bit flips iff a 64-bit uniform is below W =
   * ceil(2^64 / (L + 1)), L <= e^(epsilon/2) a certified lower bound ({@link
   * FixedWork#weightAtLeast}), so the flip probability is f' = W / 2^64 >= 1/(1 + e^(epsilon/2))
   * and (1 - f')/f' <= e^(epsilon/2): two coordinates give a ratio of at most e^epsilon, so every
   * report is epsilon-DP (pure, truncation included as for {@link #randomize}). f' exceeds the
   * exact f by less than 2^-64, so {@link #estimator()}'s debiasing is off by at most about
   * 2^-64 divided by 1 - 2f, far below any sampling error.
   *
   * @throws IllegalArgumentException if the bucket is outside [0, length)
   * @throws IllegalStateException if {@value #MAX_ATTEMPTS} attempts all exceeded the max weight
   */
  public boolean[] randomizeFixedWork(int bucket, RandomSource rnd) {
    if (bucket < 0 || bucket >= length) {
      throw new IllegalArgumentException("bucket must be in [0, " + length + "), got " + bucket);
    }
    long w = flipWeight();
    boolean[] y = new boolean[length];
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      long weight = 0;
      for (int i = 0; i < length; i++) {
        long diff = i ^ bucket;
        long isBucket = 1 ^ ((diff | -diff) >>> 63);
        long bit = isBucket ^ FixedWork.lessThan(rnd.nextLong(), w);
        y[i] = bit != 0;
        weight += bit;
      }
      if (weight <= maxWeight) {
        return y;
      }
    }
    throw new IllegalStateException("no RAPPOR report of weight <= " + maxWeight + " in "
        + MAX_ATTEMPTS + " attempts; choose a larger max weight");
  }

  private static final java.util.Map<Rational, Long> FLIP_WEIGHTS = new java.util.concurrent.ConcurrentHashMap<>();

  /** W = ceil(2^64 / (L + 1)), L <= e^(epsilon/2), computed once per epsilon. */
  long flipWeight() {
    return FLIP_WEIGHTS.computeIfAbsent(epsilon, e -> {
      Rational half = e.divide(Rational.of(2));
      java.math.BigInteger w = FixedWork.weightAtLeast(half.numerator(), half.denominator(), 1);
      if (w.bitLength() > 63) { // f' > 1/2: only for epsilon below about 2^-120
        throw new IllegalArgumentException("epsilon " + e + " is too small for fixed-work RAPPOR");
      }
      return w.longValue();
    });
  }

  @Override
  public int domainSize() {
    return length;
  }

  @Override
  public LocalEstimator estimator() {
    return LocalEstimator.of(this);
  }
}
