package org.priodp.noise.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;

/**
 * Unit checks of the primitives' bounds and fallbacks. Their exact distributions are checked
 * without statistics in {@code org.priodp.noise.SamplerExactnessTest}.
 */
class ExactTest {

  @Test
  void longAndBigIntegerPathsConsumeTheSameBitsAndAgree() {
    // The BigInteger methods delegate to the long ones below 2^61; above, compare by seed.
    for (int seed = 0; seed < 200; seed++) {
      RandomSource a = RandomSource.seeded(new byte[] {(byte) seed});
      RandomSource b = RandomSource.seeded(new byte[] {(byte) seed});
      long x = Exact.discreteLaplace(7, 3, a);
      BigInteger y = Exact.discreteLaplace(BigInteger.valueOf(7), BigInteger.valueOf(3), b);
      assertEquals(BigInteger.valueOf(x), y, "seed " + seed);
      assertEquals(a.bitsConsumed(), b.bitsConsumed(), "seed " + seed);
    }
  }

  @Test
  void uniformStaysInRangeForHugeBounds() {
    RandomSource rnd = RandomSource.seeded(new byte[] {1});
    BigInteger n = BigInteger.ONE.shiftLeft(200).add(BigInteger.valueOf(12345));
    for (int i = 0; i < 1000; i++) {
      BigInteger u = Exact.uniform(n, rnd);
      assertTrue(u.signum() >= 0 && u.compareTo(n) < 0, u.toString());
    }
    for (int i = 0; i < 1000; i++) {
      long u = Exact.uniform(3, rnd);
      assertTrue(u >= 0 && u < 3, Long.toString(u));
    }
  }

  @Test
  void bernoulliEdgeProbabilitiesNeedNoRandomness() {
    RandomSource rnd = RandomSource.seeded(new byte[] {2});
    assertTrue(Exact.bernoulli(5, 5, rnd));
    assertTrue(!Exact.bernoulli(0, 5, rnd));
    assertTrue(Exact.bernoulliExp(0, 1, rnd));
    assertEquals(0, rnd.bitsConsumed());
  }

  @Test
  void bernoulliExpSwitchesToBigIntegersWhenDenominatorsGrow() {
    // d close to 2^61: d * k overflows the long path at k = 2, so the loop continues on
    // BigIntegers; the frequency must still be exp(-1/2).
    long d = (1L << 60) + 1;
    long n = d / 2;
    RandomSource rnd = RandomSource.seeded(new byte[] {3});
    int hits = 0;
    int trials = 200_000;
    for (int i = 0; i < trials; i++) {
      if (Exact.bernoulliExp(n, d, rnd)) {
        hits++;
      }
    }
    double p = Math.exp(-0.5);
    double sd = Math.sqrt(trials * p * (1 - p));
    assertTrue(Math.abs(hits - trials * p) < 6 * sd, "hits " + hits + " vs " + trials * p);
  }

  @Test
  void gaussianProposalScaleIsFloorSigmaPlusOne() {
    assertEquals(BigInteger.valueOf(2), Exact.gaussianProposalScale(BigInteger.ONE, BigInteger.ONE));
    assertEquals(BigInteger.valueOf(6), Exact.gaussianProposalScale(BigInteger.valueOf(25), BigInteger.ONE));
    assertEquals(BigInteger.valueOf(5), Exact.gaussianProposalScale(BigInteger.valueOf(2499), BigInteger.valueOf(100)));
    assertEquals(BigInteger.ONE, Exact.gaussianProposalScale(BigInteger.ONE, BigInteger.valueOf(2)));
  }
}
