package org.priodp.noise.compress.dql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.noise.RandomSource;

class DqlLevelTest {

  /** f_t(y) = (1/delta) sum_k a_k tri(y/delta - k). */
  static double density(DqlLevel level, double y) {
    return level.descriptionProbability(0, -y, 0) / level.delta();
  }

  @ParameterizedTest
  @ValueSource(doubles = {1.01, 1.5, 2, 5, 20})
  void theMixtureOfTheComponentsIsTheLaplaceDensity(double ell) {
    // sum_t P(T = t) f_t(y) = e^-|y| / 2 (Fig. 2, Proposition 6)
    DqlMixture m = DqlMixture.of(ell);
    for (double y : new double[] {0, 0.1, 0.37, -0.5, 1, 2.5, -3.3, 7.25, -12, 30}) {
      double sum = 0;
      for (int t = 0; t <= m.maxLevel(); t++) {
        sum += m.probability(t) * density(m.level(t), y);
      }
      double want = Math.exp(-Math.abs(y)) / 2;
      assertEquals(want, sum, 1e-12 * want + 1e-15, "ell " + ell + ", y " + y);
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {1.01, 1.5, 2, 5, 20})
  void everyComponentHasLemma5ConstantEll(double ell) {
    // Lemma 5: max over neighbours (a_j / a_i - 1) / delta; the proof of Theorem 7 makes it ell exactly
    DqlMixture m = DqlMixture.of(ell);
    for (int t = 0; t <= m.maxLevel(); t += (t < 6 ? 1 : 7)) {
      DqlLevel level = m.level(t);
      assertTrue(level.evenPositive() > 0 && level.evenNegative() > 0 && level.odd() > 0);
      double sum = 0;
      double worst = 0;
      for (long k = -60; k <= 60; k++) {
        sum += level.a(k);
        worst = Math.max(worst, (level.a(k) / level.a(k + 1) - 1) / level.delta());
        worst = Math.max(worst, (level.a(k + 1) / level.a(k) - 1) / level.delta());
      }
      // (a_j / a_i - 1) / delta is evaluated with an absolute error of a few ulps / delta
      double slack = 1e-9 * ell + 1e-15 / level.delta();
      assertTrue(worst <= ell + slack, "ell " + ell + " t " + t + ": " + worst);
      assertTrue(worst >= ell - slack, "ell " + ell + " t " + t + " is not tight: " + worst);
      if (level.delta() > 0.5) {
        assertEquals(1, sum, 1e-9);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 3})
  void sampledVerticesFollowA(int t) {
    long seed = 0xD0L + t;
    System.out.println("sampledVerticesFollowA: seed=" + seed);
    DqlLevel level = DqlMixture.of(2).level(t);
    RandomSource rnd = RandomSource.seeded(java.nio.ByteBuffer.allocate(8).putLong(seed).array());
    int n = 300_000;
    int span = 40;
    long[] counts = new long[2 * span + 1];
    for (int i = 0; i < n; i++) {
      long k = level.sampleVertex(rnd);
      if (Math.abs(k) <= span) {
        counts[(int) k + span]++;
      }
    }
    for (int k = -span; k <= span; k++) {
      double e = n * level.a(k);
      assertTrue(Math.abs(counts[k + span] - e) <= 6 * Math.sqrt(e) + 2, "t " + t + " k " + k + ": " + counts[k + span] + " vs " + e);
    }
  }
}
