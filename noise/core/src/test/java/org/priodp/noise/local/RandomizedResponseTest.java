package org.priodp.noise.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

/** Parameters and input checks of binary RR; its distribution is in LocalExactnessTest. */
class RandomizedResponseTest {

  @Test
  void reportsTheExactPrivacyLevelOfAGivenP() {
    FlipProbability.Given p = new FlipProbability.Given(Rational.of(1, 4));
    assertEquals(Rational.of(3), p.expEpsilon()); // lecture Theorem 2: e^eps = (1 - p)/p
    assertEquals(Math.log(3), LocalEstimator.epsilon(p), 1e-15);
    assertEquals(Rational.ONE, new FlipProbability.Given(Rational.of(1, 2)).expEpsilon()); // Example 1: eps = 0
    FlipProbability.OfEpsilon e = RandomizedResponse.of(Budget.PureDp.parse("1/2")).flipProbability() instanceof
        FlipProbability.OfEpsilon o ? o : null;
    assertEquals(Rational.of(1, 2), e.epsilon());
    assertEquals(1 / (1 + Math.exp(0.5)), LocalEstimator.flipProbability(e), 1e-15);
  }

  @Test
  void rejectsBadParametersAndInputs() {
    assertThrows(IllegalArgumentException.class, () -> RandomizedResponse.ofFlipProbability(Rational.ZERO));
    assertThrows(IllegalArgumentException.class, () -> RandomizedResponse.ofFlipProbability(Rational.of(3, 5)));
    assertThrows(IllegalArgumentException.class, () -> RandomizedResponse.ofEpsilon(Rational.of(-1)));
    RandomizedResponse rr = RandomizedResponse.ofEpsilon(Rational.ONE);
    SeededRandomSource rnd = SeededRandomSource.fromHex("00");
    assertThrows(IllegalArgumentException.class, () -> rr.randomize(2, rnd));
    int r = rr.randomize(1, rnd);
    assertTrue(r == 0 || r == 1);
    assertEquals(2, rr.domainSize());
  }

  @Test
  void fixedWorkFlipsByOneWordBelowAThresholdRoundedTowardsPrivacy() {
    long seed = 0x33F1L;
    System.out.println("RR fixed work: seed=0x" + Long.toHexString(seed));
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
    java.math.BigInteger two64 = java.math.BigInteger.ONE.shiftLeft(64);
    for (RandomizedResponse rr : new RandomizedResponse[] {RandomizedResponse.ofEpsilon(Rational.ONE),
        RandomizedResponse.ofEpsilon(Rational.parse("1/10")), RandomizedResponse.ofFlipProbability(Rational.of(1, 3)),
        RandomizedResponse.ofFlipProbability(Rational.of(1, 2))}) {
      long w = rr.flipWeight();
      java.math.BigInteger wb = new java.math.BigInteger(Long.toUnsignedString(w));
      assertTrue(wb.compareTo(two64.shiftRight(1)) <= 0, rr + ": p' <= 1/2");
      if (rr.flipProbability() instanceof FlipProbability.Given g) {
        // W / 2^64 >= p, and by less than 2^-64
        assertTrue(wb.multiply(g.p().denominator()).compareTo(g.p().numerator().shiftLeft(64)) >= 0, rr.toString());
        assertTrue(wb.subtract(java.math.BigInteger.ONE).multiply(g.p().denominator())
            .compareTo(g.p().numerator().shiftLeft(64)) < 0, rr.toString());
      } else {
        // (2^64 - W) / W <= e^eps, with an independent 256-bit upper bound of e^-eps
        Rational eps = ((FlipProbability.OfEpsilon) rr.flipProbability()).epsilon();
        java.math.BigInteger e = org.priodp.noise.internal.FixedPointExp.expNeg(eps.numerator(), eps.denominator(), 256)
            .add(java.math.BigInteger.valueOf(4));
        assertTrue(e.multiply(two64.subtract(wb)).compareTo(wb.shiftLeft(256)) <= 0, rr.toString());
      }
      for (int n = 0; n < 2000; n++) {
        int bit = rnd.nextInt(2);
        long u = switch (rnd.nextInt(4)) {
          case 0 -> w - 1;
          case 1 -> w;
          default -> rnd.nextLong();
        };
        Scripted src = new Scripted(u);
        int flipped = Long.compareUnsigned(u, w) < 0 ? 1 : 0;
        assertEquals(bit ^ flipped, rr.randomizeFixedWork(bit, src), rr + " u=" + u + " (seed=0x" + Long.toHexString(seed) + ")");
        assertEquals(64, src.bitsConsumed());
      }
    }
  }

  /** Hands out chosen 64-bit words through nextLong and counts them; anything else fails. */
  static final class Scripted implements org.priodp.noise.RandomSource {
    private final long[] words;
    private int next;

    Scripted(long... words) {
      this.words = words;
    }

    @Override
    public int nextBit() {
      throw new UnsupportedOperationException("fixed work reads whole words");
    }

    @Override
    public long nextBits(int k) {
      throw new UnsupportedOperationException("fixed work reads whole words");
    }

    @Override
    public long nextLong() {
      return words[next++];
    }

    @Override
    public long bitsConsumed() {
      return 64L * next;
    }
  }
}
