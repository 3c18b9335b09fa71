package org.priodp.noise.compress.ppr;

/**
 * The privacy and communication statements of PPR (Liu, Chen, Özgür and Li, Sec. 4), as
 * functions. They concern what the decoder learns, the index K together with the shared
 * randomness (local DP); the decoded output Z_K has exactly the simulated mechanism's
 * distribution, so it keeps that mechanism's central guarantee unchanged (for example the
 * averaged Gaussian mechanism's (epsilon, delta) from {@link RenyiAccountant}).
 *
 * <p>All quantities are doubles shown to people and used to choose parameters (this package's
 * exception to non-negotiable 1); logarithms are natural unless the name says bits.
 */
public final class PprGuarantees {
  /** log2(3.56), the constant of Theorem 4.3. */
  public static final double LOG2_3_56 = Math.log(3.56) / Math.log(2);

  private PprGuarantees() {}

  /** An (epsilon, delta) pair. */
  public record ApproxDp(double epsilon, double delta) {}

  /**
   * Theorem 4.5: PPR with parameter alpha of an epsilon-LDP mechanism is 2 alpha epsilon-LDP.
   *
   * @throws IllegalArgumentException on epsilon <= 0 or alpha <= 1
   */
  public static double localEpsilon(double epsilon, double alpha) {
    check(epsilon, alpha);
    return 2 * alpha * epsilon;
  }

  /**
   * Theorem 4.6: PPR with parameter alpha of an (epsilon, delta)-LDP mechanism is (2 alpha
   * epsilon, 2 delta)-LDP.
   */
  public static ApproxDp localApproxDp(double epsilon, double delta, double alpha) {
    check(epsilon, alpha);
    if (!(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1), got " + delta);
    }
    return new ApproxDp(2 * alpha * epsilon, 2 * delta);
  }

  /**
   * Theorem 4.7: PPR with parameter alpha of an epsilon d_X-private mechanism (metric privacy) is
   * 2 alpha epsilon d_X-private; returns the new factor 2 alpha epsilon.
   */
  public static double metricEpsilon(double epsilon, double alpha) {
    return localEpsilon(epsilon, alpha);
  }

  /**
   * Theorem 4.3: E[log2 K] <= D(P||Q) + log2(3.56) / min((alpha - 1)/2, 1) for an encoder input
   * whose target has KL divergence {@code klBits} (in bits) from the proposal.
   */
  public static double expectedLog2IndexBound(double klBits, double alpha) {
    if (!(alpha > 1)) {
      throw new IllegalArgumentException("alpha must be > 1, got " + alpha);
    }
    if (!(klBits >= 0)) {
      throw new IllegalArgumentException("KL divergence must be >= 0, got " + klBits);
    }
    return klBits + LOG2_3_56 / Math.min((alpha - 1) / 2, 1);
  }

  /**
   * The expected size in bits of a prefix-free code of K whose E[log2 K] is at most {@code ell},
   * with the Shannon code for the Zipf distribution: ell + log2(ell + 1) + 2 (Sec. 4, after
   * Theorem 4.3; the communication figure of the paper's Fig. 1).
   */
  public static double shannonCodeBits(double ell) {
    return ell + Math.log(ell + 1) / Math.log(2) + 2;
  }

  /**
   * The expected size in bits of the Elias-delta code of K when E[log2 K] <= ell: by Jensen,
   * E[floor(log2 K) + 2 log2(floor(log2 K) + 1) + 1] <= ell + 2 log2(ell + 1) + 1.
   */
  public static double eliasDeltaBits(double ell) {
    return ell + 2 * Math.log(ell + 1) / Math.log(2) + 1;
  }

  private static void check(double epsilon, double alpha) {
    if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be finite and > 0, got " + epsilon);
    }
    if (!(alpha > 1) || Double.isInfinite(alpha)) {
      throw new IllegalArgumentException("alpha must be finite and > 1, got " + alpha);
    }
  }
}
