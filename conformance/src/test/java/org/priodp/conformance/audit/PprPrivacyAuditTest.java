package org.priodp.conformance.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.ppr.PprCodec;
import org.priodp.noise.compress.ppr.PprGuarantees;
import org.priodp.noise.compress.ppr.PprKaryRandomizedResponse;
import org.priodp.noise.compress.ppr.PprTarget;
import org.priodp.noise.local.KaryRandomizedResponse;

/**
 * Local privacy of PPR (Theorem 4.5): k-RR with epsilon = 1/2 simulated by PPR with alpha = 2,
 * with the shared randomness fixed, run many times on inputs 0 and 1 with fresh local
 * randomness. For every index value K the Clopper-Pearson bounds (alpha = 1e-7 each) give a lower
 * bound on |log P[K | 0] / P[K | 1]|, which must stay at most 2 alpha epsilon = 2, on several
 * shared seeds. Negative control: plain channel simulation (the Poisson functional
 * representation, K = argmin T_k / r(Z_k), with T fixed by the shared seed and no local
 * randomness) is deterministic given the shared randomness and must be caught.
 */
class PprPrivacyAuditTest {
  static final int N = 60_000;
  static final double CP_ALPHA = 1e-7;
  static final double ALPHA = 2;
  static final KaryRandomizedResponse RR = new KaryRandomizedResponse(4, Rational.of(1, 2));
  static final PprKaryRandomizedResponse PPR = new PprKaryRandomizedResponse(RR);
  static final double BUDGET = PprGuarantees.localEpsilon(0.5, ALPHA);

  /** The largest lower bound on |log ratio| of the frequencies of one index value. */
  static double auditedEpsilon(IntToLongFunction onZero, IntToLongFunction onOne) {
    Map<Long, long[]> counts = new HashMap<>();
    for (int i = 0; i < N; i++) {
      counts.computeIfAbsent(onZero.applyAsLong(i), k -> new long[2])[0]++;
      counts.computeIfAbsent(onOne.applyAsLong(i), k -> new long[2])[1]++;
    }
    double worst = 0;
    for (long[] c : counts.values()) {
      double a = ClopperPearson.lower(c[0], N, CP_ALPHA) / ClopperPearson.upper(c[1], N, CP_ALPHA);
      double b = ClopperPearson.lower(c[1], N, CP_ALPHA) / ClopperPearson.upper(c[0], N, CP_ALPHA);
      worst = Math.max(worst, Math.log(Math.max(Math.max(a, b), 1e-300)));
    }
    return worst;
  }

  @Test
  void pprStaysWithinTwoAlphaEpsilon() {
    for (String seed : new String[] {"audit-a", "audit-b", "audit-c"}) {
      SharedRandomness shared = SharedRandomness.of(seed.getBytes(StandardCharsets.US_ASCII));
      PprCodec<Integer> codec = new PprCodec<>(PPR.proposal(), shared, 0, ALPHA, 1_000_000);
      RandomSource local = new SeededRandomSource(("local-" + seed).getBytes(StandardCharsets.US_ASCII));
      PprTarget<Integer> t0 = PPR.target(0);
      PprTarget<Integer> t1 = PPR.target(1);
      double eps = auditedEpsilon(i -> codec.encode(t0, local).index(), i -> codec.encode(t1, local).index());
      System.out.printf("PPR 4-RR eps=1/2 alpha=2: shared seed=%s audited epsilon lower bound %.3f (budget %.1f)%n", seed,
          eps, BUDGET);
      assertTrue(eps <= BUDGET, seed + ": " + eps);
      assertTrue(eps > 0.2, "audit too weak to see any privacy loss: " + eps);
    }
  }

  @Test
  void channelSimulationWithoutLocalRandomnessIsCaught() {
    // the broken encoder is deterministic given the shared randomness; on a shared seed where it
    // answers differently for inputs 0 and 1, the audit sees frequencies N and 0
    int caught = 0;
    int seeds = 60;
    for (int j = 0; j < seeds; j++) {
      String seed = "control-" + j;
      SharedRandomness shared = SharedRandomness.of(seed.getBytes(StandardCharsets.US_ASCII));
      PprCodec<Integer> codec = new PprCodec<>(PPR.proposal(), shared, 0, ALPHA, 1);
      // shared arrival times T_1 < ... < T_200 (fixed by the shared seed)
      RandomSource tSource = new SeededRandomSource(("times-" + seed).getBytes(StandardCharsets.US_ASCII));
      double[] times = new double[200];
      double t = 0;
      for (int k = 0; k < times.length; k++) {
        t += -Math.log((tSource.nextBits(53) + 1) * 0x1.0p-53);
        times[k] = t;
      }
      long k0 = argmin(codec, times, PPR.target(0));
      long k1 = argmin(codec, times, PPR.target(1));
      double eps = auditedEpsilon(i -> k0, i -> k1);
      if (eps > BUDGET) {
        caught++;
      }
    }
    System.out.printf("negative control caught on %d of %d shared seeds%n", caught, seeds);
    assertTrue(caught >= 3, "broken encoder caught on only " + caught + " of " + seeds + " shared seeds");
  }

  private static long argmin(PprCodec<Integer> codec, double[] times, PprTarget<Integer> target) {
    long best = 1;
    double bestV = Double.POSITIVE_INFINITY;
    for (int k = 1; k <= times.length; k++) {
      double v = Math.log(times[k - 1]) - target.logRatio(codec.decode(k));
      if (v < bestV) {
        bestV = v;
        best = k;
      }
    }
    return best;
  }
}
