package org.priodp.noise.compress.ppr;

import java.util.Objects;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.BitReader;
import org.priodp.noise.compress.BitWriter;
import org.priodp.noise.compress.EliasCode;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.internal.Uniforms;

/**
 * Poisson private representation (PPR; Liu, Chen, Özgür and Li, "Universal Exact Compression of
 * Differentially Private Mechanisms", Sec. 4 and App. B): the encoder compresses one output of
 * any mechanism P = P_{Z|X=x} to an index K, and the decoder, who shares only the proposal
 * samples, outputs Z_K, which has exactly the distribution P.
 *
 * <p><b>The scheme.</b> Shared: Z_1, Z_2, ... i.i.d. from the proposal Q; sample Z_k is drawn
 * from {@link SharedRandomness#indexed(long, long, int) shared.indexed(report, k - 1, blocks)},
 * so the decoder regenerates Z_K directly. Local to the encoder: the arrival times T_1 < T_2 <
 * ... of a rate-1 Poisson process and i.i.d. Exp(1) variables E_k. With r = dP/dQ, the encoder
 * outputs K with probability proportional to (T_k / r(Z_k))^(-alpha), which is the same as K =
 * argmin_k T_k^alpha E_k / r(Z_k)^alpha (an exponential race). The paper also lets T be shared;
 * drawing it locally changes nothing for the decoder (it never uses T) and only hides more from
 * it, so every privacy statement of {@link PprGuarantees} still holds.
 *
 * <p><b>Exact termination (this implementation's own reparametrization).</b> With r <= r* =
 * exp({@link PprTarget#logRatioBound()}) and V the best value so far, a point at time t can only
 * win if E < c / t^alpha, c = V r*^alpha. The encoder splits the rate-1 process into "A" points
 * (rate min(1, c/t^alpha)) and "B" points (the rest) so that every possible winner is an A point:
 * a point is B only when E >= c/t^alpha, with probability (1 - min(1, c/t^alpha)) e^(c/t^alpha)
 * given that. The next A point is found by inverting the closed-form integral of its rate, the B
 * points before it only move the index (their number is Poisson with mean (gap) - (A mass of the
 * gap)), and an A point is a candidate with probability (1 - e^(-c/t^alpha)) / min(1,
 * c/t^alpha), when its E is a truncated exponential and Z_k must be evaluated. Because the A rate
 * is integrable for alpha > 1, the encoder knows when no A point is left, and stops: the index it
 * returns is then exactly the PPR index. Only candidates cost a proposal sample and a density
 * ratio; their expected number grows like r* / exp(D(P||Q)).
 *
 * <p><b>The iteration cap.</b> The running time is heavy-tailed (it is driven by r* and by the
 * luck of the race; the index itself has infinite mean for alpha = 2), so the encoder takes a cap
 * on the number of A points it visits. A run that reaches it returns the best point visited so
 * far with {@link PprEncoding#capped()} set; it is never silently passed off as exact. The output
 * of the capped encoder agrees with the exact PPR output on the event that the cap is not
 * reached, so if that event has probability at least 1 - beta for every input, the capped
 * output is within total variation beta of P, and an (epsilon, delta)-DP statement about exact
 * PPR becomes (epsilon, delta + (1 + e^epsilon) beta) for the capped encoder. Callers count and
 * report capped runs (the Gaussian mean estimation and the reproduction do).
 *
 * <p><b>Residual error.</b> All continuous quantities are doubles built from 53-bit uniforms of
 * the injected sources and handled in log space; the exactness argument holds up to the rounding
 * of those doubles (relative error of order 2^-50 per variate), which is the residual error of the
 * design brief's non-negotiable 1.
 *
 * <p>A codec holds a cipher and is not thread-safe; use one per thread.
 *
 * @param <Z> the output space
 */
public final class PprCodec<Z> {
  private final PprProposal<Z> proposal;
  private final SharedRandomness shared;
  private final long report;
  private final double alpha;
  private final long maxIterations;
  private final int blocksPerSample;
  private final org.priodp.noise.SeededRandomSource.Seeker seeker;

  /**
   * Creates a codec.
   *
   * @param proposal the shared proposal distribution Q
   * @param shared the shared randomness
   * @param report which report stream of the shared randomness this codec uses (one per client
   *     and chunk; never reuse a report for two encodings)
   * @param alpha the PPR parameter, > 1 (2 in the paper's experiments)
   * @param maxIterations the encoder's cap on visited points, >= 1
   * @throws IllegalArgumentException on alpha <= 1, non-finite alpha, report < 0 or cap < 1
   */
  public PprCodec(PprProposal<Z> proposal, SharedRandomness shared, long report, double alpha, long maxIterations) {
    this.proposal = Objects.requireNonNull(proposal, "proposal");
    this.shared = Objects.requireNonNull(shared, "shared");
    if (report < 0) {
      throw new IllegalArgumentException("report index must be >= 0, got " + report);
    }
    if (!(alpha > 1) || Double.isInfinite(alpha)) {
      throw new IllegalArgumentException("PPR needs a finite alpha > 1, got " + alpha);
    }
    if (maxIterations < 1) {
      throw new IllegalArgumentException("iteration cap must be >= 1, got " + maxIterations);
    }
    int bits = proposal.maxBitsPerSample();
    if (bits < 1) {
      throw new IllegalArgumentException("proposal must declare >= 1 bit per sample, got " + bits);
    }
    this.report = report;
    this.alpha = alpha;
    this.maxIterations = maxIterations;
    this.blocksPerSample = (bits + 127) / 128;
    this.seeker = shared.seeker(report);
  }

