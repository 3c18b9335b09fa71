package org.priodp.conformance.vdaf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.priodp.conformance.audit.PrivacyAudit;
import org.priodp.field.FieldVector;
import org.priodp.field.PrimeField;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpUnsharder;
import org.priodp.vdaf.dp.UnshardResult;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * Privacy audit of the whole adapter path (papers/prio3-pure-dp-discrete-laplace.txt,
 * Theorem 4): two neighbouring datasets of measurements are aggregated, the aggregate is
 * secret-shared in the field, the honest aggregator (leader) noises its encoded share with
 * {@code addNoiseToAggShare}, the other aggregator adds nothing (the paper's pessimistic case:
 * only one honest aggregator), the collector unshards and lifts, and
 * {@link PrivacyAudit} bounds epsilon from below over many runs (Clopper-Pearson, alpha 1e-6).
 *
 * <p>The statistic is the post-processing s = min over the changed coordinates of the signed
 * distance towards the neighbour, so that {s >= k} is the product of tail events on which the
 * privacy loss of the discrete Laplace reaches epsilon exactly: a correct mechanism gives a
 * bound just below epsilon, and one calibrated to a too-small sensitivity is caught.
 */
class AdapterPrivacyAuditTest {
  static final int RUNS = 200_000;
  static final double ALPHA = 1e-6;

  /**
   * Runs the whole path RUNS times on the aggregate {@code truth} and returns s = min_j
   * direction_j * (estimate_j - reference_j) over the coordinates j where direction_j != 0.
   */
  static long[] outputs(Prio3DpMechanism honest, long reports, long[] truth, long[] reference, int[] direction,
      SplittableRandom masks, RandomSource rnd) {
    Prio3Variant v = honest.variant();
    PrimeField f = v.field();
    DpUnsharder collector = DpUnsharder.of(honest);
    FieldVector aggregate = FieldVector.fromSigned(f, truth);
    long[] out = new long[RUNS];
    for (int run = 0; run < RUNS; run++) {
      long[] m = new long[truth.length * f.words()];
      for (int i = 0; i < m.length; i++) {
        m[i] = masks.nextLong();
      }
      // a uniform-enough mask: reduce each element mod p
      BigInteger[] maskValues = new BigInteger[truth.length];
      for (int i = 0; i < truth.length; i++) {
        maskValues[i] = (f.words() == 1 ? BigInteger.valueOf(m[i]) : BigInteger.valueOf(m[2 * i]).shiftLeft(64)
            .add(BigInteger.valueOf(m[2 * i + 1]))).mod(f.modulus());
      }
      FieldVector leaderShare = FieldVector.of(f, maskValues);
      FieldVector helperShare = aggregate.sub(leaderShare);
      byte[] leader = honest.addNoiseToAggShare(leaderShare.encode(), rnd);
      byte[] helper = helperShare.encode(); // the other aggregator adds no noise
      UnshardResult r = collector.unshard(List.of(leader, helper), reports);
      long s = Long.MAX_VALUE;
      for (int j = 0; j < truth.length; j++) {
        if (direction[j] != 0) {
          s = Math.min(s, direction[j] * (r.estimates().get(j).longValueExact() - reference[j]));
        }
      }
      out[run] = s;
    }
    return out;
  }

  static PrivacyAudit audit(String what, Prio3DpMechanism honest, long reports, long[] truthX, long[] truthNeighbour,
      long shift, long[] thresholds, long seed) {
    int[] direction = new int[truthX.length];
    for (int j = 0; j < truthX.length; j++) {
      direction[j] = Long.signum(truthNeighbour[j] - truthX[j]);
    }
    SplittableRandom masks = new SplittableRandom(seed);
    RandomSource rnd = SeededRandomSource.fromHex(String.format("%016x", seed));
    long start = System.nanoTime();
    long[] a = outputs(honest, reports, truthX, truthX, direction, masks, rnd);
    long[] b = outputs(honest, reports, truthNeighbour, truthX, direction, masks, rnd);
    PrivacyAudit r = PrivacyAudit.run(a, b, thresholds, ALPHA);
    System.out.printf("%s: seed=%016x shift=%d epsilon lower bound %.4f (threshold %d), %d runs in %.1f s%n",
        what, seed, shift, r.epsilonLowerBound(), r.bestThreshold(), RUNS, (System.nanoTime() - start) / 1e9);
    return r;
  }

