package org.priodp.conformance.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** Welch's t and the audit's bookkeeping on synthetic data and a synthetic clock (no timing). */
class TimingAuditTest {

  private static TimingAudit.Moments of(double... xs) {
    TimingAudit.Moments m = new TimingAudit.Moments();
    for (double x : xs) {
      m.add(x);
    }
    return m;
  }

  @Test
  void welchTMatchesHandComputedValues() {
    // means 3 and 8, variances 2.5 and 2.5, n = 5 each: t = -5 / sqrt(0.5 + 0.5) = -5
    assertEquals(-5.0, TimingAudit.welchT(of(1, 2, 3, 4, 5), of(6, 7, 8, 9, 10)), 1e-12);
    // unequal sizes and variances: means 2 and 10, variances 1 and 100/3 (sample), n = 3 and 4
    // t = -8 / sqrt(1/3 + (100/3)/4) = -8 / sqrt(26/3)
    assertEquals(-8 / Math.sqrt(26.0 / 3), TimingAudit.welchT(of(1, 2, 3), of(5, 5, 15, 15)), 1e-12);
    assertEquals(0.0, TimingAudit.welchT(of(4, 4, 4), of(4, 4)));
    assertEquals(Double.POSITIVE_INFINITY, TimingAudit.welchT(of(5, 5), of(4, 4)));
    assertTrue(Double.isNaN(TimingAudit.welchT(of(), of(1, 2))));
  }

  @Test
  void welfordAgreesWithTheTwoPassFormulas() {
    long seed = 0x7A11L;
    System.out.println("welford: seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    double[] xs = new double[10_000];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = 1e9 + rnd.nextInt(1000); // large offset: the naive sum of squares would lose digits
    }
    double mean = java.util.Arrays.stream(xs).average().orElseThrow();
    double var = java.util.Arrays.stream(xs).map(x -> (x - mean) * (x - mean)).sum() / (xs.length - 1);
    TimingAudit.Moments m = of(xs);
    assertEquals(mean, m.mean(), mean * 1e-12);
    assertEquals(var, m.variance(), var * 1e-9);
  }

  @Test
  void cropAndPercentile() {
    long[] times = {10, 20, 30, 40, 1000};
    assertEquals(30, TimingAudit.percentile(times, 0.5));
    assertEquals(1000, TimingAudit.percentile(times, 0.9));
    assertEquals(10, TimingAudit.percentile(times, 0.0));
    boolean[] in1 = {false, true, false, true, true};
    // without the outlier: class 0 = {10, 30}, class 1 = {20, 40}
    assertEquals(TimingAudit.welchT(of(10, 30), of(20, 40)), TimingAudit.welchT(times, in1, 40), 1e-12);
  }

  /** A synthetic target whose "draw" returns a seeded value; the synthetic clock decides its cost. */
  private static TimingAudit.Target synthetic(SplittableRandom rnd, long[] lastKey) {
    return new TimingAudit.Target() {
      @Override
      public String name() {
        return "synthetic";
      }

      @Override
      public void run() {
        lastKey[0] = rnd.nextInt(10);
      }

      @Override
      public long key() {
        return lastKey[0];
      }

      @Override
      public String classify(long[] keys, boolean[] inClass1) {
        return TimingAudit.splitAtMedian(keys, inClass1, "key");
      }
    };
  }

  /**
   * A clock whose readings alternate start/stop; the stop reading adds the cost of the draw just
   * run: 100 to 119 ns, plus the draw's key when {@code leaky}.
   */
  private static LongSupplier syntheticClock(SplittableRandom jitter, long[] key, boolean leaky) {
    long[] now = {0};
    boolean[] afterRun = {false};
    return () -> {
      if (afterRun[0]) {
        now[0] += 100 + jitter.nextInt(20) + (leaky ? key[0] : 0);
      }
      afterRun[0] = !afterRun[0];
      return now[0];
    };
  }

  /**
   * The pipeline flags a target whose cost grows with its output (a deliberately leaky one) and
   * passes one whose cost does not, with a clock that counts synthetic nanoseconds.
   */
  @Test
  void flagsASyntheticLeakAndPassesSyntheticConstantWork() {
    long seed = 0x1EA4L;
    System.out.println("synthetic audit: seed=0x" + Long.toHexString(seed));
    for (boolean leaky : new boolean[] {true, false}) {
      SplittableRandom rnd = new SplittableRandom(seed);
      SplittableRandom jitter = new SplittableRandom(seed + 1);
      long[] key = new long[1];
      LongSupplier clock = syntheticClock(jitter, key, leaky);
      List<TimingAudit.Result> r = TimingAudit.run(List.of(synthetic(rnd, key)), 20_000, 10, 100, clock, seed);
      TimingAudit.Result result = r.get(0);
      System.out.println((leaky ? "leaky" : "constant") + ": t=" + result.t() + " t(<p90)=" + result.tCropped());
      assertEquals(20_000, result.n0() + result.n1());
      assertEquals("key <= 4 vs > 4", result.classes());
      if (leaky) {
        assertTrue(result.leaks(), "a cost growing with the output is flagged: t=" + result.t());
        assertTrue(result.t() < -TimingAudit.THRESHOLD, "small outputs are faster: t=" + result.t());
      } else {
        assertFalse(result.leaks(), "constant work is not flagged: t=" + result.t());
      }
    }
  }

  /**
   * The random-label control: the same leaky synthetic target is flagged when classified by its
   * output and not when classified by a seeded coin, and the control keeps the target's draws.
   */
  @Test
  void randomLabelsHideALeakThatOutputLabelsShow() {
    long seed = 0x1EA5L;
    System.out.println("random-label control: seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    SplittableRandom jitter = new SplittableRandom(seed + 1);
    long[] key = new long[1];
    LongSupplier clock = syntheticClock(jitter, key, true);
    TimingAudit.Target leaky = synthetic(rnd, key);
    TimingAudit.Target control = TimingAudit.randomLabels(leaky, seed + 2);
    assertEquals("synthetic (random labels)", control.name());
    List<TimingAudit.Result> r = TimingAudit.run(List.of(control), 20_000, 10, 100, clock, seed);
    TimingAudit.Result result = r.get(0);
    System.out.println("control: t=" + result.t() + " t(<p90)=" + result.tCropped() + " n0=" + result.n0());
    assertEquals("random labels (control)", result.classes());
    assertFalse(result.leaks(), "random labels cannot separate the classes: t=" + result.t());
    assertTrue(result.n0() > 9_000 && result.n1() > 9_000, "about half each: " + result.n0());
  }

  @Test
  void theStandardTargetsIncludeBothGaussianSamplersAndTheControl() {
    List<String> names = TimingAudit.standardTargets(org.priodp.noise.Rational.of(2),
        List.of(org.priodp.noise.Rational.of(100), org.priodp.noise.Rational.of(1_000_000)),
        new org.priodp.noise.local.KaryRandomizedResponse(4, org.priodp.noise.Rational.ONE),
        org.priodp.noise.local.SymmetricRappor.untruncated(4, org.priodp.noise.Rational.ONE), 1)
        .stream().map(TimingAudit.Target::name).toList();
    assertTrue(names.containsAll(List.of("exact discrete Gaussian s2=100", "hardened discrete Gaussian s2=100",
        "exact discrete Gaussian s2=100 (random labels)", "exact discrete Gaussian s2=1000000",
        "hardened discrete Gaussian s2=1000000")), names.toString());
  }
}
