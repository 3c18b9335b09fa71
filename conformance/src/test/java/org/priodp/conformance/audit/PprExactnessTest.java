package org.priodp.conformance.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.ppr.PprCodec;
import org.priodp.noise.compress.ppr.PprEncoding;
import org.priodp.noise.compress.ppr.PprGuarantees;
import org.priodp.noise.compress.ppr.PprKaryRandomizedResponse;
import org.priodp.noise.compress.ppr.PprProposal;
import org.priodp.noise.compress.ppr.PprTarget;
import org.priodp.noise.local.KaryRandomizedResponse;

/**
 * Exactness of PPR (Proposition 4.2): over 10^5 runs (fresh shared and local randomness each run,
 * fixed printed seeds) the decoded outputs pass a G-test against the simulated distribution, for
 * a one-dimensional Gaussian and for k-ary randomized response, and the mean of log2 K stays
 * below the Theorem 4.3 bound. Negative control: the same codec capped at one iteration (it then
 * returns the first proposal sample, i.e. Q instead of P) must fail the test.
 */
class PprExactnessTest {
  static final int RUNS = 100_000;
  static final double ALPHA = 2;

  record Outcome(long[] samples, double meanLog2K, long capped) {}

  private static <Z> Outcome run(String seed, PprProposal<Z> q, PprTarget<Z> p, long cap,
      java.util.function.ToLongFunction<Z> bin) {
    SharedRandomness shared = SharedRandomness.of(seed.getBytes(StandardCharsets.US_ASCII));
    RandomSource local = new SeededRandomSource(("local-" + seed).getBytes(StandardCharsets.US_ASCII));
    long[] samples = new long[RUNS];
    double sumLog = 0;
    long capped = 0;
    for (int i = 0; i < RUNS; i++) {
      PprCodec<Z> codec = new PprCodec<>(q, shared, i, ALPHA, cap);
      PprEncoding e = codec.encode(p, local);
      if (e.capped()) {
        capped++;
      }
      sumLog += Math.log(e.index()) / Math.log(2);
      samples[i] = bin.applyAsLong(codec.decode(e.index()));
    }
    return new Outcome(samples, sumLog / RUNS, capped);
  }

  static double normalCdf(double x) {
    double q = 0.5 * SpecialFunctions.gammaQ(0.5, x * x / 2);
    return x < 0 ? q : 1 - q;
  }

  /** N(mu, 1) simulated with proposal N(0, s2). */
  static final double MU = 0.7;
  static final double S2 = 2.0;

  static PprProposal<Double> gaussianProposal() {
    return new PprProposal<>() {
      @Override
      public Double sample(RandomSource shared) {
        double u1 = (shared.nextBits(53) + 1) * 0x1.0p-53;
        double u2 = shared.nextBits(53) * 0x1.0p-53;
        return Math.sqrt(S2) * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      }

      @Override
      public int maxBitsPerSample() {
        return 106;
      }
    };
  }

  static PprTarget<Double> gaussianTarget() {
    return new PprTarget<>() {
      @Override
      public double logRatio(Double z) {
        return 0.5 * Math.log(S2) - (z - MU) * (z - MU) / 2 + z * z / (2 * S2);
      }

      @Override
      public double logRatioBound() {
        return 0.5 * Math.log(S2) + MU * MU / (2 * (S2 - 1));
      }
    };
  }

  @Test
  void gaussianOneDimension() {
    // bins of width 1/4 around mu, so the CDF of bin b is Phi((b + 1) / 4)
    java.util.function.ToLongFunction<Double> bin = z -> (long) Math.floor((z - MU) * 4);
    String seed = "ppr-gauss-1";
    Outcome ok = run(seed, gaussianProposal(), gaussianTarget(), 1_000_000, bin);
    GoodnessOfFit g = GoodnessOfFit.test(ok.samples(), b -> normalCdf((b + 1) / 4.0), 60);
    double kl = (0.5 * Math.log(S2) + (1 + MU * MU) / (2 * S2) - 0.5) / Math.log(2);
    double bound = PprGuarantees.expectedLog2IndexBound(kl, ALPHA);
    System.out.printf("PPR N(%.1f,1) via N(0,%.1f): seed=%s G=%.1f df=%d p=%.4f E[log2 K]=%.3f bound=%.3f capped=%d%n",
        MU, S2, seed, g.g(), g.degreesOfFreedom(), g.pValue(), ok.meanLog2K(), bound, ok.capped());
    assertTrue(g.pValue() > 1e-4, g.toString());
    assertTrue(ok.meanLog2K() <= bound, ok.meanLog2K() + " > " + bound);
    assertTrue(ok.capped() == 0);
    // negative control: capped at one point the output is the first proposal sample, N(0, 2)
    Outcome bad = run(seed + "-cap1", gaussianProposal(), gaussianTarget(), 1, bin);
    GoodnessOfFit gb = GoodnessOfFit.test(bad.samples(), b -> normalCdf((b + 1) / 4.0), 60);
    System.out.printf("negative control (cap 1): G=%.1f p=%.3g capped=%d%n", gb.g(), gb.pValue(), bad.capped());
    assertTrue(gb.pValue() < 1e-6, gb.toString());
    assertTrue(bad.capped() == RUNS);
  }

  @Test
  void karyRandomizedResponse() {
    KaryRandomizedResponse rr = new KaryRandomizedResponse(5, Rational.of(3, 2));
    PprKaryRandomizedResponse ppr = new PprKaryRandomizedResponse(rr);
    int x = 2;
    String seed = "ppr-krr-1";
    Outcome ok = run(seed, ppr.proposal(), ppr.target(x), 1_000_000, z -> z);
    GoodnessOfFit g = GoodnessOfFit.test(ok.samples(), b -> cdf(ppr, x, b), 10);
    double bound = PprGuarantees.expectedLog2IndexBound(ppr.klBits(), ALPHA);
    System.out.printf("PPR 5-RR eps=3/2 x=%d: seed=%s G=%.2f df=%d p=%.4f E[log2 K]=%.3f bound=%.3f capped=%d%n", x, seed,
        g.g(), g.degreesOfFreedom(), g.pValue(), ok.meanLog2K(), bound, ok.capped());
    assertTrue(g.pValue() > 1e-4, g.toString());
    assertTrue(ok.meanLog2K() <= bound);
    Outcome bad = run(seed + "-cap1", ppr.proposal(), ppr.target(x), 1, z -> z);
    GoodnessOfFit gb = GoodnessOfFit.test(bad.samples(), b -> cdf(ppr, x, b), 10);
    System.out.printf("negative control (cap 1): G=%.1f p=%.3g%n", gb.g(), gb.pValue());
    assertTrue(gb.pValue() < 1e-6, gb.toString());
  }

  private static double cdf(PprKaryRandomizedResponse ppr, int x, long b) {
    double s = 0;
    for (int y = 0; y <= Math.min(b, ppr.randomizer().k() - 1); y++) {
      s += Math.exp(ppr.logProbability(x, y));
    }
    return b < 0 ? 0 : Math.min(1, s);
  }
}
