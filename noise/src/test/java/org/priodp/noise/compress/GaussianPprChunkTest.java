package org.priodp.noise.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.SeededRandomSource;

class GaussianPprChunkTest {
  @Test
  void proposalVarianceKeepsTheGapSmallAndTheBoundHolds() {
    // large sigma: the KL-optimal variance is already cheap
    GaussianPprChunk easy = GaussianPprChunk.of(10, 5, 1); // worst-case gap m/2 = 5 <= 6 at the KL-optimal variance
    assertEquals(25 + 1.0 / 10, easy.proposalVariance(), 1e-12);
    // small sigma: the variance grows so that sup - KL stays at most the default gap
    GaussianPprChunk hard = GaussianPprChunk.of(50, 2, 1);
    assertTrue(hard.proposalVariance() > 4 + 1.0 / 50);
    double gap = hard.worstLogRatioBound() - hard.worstKlBits() * Math.log(2);
    assertTrue(gap <= GaussianPprChunk.DEFAULT_MAX_GAP_NATS + 1e-9, "gap " + gap);
    // the declared bound is never exceeded at the maximizer z* = x v / (v - sigma^2) or nearby
    double[] x = new double[50];
    x[0] = 0.6;
    x[7] = -0.8;
    PprTarget<double[]> t = hard.target(x);
    double v = hard.proposalVariance();
    double[] zStar = new double[50];
    for (int i = 0; i < 50; i++) {
      zStar[i] = x[i] * v / (v - 4);
    }
    assertEquals(t.logRatioBound(), t.logRatio(zStar), 1e-9);
    PprProposal<double[]> q = hard.proposal();
    var rnd = SeededRandomSource.fromHex("77");
    for (int i = 0; i < 1000; i++) {
      assertTrue(t.logRatio(q.sample(rnd)) <= t.logRatioBound());
    }
    assertEquals(2 * 25 * 53, q.maxBitsPerSample());
  }

  @Test
  void rejectsBadInput() {
    GaussianPprChunk c = GaussianPprChunk.of(3, 1, 1);
    assertThrows(IllegalArgumentException.class, () -> c.target(new double[2]));
    assertThrows(IllegalArgumentException.class, () -> c.target(new double[] {1, 1, 0}));
    assertThrows(IllegalArgumentException.class, () -> c.target(new double[] {Double.NaN, 0, 0}));
    assertThrows(IllegalArgumentException.class, () -> GaussianPprChunk.of(0, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> GaussianPprChunk.of(3, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> GaussianPprChunk.of(3, 1, Double.POSITIVE_INFINITY));
  }
}
