package org.priodp.noise.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.priodp.noise.Accuracy;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

/**
 * Unbiasedness and variance of the collector's estimators, by simulation with fixed seeds: R
 * repetitions of n reports each; the mean of the estimates must lie within 5 standard errors of
 * the truth, and the empirical variance within [0.75, 1.33] of the stated variance (for R = 400
 * the relative standard error of a sample variance is about 0.07). Also the lecture's Claim 3 and
 * Theorem 5 for RR, and negative controls (a biased estimator, a wrong variance).
 */
class LocalEstimatorTest {
  static final int R = 400;

  /** Mean and variance of R simulated estimates of the count of value 0 among n clients. */
  record Simulated(double mean, double variance) {}

  /**
   * Simulates R batches: client i has true value truth(i); the estimator debiases the observed
   * count of coordinate 0, optionally with two discrete Laplace noises added (central noise).
   */
  static Simulated simulate(String seedHex, int n, IntUnaryOperator reportHasZero, LocalEstimator est,
      DiscreteLaplace central) {
    SeededRandomSource rnd = SeededRandomSource.fromHex(seedHex);
    System.out.println("seed " + rnd.seedHex());
    double sum = 0;
    double sumSq = 0;
    for (int r = 0; r < R; r++) {
      long observed = 0;
      for (int i = 0; i < n; i++) {
        observed += reportHasZero.applyAsInt(i);
      }
      if (central != null) {
        observed += central.sample(rnd) + central.sample(rnd);
      }
      double c = est.estimateCount(observed, n);
      sum += c;
      sumSq += c * c;
    }
    double mean = sum / R;
    return new Simulated(mean, (sumSq - R * mean * mean) / (R - 1));
  }

  static void assertUnbiasedWithVariance(String what, Simulated s, double truth, double variance) {
    double se = Math.sqrt(variance / R);
    System.out.printf("%s: mean %.3f (truth %.3f, se %.3f), variance %.2f (stated %.2f, ratio %.3f)%n",
        what, s.mean(), truth, se, s.variance(), variance, s.variance() / variance);
    assertTrue(Math.abs(s.mean() - truth) <= 5 * se, what + ": biased, mean " + s.mean() + " vs " + truth);
    double ratio = s.variance() / variance;
    assertTrue(ratio > 0.75 && ratio < 1.33, what + ": empirical/stated variance " + ratio);
  }

  @ParameterizedTest
  @CsvSource({"1, 500, 150", "1/2, 500, 400", "3, 300, 0"})
  void randomizedResponseEstimatorIsUnbiasedWithItsVariance(String eps, int n, int ones) {
    RandomizedResponse rr = RandomizedResponse.ofEpsilon(Rational.parse(eps));
    LocalEstimator est = rr.estimator();
    SeededRandomSource rnd = SeededRandomSource.fromHex(String.format("01%04x", n));
    // coordinate "0" of the estimator is the bit value 1: count the reported ones
    Simulated s = simulate(String.format("02%04x", ones), n, i -> rr.randomize(i < ones ? 1 : 0, rnd), est, null);
    assertUnbiasedWithVariance("RR eps=" + eps, s, ones, est.countVariance(ones, n, 0));
  }

  @ParameterizedTest
  @CsvSource({"4, 1, 500, 200", "10, 2, 400, 40"})
  void karyEstimatorIsUnbiasedWithItsVariance(int k, String eps, int n, int zeros) {
    KaryRandomizedResponse krr = new KaryRandomizedResponse(k, Rational.parse(eps));
    LocalEstimator est = krr.estimator();
    SeededRandomSource rnd = SeededRandomSource.fromHex(String.format("03%02x", k));
    Simulated s = simulate("04", n, i -> krr.randomize(i < zeros ? 0 : 1 + i % (k - 1), rnd) == 0 ? 1 : 0, est, null);
    assertUnbiasedWithVariance(k + "-RR eps=" + eps, s, zeros, est.countVariance(zeros, n, 0));
  }

  @ParameterizedTest
  @CsvSource({"8, 2, 8, 300, 100", "8, 2, 3, 300, 100", "16, 4, 2, 200, 20"})
  void rapporEstimatorIsUnbiasedWithItsVarianceIncludingTruncation(int length, String eps, int maxWeight, int n,
      int zeros) {
    SymmetricRappor r = new SymmetricRappor(length, Rational.parse(eps), maxWeight);
    LocalEstimator est = r.estimator();
    SeededRandomSource rnd = SeededRandomSource.fromHex(String.format("05%02x", maxWeight));
    Simulated s = simulate("06", n, i -> r.randomize(i < zeros ? 0 : 1 + i % (length - 1), rnd)[0] ? 1 : 0, est, null);
    assertUnbiasedWithVariance("RAPPOR L=" + length + " eps=" + eps + " w=" + maxWeight, s, zeros,
        est.countVariance(zeros, n, 0));
  }

  @Test
  void centralNoiseKeepsTheEstimatorUnbiasedAndAddsItsVariance() {
    KaryRandomizedResponse krr = new KaryRandomizedResponse(4, Rational.ONE);
    LocalEstimator est = krr.estimator();
    DiscreteLaplace central = DiscreteLaplace.of(Rational.of(20)); // large next to the local noise
    double v = 2 * Accuracy.laplaceVariance(central.scale());
    SeededRandomSource rnd = SeededRandomSource.fromHex("07");
    Simulated s = simulate("08", 300, i -> krr.randomize(i % 4, rnd) == 0 ? 1 : 0, est, central);
    assertUnbiasedWithVariance("4-RR + 2 x DLap(20)", s, 75, est.countVariance(75, 300, v));
  }

