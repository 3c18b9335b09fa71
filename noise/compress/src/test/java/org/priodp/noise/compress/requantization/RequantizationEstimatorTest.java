package org.priodp.noise.compress.requantization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;

class RequantizationEstimatorTest {

  private record Trials(double meanEstimate, double meanStatedVariance, double empiricalVariance, double naiveMean) {}

  /** Runs `trials` collections of n readings from N(10, 2) (fixed inputs), returning the estimates' summary. */
  private static Trials simulate(RequantizationChannel c, int n, int trials, long seed, double[] truth) {
    return simulate(c, c, n, trials, seed, truth);
  }

  /** As above, but the reports come from channel c and the collector assumes channel assumed. */
  private static Trials simulate(RequantizationChannel c, RequantizationChannel assumed, int n, int trials, long seed,
      double[] truth) {
    Random data = new Random(seed);
    RandomSource rnd = RequantizationFixtures.seeded(seed);
    double[] readings = new double[n];
    double t = 0;
    for (int u = 0; u < n; u++) {
      readings[u] = 10 + 2 * data.nextGaussian();
      t += c.input().quantize(readings[u]);
    }
    truth[0] = t / n;
    RequantizationEstimator est = RequantizationEstimator.of(assumed);
    double sum = 0;
    double sum2 = 0;
    double var = 0;
    double naive = 0;
    for (int r = 0; r < trials; r++) {
      double[] counts = new double[c.outputSize()];
      for (double x : readings) {
        counts[c.randomize(x, rnd)]++;
      }
      RequantizationEstimator.Estimate e = est.mean(counts, n, 0);
      sum += e.value();
      sum2 += e.value() * e.value();
      var += e.variance();
      double nv = 0;
      for (int j = 0; j < counts.length; j++) {
        nv += counts[j] * c.output().level(j);
      }
      naive += nv / n;
    }
    double m = sum / trials;
    return new Trials(m, var / trials, sum2 / trials - m * m, naive / trials);
  }

  @Test
  void meanEstimateIsUnbiasedWithinItsStatedVariance() {
    // At delta = 0.25 the ratio-1 channel uses all 16 outputs and is invertible (epsilon ~ 7.1).
    RequantizationChannel c = RequantizationFixtures.designer(4).design(0.25).channel();
    int trials = 400;
    double[] truth = new double[1];
    Trials t = simulate(c, 300, trials, 424242, truth);
    double se = Math.sqrt(t.meanStatedVariance() / trials);
    System.out.println("truth " + truth[0] + " mean of estimates " + t.meanEstimate() + " se " + se
        + " stated var " + t.meanStatedVariance() + " empirical var " + t.empiricalVariance() + " naive " + t.naiveMean());
    assertTrue(est(c).mean(new double[c.outputSize()], 1, 0).biasBound() < 1e-9);
    assertTrue(Math.abs(t.meanEstimate() - truth[0]) < 4 * se, "bias " + (t.meanEstimate() - truth[0]) + " vs se " + se);
    // The stated variance matches the empirical variance over the 400 collections (the chi-square
    // spread of a 400-sample variance is about +-7%, 3 sigma ~ 21%).
    assertEquals(1.0, t.empiricalVariance() / t.meanStatedVariance(), 0.25);
    // Negative control: reports from another channel (delta = 2, epsilon ~ 4.1) debiased as if
    // they came from this one must fail the same test.
    RequantizationChannel other = RequantizationFixtures.designer(4).design(2.0).channel();
    Trials wrong = simulate(other, c, 300, 100, 424242, truth);
    double seWrong = Math.sqrt(wrong.meanStatedVariance() / 100);
    System.out.println("negative control: mean of estimates " + wrong.meanEstimate() + " se " + seWrong);
    assertTrue(Math.abs(wrong.meanEstimate() - truth[0]) > 4 * seWrong, "negative control passed");
  }

  private static RequantizationEstimator est(RequantizationChannel c) {
    return RequantizationEstimator.of(c);
  }

  @Test
  void compressedChannelBiasIsWithinItsBound() {
    RequantizationChannel c = RequantizationFixtures.designer(2).design(4.0).channel();
    RequantizationEstimator est = RequantizationEstimator.of(c);
    int trials = 200;
    double[] truth = new double[1];
    Trials t = simulate(c, 300, trials, 777, truth);
    double bound = est.mean(new double[] {1, 1, 1, 1}, 4, 0).biasBound();
    double se = Math.sqrt(t.meanStatedVariance() / trials);
    System.out.println("bias bound " + bound + " observed bias " + (t.meanEstimate() - truth[0]) + " se " + se);
    assertTrue(bound > 0);
    assertTrue(Math.abs(t.meanEstimate() - truth[0]) < bound + 4 * se);
  }

  @Test
  void distributionEstimateInvertsASquareChannel() {
    LloydMaxQuantizer in = LloydMaxQuantizer.of(0, 1);
    RequantizationChannel c = RequantizationChannel.of(in, in, new long[][] {{3, 1}, {1, 3}}, 4);
    RequantizationEstimator est = RequantizationEstimator.of(c);
    // 100 reports with true fractions (0.25, 0.75) give expected counts (37.5, 62.5).
    RequantizationEstimator.Estimate[] p = est.distribution(new double[] {37.5, 62.5}, 100, 0);
    assertEquals(0.25, p[0].value(), 1e-12);
    assertEquals(0.75, p[1].value(), 1e-12);
    assertEquals(0.75, est.mean(new double[] {37.5, 62.5}, 100, 0).value(), 1e-12);
    assertTrue(est.mean(new double[] {37.5, 62.5}, 100, 0).biasBound() < 1e-12);
    // Central noise adds its variance times sum w^2 / n^2.
    double extra = est.mean(new double[] {37.5, 62.5}, 100, 4).variance() - est.mean(new double[] {37.5, 62.5}, 100, 0).variance();
    double[] w = est.meanWeights();
    assertEquals(4 * (w[0] * w[0] + w[1] * w[1]) / 10_000, extra, 1e-12);
  }

  @Test
  void rejectsBadInput() {
    LloydMaxQuantizer in = LloydMaxQuantizer.of(0, 1);
    RequantizationChannel flat = RequantizationChannel.of(in, in, new long[][] {{1, 1}, {1, 1}}, 2);
    assertThrows(IllegalArgumentException.class, () -> RequantizationEstimator.of(flat).distribution(new double[] {1, 1}, 2, 0));
    RequantizationChannel c = RequantizationChannel.of(in, in, new long[][] {{3, 1}, {1, 3}}, 4);
    RequantizationEstimator est = RequantizationEstimator.of(c);
    assertThrows(IllegalArgumentException.class, () -> est.mean(new double[] {1}, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> est.mean(new double[] {1, 1}, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> est.mean(new double[] {1, 1}, 2, -1));
  }
}
