package org.priodp.noise.compress.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.noise.RandomSource;

/**
 * The exact uniform integer {@link Uniforms#below} (the requantization channel's sampler),
 * checked without statistics: it is run on every bit string of a fixed length, and among the
 * strings on which it finishes, every outcome in [0, n) must occur equally often.
 */
class UniformsTest {
  private static final int BITS = 16;

  /** Thrown when the sampler asks for more bits than the fixed string holds. */
  private static final class OutOfBits extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfBits() {
      super(null, null, false, false);
    }
  }

  /** A source that hands out the bits of {@code value}, most significant of {@code length} first. */
  private static final class FixedBits implements RandomSource {
    private final long value;
    private final int length;
    private int used;

    FixedBits(long value, int length) {
      this.value = value;
      this.length = length;
    }

    @Override
    public int nextBit() {
      if (used == length) {
        throw new OutOfBits();
      }
      return (int) ((value >>> (length - 1 - used++)) & 1);
    }

    @Override
    public long nextBits(int k) {
      long r = 0;
      for (int i = 0; i < k; i++) {
        r = (r << 1) | nextBit();
      }
      return r;
    }

    @Override
    public long bitsConsumed() {
      return used;
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 5, 6, 7, 10, 12, 100, 1000})
  void belowIsExactlyUniform(long n) {
    long[] counts = new long[(int) n];
    long finished = 0;
    for (long s = 0; s < (1L << BITS); s++) {
      try {
        long u = Uniforms.below(n, new FixedBits(s, BITS));
        assertTrue(u >= 0 && u < n, "below(" + n + ") = " + u);
        counts[(int) u]++;
        finished++;
      } catch (OutOfBits e) {
        // did not finish within BITS bits: excluded, as for every outcome alike
      }
    }
    for (int k = 0; k < n; k++) {
      assertEquals(counts[0], counts[k], "below(" + n + "): outcome " + k);
    }
    assertTrue(finished * 2 > (1L << BITS), "below(" + n + ") finished on only " + finished + " strings");
  }

  @ParameterizedTest
  @ValueSource(longs = {0, -1, (1L << 61) + 1, Long.MAX_VALUE})
  void belowRejectsBoundsOutsideItsRange(long n) {
    RandomSource rnd = RandomSource.seeded(new byte[] {7});
    assertThrows(IllegalArgumentException.class, () -> Uniforms.below(n, rnd));
    assertEquals(0, rnd.bitsConsumed());
  }

  @ParameterizedTest
  @ValueSource(longs = {1L << 61, (1L << 61) - 1, 3})
  void belowStaysInRangeAtItsLargestBounds(long n) {
    RandomSource rnd = RandomSource.seeded(new byte[] {8});
    for (int i = 0; i < 1000; i++) {
      long u = Uniforms.below(n, rnd);
      assertTrue(u >= 0 && u < n, Long.toString(u));
    }
  }
}
