package org.priodp.noise.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

/** Parameters, the weight bound and input checks of RAPPOR; its distribution is in LocalExactnessTest. */
class SymmetricRapporTest {

  @Test
  void reportsNeverExceedTheMaxWeight() {
    SymmetricRappor r = new SymmetricRappor(40, Rational.ONE, 15);
    SeededRandomSource rnd = SeededRandomSource.fromHex("5e");
    for (int i = 0; i < 500; i++) {
      boolean[] y = r.randomize(i % 40, rnd);
      int w = 0;
      for (boolean b : y) {
        w += b ? 1 : 0;
      }
      assertEquals(40, y.length);
      assertTrue(w <= 15, "weight " + w);
    }
    assertEquals(new FlipProbability.OfEpsilon(Rational.of(1, 2)), r.perBitFlip());
  }

  @Test
  void rejectsBadParametersAndInputs() {
    assertThrows(IllegalArgumentException.class, () -> new SymmetricRappor(1, Rational.ONE, 1));
    assertThrows(IllegalArgumentException.class, () -> new SymmetricRappor(4, Rational.ONE, 0));
    assertThrows(IllegalArgumentException.class, () -> new SymmetricRappor(4, Rational.ONE, 5));
    assertThrows(IllegalArgumentException.class, () -> new SymmetricRappor(4, Rational.ZERO, 2));
    SymmetricRappor r = new SymmetricRappor(4, Rational.ONE, 2);
    assertThrows(IllegalArgumentException.class, () -> r.randomize(4, SeededRandomSource.fromHex("00")));
    // a max weight that (almost) never fits gives up with a clear error, whatever the bucket
    SymmetricRappor hopeless = new SymmetricRappor(60, Rational.of(1, 100), 1);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> hopeless.randomize(0, SeededRandomSource.fromHex("00")));
    assertTrue(e.getMessage().contains("choose a larger max weight"));
  }

  @Test
  void fixedWorkFlipsEachBitByOneWordBelowACertifiedThreshold() {
    long seed = 0x4A990L;
    System.out.println("RAPPOR fixed work: seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    for (String eps : new String[] {"1/10", "1", "4"}) {
      SymmetricRappor r = SymmetricRappor.untruncated(12, Rational.parse(eps));
      long w = r.flipWeight();
      java.math.BigInteger wb = java.math.BigInteger.valueOf(w);
      java.math.BigInteger two64 = java.math.BigInteger.ONE.shiftLeft(64);
      // (1 - f')/f' = (2^64 - W)/W <= e^(eps/2): with an independent 256-bit upper bound of e^(-eps/2)
      Rational half = r.epsilon().divide(Rational.of(2));
      java.math.BigInteger e = org.priodp.noise.internal.FixedPointExp.expNeg(half.numerator(), half.denominator(), 256)
          .add(java.math.BigInteger.valueOf(4));
      assertTrue(e.multiply(two64.subtract(wb)).compareTo(wb.shiftLeft(256)) <= 0, eps);
      assertTrue(w > 0 && w <= Long.MAX_VALUE, eps);
      for (int n = 0; n < 500; n++) {
        int bucket = rnd.nextInt(12);
        long[] words = new long[12];
        for (int i = 0; i < 12; i++) {
          long edge = switch (rnd.nextInt(4)) {
            case 0 -> w - 1;
            case 1 -> w;
            default -> rnd.nextLong();
          };
          words[i] = edge;
        }
        Scripted src = new Scripted(words);
        boolean[] y = r.randomizeFixedWork(bucket, src);
        for (int i = 0; i < 12; i++) {
          boolean flip = Long.compareUnsigned(words[i], w) < 0;
          assertEquals((i == bucket) != flip, y[i], "eps=" + eps + " bit " + i + " (seed=0x" + Long.toHexString(seed) + ")");
        }
        assertEquals(64 * 12, src.bitsConsumed());
      }
    }
  }

  @Test
  void fixedWorkRetriesOnlyOnTheWeight() {
    SymmetricRappor r = new SymmetricRappor(4, Rational.ONE, 1);
    long w = r.flipWeight();
    // first attempt: every bit flips (weight 3 > 1), second: none flips (the one-hot input)
    Scripted src = new Scripted(0, 0, 0, 0, w, w, w, w);
    boolean[] y = r.randomizeFixedWork(2, src);
    assertEquals(List.of(false, false, true, false), List.of(y[0], y[1], y[2], y[3]));
    assertEquals(64 * 8, src.bitsConsumed());
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
