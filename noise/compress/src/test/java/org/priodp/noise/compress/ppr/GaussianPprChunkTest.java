package org.priodp.noise.compress.ppr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.SeededRandomSource;

class GaussianPprChunkTest {
  @Test
  void proposalVarianceKeepsTheGapSmallAndTheBoundHolds() {
    // the proposal variance lies between the KL-optimal and the sup-optimal ones, costs at most
    // 0.5 bit of worst-case KL over the optimum, and cuts the worst-case sup - KL gap well below
    // the m/2 = 25 nats of the KL-optimal proposal
    GaussianPprChunk kl = GaussianPprChunk.of(50, 2, 1, 1e-12);
    assertEquals(4 + 1.0 / 50, kl.proposalVariance(), 1e-3);
    double klGap = kl.worstLogRatioBound() - kl.worstKlBits() * Math.log(2);
    assertEquals(25, klGap, 0.5);
    GaussianPprChunk hard = GaussianPprChunk.of(50, 2, 1);
    assertTrue(hard.proposalVariance() > kl.proposalVariance());
    assertTrue(hard.worstKlBits() <= kl.worstKlBits() + 0.5 + 1e-9);
    double gap = hard.worstLogRatioBound() - hard.worstKlBits() * Math.log(2);
    System.out.printf("m=50 sigma=2 c=1: KL-optimal gap %.2f nats, chosen gap %.2f nats, extra KL %.3f bits%n", klGap, gap,
        hard.worstKlBits() - kl.worstKlBits());
    assertTrue(gap < 5, "gap " + gap);
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
