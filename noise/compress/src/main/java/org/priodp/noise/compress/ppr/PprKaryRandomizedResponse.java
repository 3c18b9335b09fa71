package org.priodp.noise.compress.ppr;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Objects;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.internal.Uniforms;
import org.priodp.noise.local.KaryRandomizedResponse;

/**
 * k-ary randomized response ({@link KaryRandomizedResponse}) simulated by PPR: the proposal is
 * uniform on the k buckets and the target for true bucket x is the k-RR output distribution,
 * e^epsilon/(e^epsilon + k - 1) on x and 1/(e^epsilon + k - 1) elsewhere, so log(dP/dQ) is at
 * most log(k e^epsilon/(e^epsilon + k - 1)) < epsilon. PPR with parameter alpha is then
 * 2 alpha epsilon-LDP (Theorem 4.5) and its decoded bucket has exactly the k-RR distribution.
 *
 * <p>The uniform proposal bucket is floor(U k) for a 53-bit uniform U, so each bucket's
 * probability is 1/k within k 2^-53 (the residual error of {@link PprCodec}).
 */
public final class PprKaryRandomizedResponse {
  private final KaryRandomizedResponse rr;
  private final double logKeep;
  private final double logOther;

  /** Wraps {@code rr}. */
  public PprKaryRandomizedResponse(KaryRandomizedResponse rr) {
    this.rr = Objects.requireNonNull(rr, "rr");
    double eps = new BigDecimal(rr.epsilon().numerator())
        .divide(new BigDecimal(rr.epsilon().denominator()), MathContext.DECIMAL64).doubleValue();
    int k = rr.k();
    // log of e^eps/(e^eps + k - 1) and 1/(e^eps + k - 1), stable for large eps
    double logDen = eps + Math.log1p((k - 1) * Math.exp(-eps));
    this.logKeep = eps - logDen;
    this.logOther = -logDen;
  }

  /** Returns the simulated randomizer. */
  public KaryRandomizedResponse randomizer() {
    return rr;
  }

  /** Returns log P[report = y | true bucket = x] of k-RR. */
  public double logProbability(int x, int y) {
    return x == y ? logKeep : logOther;
  }

  /** The shared proposal: uniform on [0, k), one 53-bit uniform per sample. */
  public PprProposal<Integer> proposal() {
    int k = rr.k();
    return new PprProposal<>() {
      @Override
      public Integer sample(RandomSource shared) {
        return (int) Math.min(k - 1, (long) Math.floor(Uniforms.unit(shared) * k));
      }

      @Override
      public int maxBitsPerSample() {
        return 53;
      }
    };
  }

  /**
   * The target for true bucket {@code x}.
   *
   * @throws IllegalArgumentException if x is outside [0, k)
   */
  public PprTarget<Integer> target(int x) {
    int k = rr.k();
    if (x < 0 || x >= k) {
      throw new IllegalArgumentException("bucket must be in [0, " + k + "), got " + x);
    }
    double logK = Math.log(k);
    return new PprTarget<>() {
      @Override
      public double logRatio(Integer z) {
        return logK + logProbability(x, z);
      }

      @Override
      public double logRatioBound() {
        return logK + logKeep;
      }
    };
  }

  /** Returns KL(P_x || uniform) in bits, the same for every x. */
  public double klBits() {
    int k = rr.k();
    double pKeep = Math.exp(logKeep);
    double pOther = Math.exp(logOther);
    double nats = pKeep * (Math.log(k) + logKeep) + (k - 1) * pOther * (Math.log(k) + logOther);
    return nats / Math.log(2);
  }
}