  /** Lecture Claim 3 (with the lecture's p the probability of the truth) and Theorem 5 for RR. */
  @Test
  void lectureClaim3AndTheorem5ForRandomizedResponse() {
    Rational p = Rational.of(1, 4);
    RandomizedResponse rr = RandomizedResponse.ofFlipProbability(p);
    LocalEstimator est = rr.estimator();
    int n = 200;
    double pd = 0.25;
    // Claim 3: b^ = (mean - p)/(1 - 2p) with our flip probability p
    assertEquals((0.4 - pd) / (1 - 2 * pd), est.estimateMean(0.4 * n, n), 1e-12);
    // Theorem 5's half-width sqrt(1/delta)/(2 (1 - 2p) sqrt(n)) and variance bound 1/(4 (1-2p)^2 n)
    double delta = 0.1;
    double bound = est.meanHalfWidth(n, delta);
    assertEquals(Math.sqrt(1 / delta) / (2 * (1 - 2 * pd) * Math.sqrt(n)), bound, 1e-12);
    assertTrue(est.countVarianceBound(n, 0) / ((double) n * n) <= 1 / (4 * (1 - 2 * pd) * (1 - 2 * pd) * n));
    // with probability >= 1 - delta the estimate is within the bound: count misses over 2000 trials
    SeededRandomSource rnd = SeededRandomSource.fromHex("09");
    int trials = 2000;
    int misses = 0;
    double truth = 0.3;
    for (int t = 0; t < trials; t++) {
      long ones = 0;
      for (int i = 0; i < n; i++) {
        ones += rr.randomize(i < truth * n ? 1 : 0, rnd);
      }
      if (Math.abs(est.estimateMean(ones, n) - truth) > bound) {
        misses++;
      }
    }
    System.out.println("Theorem 5: " + misses + " of " + trials + " beyond the bound " + bound + " (delta " + delta + ")");
    assertTrue(misses <= delta * trials, misses + " misses");
  }

  // ------------------------------------------------------------------ negative controls

  @Test
  void catchesAnEstimatorThatForgetsTheFalsePositives() {
    KaryRandomizedResponse krr = new KaryRandomizedResponse(4, Rational.ONE);
    LocalEstimator right = krr.estimator();
    LocalEstimator wrong = new LocalEstimator(right.a(), 0); // c^ = Y/a
    SeededRandomSource rnd = SeededRandomSource.fromHex("0a");
    Simulated s = simulate("0b", 500, i -> krr.randomize(i % 4, rnd) == 0 ? 1 : 0, wrong, null);
    double se = Math.sqrt(right.countVariance(125, 500, 0) / R);
    assertTrue(Math.abs(s.mean() - 125) > 5 * se, "the biased estimator passed: mean " + s.mean());
  }

  @Test
  void catchesAVarianceThatIgnoresTruncation() {
    // the untruncated constants a = 1 - f, b = f used on truncated reports: biased, caught
    SymmetricRappor r = new SymmetricRappor(16, Rational.of(4), 2);
    LocalEstimator untruncated = SymmetricRappor.untruncated(16, Rational.of(4)).estimator();
    SeededRandomSource rnd = SeededRandomSource.fromHex("0c");
    Simulated s = simulate("0d", 200, i -> r.randomize(i < 20 ? 0 : 1 + i % 15, rnd)[0] ? 1 : 0, untruncated, null);
    double se = Math.sqrt(r.estimator().countVariance(20, 200, 0) / R);
    assertTrue(Math.abs(s.mean() - 20) > 5 * se, "untruncated constants passed on truncated reports: " + s.mean());
  }

  @Test
  void rejectsUselessParameters() {
    assertThrows(IllegalArgumentException.class, () -> new LocalEstimator(0.5, 0.5));
    assertThrows(IllegalArgumentException.class,
        () -> RandomizedResponse.ofFlipProbability(Rational.of(1, 2)).estimator());
    LocalEstimator e = RandomizedResponse.ofEpsilon(Rational.ONE).estimator();
    assertThrows(IllegalArgumentException.class, () -> e.estimateCount(3, 0));
    assertThrows(IllegalArgumentException.class, () -> e.meanHalfWidth(10, 0));
    assertThrows(IllegalArgumentException.class, () -> e.countVariance(11, 10, 0));
  }

  @Test
  void rapporConstantsWithoutTruncationAreTheFlipProbabilities() {
    SymmetricRappor r = SymmetricRappor.untruncated(5, Rational.of(2));
    double f = 1 / (1 + Math.E);
    assertEquals(1 - f, r.estimator().a(), 1e-12);
    assertEquals(f, r.estimator().b(), 1e-12);
    assertEquals(1, LocalEstimator.rapporAcceptance(r), 1e-12);
    // truncation to weight 1 of length 2, bucket 0: accept {00, 10, 01}; a = P[10]/P[A], b = P[01]/P[A]
    SymmetricRappor t = new SymmetricRappor(2, Rational.of(2), 1);
    double acc = 1 - (1 - f) * f; // all but {11}
    assertEquals(acc, LocalEstimator.rapporAcceptance(t), 1e-12);
    assertEquals((1 - f) * (1 - f) / acc, t.estimator().a(), 1e-12);
    assertEquals(f * f / acc, t.estimator().b(), 1e-12);
  }
}