  // ------------------------------------------------------------------ Prio3Histogram

  /** 20 bucket indices in [0, 4); the neighbour replaces the first measurement (bucket 0) by bucket 1. */
  static long[][] histogramAggregates() {
    SplittableRandom r = new SplittableRandom(7);
    int[] x = new int[20];
    for (int i = 1; i < x.length; i++) {
      x[i] = r.nextInt(4);
    }
    int[] y = x.clone();
    y[0] = 1;
    return new long[][] {oneHotSum(x, 4), oneHotSum(y, 4)};
  }

  static long[] oneHotSum(int[] buckets, int length) {
    long[] sum = new long[length];
    for (int b : buckets) {
      sum[b]++;
    }
    return sum;
  }

  static PrivacyAudit histogram(String what, DpStrategy strategy, long seed) {
    long[][] q = histogramAggregates();
    Prio3DpMechanism m = Prio3DpMechanism.of(new Prio3Variant.Histogram(4, 2), strategy);
    // s shifts by 1 between the datasets; tails P[s >= k] = (P[Z >= k])^2 for k >= 1
    return audit(what, m, 20, q[0], q[1], 1, new long[] {2, 3, 4}, seed);
  }

  @Test
  void histogramStaysAtOrBelowEpsilon() {
    PrivacyAudit r = histogram("Prio3Histogram(4) eps=1", DpStrategy.PureDpDiscreteLaplace.parse("1"), 0x4157_0001L);
    assertTrue(r.epsilonLowerBound() <= 1.0, r.toString());
  }

  /** Negative control: noise calibrated to sensitivity 1 (as for Count) instead of 2 is caught. */
  @Test
  void histogramWithTooSmallSensitivityIsCaught() {
    // scale 1/epsilon = the scale PureDpDiscreteLaplace(2 epsilon) gives for the true sensitivity 2
    PrivacyAudit r = histogram("Prio3Histogram(4) scale from GS=1 audited at eps=1",
        DpStrategy.PureDpDiscreteLaplace.parse("2"), 0x4157_0002L);
    assertTrue(r.epsilonLowerBound() > 1.0, r.toString());
  }

  // ------------------------------------------------------------------ Prio3SumVec

  static final BigInteger SUMVEC_MAX = BigInteger.valueOf(5);

  /** 10 vectors in [0, 5]^3; the neighbour replaces the first (all 0) by all 5 (L1 distance 15 = GS). */
  static long[][] sumVecAggregates() {
    SplittableRandom r = new SplittableRandom(11);
    long[] x = new long[3];
    for (int i = 1; i < 10; i++) {
      for (int j = 0; j < 3; j++) {
        x[j] += r.nextInt(6);
      }
    }
    long[] y = x.clone();
    for (int j = 0; j < 3; j++) {
      y[j] += SUMVEC_MAX.longValueExact();
    }
    return new long[][] {x, y};
  }

  static PrivacyAudit sumVec(String what, DpStrategy strategy, long seed) {
    long[][] q = sumVecAggregates();
    Prio3DpMechanism m = Prio3DpMechanism.of(Prio3Variant.SumVec.of(3, SUMVEC_MAX, 3), strategy);
    // scale 15/epsilon; s shifts by 5; P[s >= k] = (P[Z >= k])^3
    long t = 15; // the scale at epsilon = 1
    return audit(what, m, 10, q[0], q[1], 5, new long[] {6, 6 + t / 3, 6 + 2 * t / 3}, seed);
  }

  @Test
  void sumVecStaysAtOrBelowEpsilon() {
    PrivacyAudit r = sumVec("Prio3SumVec(3, max 5) eps=1", DpStrategy.PureDpDiscreteLaplace.parse("1"), 0x4157_0003L);
    assertTrue(r.epsilonLowerBound() <= 1.0, r.toString());
  }

  /** Negative control: noise calibrated to max_measurement (forgetting the length) is caught. */
  @Test
  void sumVecWithTooSmallSensitivityIsCaught() {
    // scale 5/epsilon = the scale PureDpDiscreteLaplace(3 epsilon) gives for the true sensitivity 15
    PrivacyAudit r = sumVec("Prio3SumVec(3, max 5) scale from GS=5 audited at eps=1",
        DpStrategy.PureDpDiscreteLaplace.parse("3"), 0x4157_0004L);
    assertTrue(r.epsilonLowerBound() > 1.0, r.toString());
  }
}
