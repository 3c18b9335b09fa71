package org.priodp.noise.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.priodp.noise.internal.FixedPointExp;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

/** Parameters and input checks of k-RR; its distribution is in LocalExactnessTest. */
class KaryRandomizedResponseTest {

  @Test
  void twoBucketsIsBinaryRandomizedResponse() {
    LocalEstimator k2 = new KaryRandomizedResponse(2, Rational.ONE).estimator();
    LocalEstimator rr = RandomizedResponse.ofEpsilon(Rational.ONE).estimator();
    assertEquals(rr.a(), k2.a(), 1e-15);
    assertEquals(rr.b(), k2.b(), 1e-15);
    assertEquals(Math.E, k2.a() / k2.b(), 1e-12); // the privacy ratio e^eps
  }

  @Test
  void rejectsBadParametersAndInputs() {
    assertThrows(IllegalArgumentException.class, () -> new KaryRandomizedResponse(1, Rational.ONE));
    assertThrows(IllegalArgumentException.class, () -> new KaryRandomizedResponse(3, Rational.ZERO));
    KaryRandomizedResponse k = new KaryRandomizedResponse(3, Rational.ONE);
    SeededRandomSource rnd = SeededRandomSource.fromHex("00");
    assertThrows(IllegalArgumentException.class, () -> k.randomize(3, rnd));
    assertThrows(IllegalArgumentException.class, () -> k.randomize(-1, rnd));
    assertEquals(3, k.domainSize());
  }

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  @Test
  void fixedWorkWeightsSumToOneAndKeepTheRatioAtMostEToTheEpsilon() {
    for (String eps : new String[] {"1/10", "1", "3/2", "5", "20"}) {
      for (int k : new int[] {2, 3, 16, 1000, 100_000}) {
        KaryRandomizedResponse krr = new KaryRandomizedResponse(k, Rational.parse(eps));
        KaryRandomizedResponse.FixedWeights w = krr.fixedWeights();
        BigInteger wt = new BigInteger(Long.toUnsignedString(w.trueWeight()));
        BigInteger wo = new BigInteger(Long.toUnsignedString(w.otherWeight()));
        String at = "k=" + k + " eps=" + eps;
        assertEquals(TWO_64, wt.add(wo.multiply(BigInteger.valueOf(k - 1))), at);
        // W_t / W_o <= e^eps: with an independent 256-bit upper bound of e^-eps, (E+4)/2^256 <= W_o/W_t
        BigInteger e = FixedPointExp.expNeg(krr.epsilon().numerator(), krr.epsilon().denominator(), 256)
            .add(BigInteger.valueOf(FixedPointExp.ERROR_ULPS));
        assertTrue(e.multiply(wt).compareTo(wo.shiftLeft(256)) <= 0, at + ": ratio above e^eps");
        // and W_t / W_o is within a relative 2^-20 of e^eps (W_o is the exact weight rounded up by
        // less than one, which moves the ratio by a relative k 2^-64 / P[other] at most)
        BigInteger eLow = e.subtract(BigInteger.valueOf(2 * FixedPointExp.ERROR_ULPS));
        assertTrue(eLow.multiply(wt).multiply(BigInteger.ONE.shiftLeft(20).add(BigInteger.ONE))
            .compareTo(wo.shiftLeft(256 + 20)) >= 0, at + ": ratio far below e^eps");
        assertEquals(Long.divideUnsigned(-1L, w.otherWeight()), w.reciprocal(), at);
      }
    }
  }

  /** The report as the documented function of U: [0, W_t) the true bucket, then W_o per other bucket. */
  private static int expected(KaryRandomizedResponse krr, int bucket, BigInteger u) {
    KaryRandomizedResponse.FixedWeights w = krr.fixedWeights();
    BigInteger wt = new BigInteger(Long.toUnsignedString(w.trueWeight()));
    BigInteger wo = new BigInteger(Long.toUnsignedString(w.otherWeight()));
    if (u.compareTo(wt) < 0) {
      return bucket;
    }
    int q = u.subtract(wt).divide(wo).intValueExact();
    return q >= bucket ? q + 1 : q;
  }

  @Test
  void fixedWorkMapsEveryUniformAsDocumentedAndReadsOneWord() {
    long seed = 0xF1C5L;
    System.out.println("k-RR fixed work: seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    for (String eps : new String[] {"1/10", "1", "5"}) {
      for (int k : new int[] {2, 3, 7, 16, 1000}) {
        KaryRandomizedResponse krr = new KaryRandomizedResponse(k, Rational.parse(eps));
        KaryRandomizedResponse.FixedWeights w = krr.fixedWeights();
        BigInteger wt = new BigInteger(Long.toUnsignedString(w.trueWeight()));
        BigInteger wo = new BigInteger(Long.toUnsignedString(w.otherWeight()));
        List<BigInteger> us = new ArrayList<>(List.of(BigInteger.ZERO, TWO_64.subtract(BigInteger.ONE)));
        for (int i = 0; i < k - 1 && i < 50; i++) { // the edges of the first intervals
          BigInteger edge = wt.add(wo.multiply(BigInteger.valueOf(i)));
          us.add(edge.subtract(BigInteger.ONE));
          us.add(edge);
        }
        for (int i = 0; i < 2000; i++) {
          us.add(new BigInteger(Long.toUnsignedString(rnd.nextLong())));
        }
        for (BigInteger u : us) {
          int bucket = rnd.nextInt(k);
          Scripted src = new Scripted(u.longValue());
          int got = krr.randomizeFixedWork(bucket, src);
          assertEquals(expected(krr, bucket, u), got,
              "k=" + k + " eps=" + eps + " bucket=" + bucket + " U=" + u + " (seed=0x" + Long.toHexString(seed) + ")");
          assertEquals(64, src.bitsConsumed());
        }
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