  /** Returns alpha. */
  public double alpha() {
    return alpha;
  }

  /** Returns the iteration cap. */
  public long maxIterations() {
    return maxIterations;
  }

  /**
   * Returns the shared sample Z_index (the decoder).
   *
   * @throws IllegalArgumentException if index < 1
   */
  public Z decode(long index) {
    if (index < 1) {
      throw new IllegalArgumentException("PPR index must be >= 1, got " + index);
    }
    long first;
    try {
      first = Math.multiplyExact(index - 1, (long) blocksPerSample);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("PPR index " + index + " is too large", e);
    }
    RandomSource s = seeker.at(first, blocksPerSample); // = shared.indexed(report, index - 1, blocksPerSample)
    Z z = proposal.sample(s);
    if (s.bitsConsumed() > 128L * blocksPerSample) {
      throw new IllegalStateException("proposal read " + s.bitsConsumed() + " bits, more than its declared " + proposal.maxBitsPerSample());
    }
    return z;
  }

  /**
   * Encodes one output of {@code target} with the encoder's local randomness {@code local} (the
   * decoder must not know it: the local DP guarantee rests on it).
   *
   * @throws IllegalStateException if the target's log ratio exceeds its declared bound
   */
  public PprEncoding encode(PprTarget<Z> target, RandomSource local) {
    double logBound = target.logRatioBound();
    if (Double.isNaN(logBound) || Double.isInfinite(logBound)) {
      throw new IllegalArgumentException("log density ratio bound must be finite, got " + logBound);
    }
    double a = alpha;
    double u = 0; // time of the last visited point
    long n = 0; // its index
    double logV = Double.POSITIVE_INFINITY; // log of the best T^a E / r^a so far
    long best = 0;
    long visits = 0;
    long evaluations = 0;
    while (true) {
      if (visits >= maxIterations) {
        return new PprEncoding(best, visits, evaluations, true);
      }
      double logc = logV + a * logBound; // c = V r*^a: A-point rate is min(1, c / t^a)
      double t0 = Math.exp(logc / a); // the rate is 1 before t0
      double x = PprSampling.exponential(local);
      double t;
      if (u + x <= t0) {
        t = u + x;
      } else {
        double start = Math.max(u, t0);
        double rest = x - Math.max(0, t0 - u);
        // c/(a-1) (start^(1-a) - t^(1-a)) = rest
        double p1 = (1 - a) * Math.log(start);
        double p2 = Math.log(rest * (a - 1)) - logc;
        if (p2 >= p1) {
          return new PprEncoding(best, visits, evaluations, false); // no A point left: exact
        }
        t = Math.exp((p1 + Math.log(-Math.expm1(p2 - p1))) / (1 - a));
      }
      double bMean = (t - u) - x;
      if (bMean > 0) {
        n = Math.addExact(n, PprSampling.poisson(local, bMean));
      }
      n = Math.addExact(n, 1);
      visits++;
      u = t;
      double logT = Math.log(t);
      double e;
      if (logV == Double.POSITIVE_INFINITY) {
        e = PprSampling.exponential(local);
      } else {
        double xt = Math.exp(logc - a * logT);
        double pCandidate = xt >= 1 ? -Math.expm1(-xt) : -Math.expm1(-xt) / xt;
        if (!(Uniforms.unit(local) < pCandidate)) {
          continue; // E >= c / t^a: this point cannot beat V
        }
        e = PprSampling.truncatedExponential(local, xt);
      }
      evaluations++;
      double lr = target.logRatio(decode(n));
      if (lr > logBound + 1e-9 * Math.max(1, Math.abs(logBound))) {
        throw new IllegalStateException("log density ratio " + lr + " exceeds the declared bound " + logBound);
      }
      if (lr == Double.NEGATIVE_INFINITY) {
        continue;
      }
      double logW = a * logT + Math.log(e) - a * lr;
      if (logW < logV) {
        logV = logW;
        best = n;
      }
    }
  }

  /** Writes the Elias-delta code of the index (what the encoder sends). */
  public static void writeIndex(BitWriter out, long index) {
    EliasCode.DELTA.write(out, index);
  }

  /** Reads an Elias-delta coded index. */
  public static long readIndex(BitReader in) {
    return EliasCode.DELTA.read(in);
  }
}
