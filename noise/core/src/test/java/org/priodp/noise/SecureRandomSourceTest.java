package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class SecureRandomSourceTest {

  /** Counts how many times the underlying generator is asked for bytes. */
  private static final class CountingRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    int calls;

    @Override
    public void nextBytes(byte[] bytes) {
      calls++;
      super.nextBytes(bytes);
    }
  }

  @Test
  void fetchesBytesInBlocksNotPerBit() {
    CountingRandom random = new CountingRandom();
    SecureRandomSource source = new SecureRandomSource(random);
    for (int i = 0; i < 4096 * 8 * 3; i++) {
      source.nextBit();
    }
    assertEquals(3, random.calls, "one 4 KiB block per 32768 bits");
    assertEquals(4096L * 8 * 3, source.bitsConsumed());
  }

  @Test
  void bitsAreBalanced() {
    RandomSource r = RandomSource.jdkDrbg();
    int n = 1 << 22;
    long ones = 0;
    for (int i = 0; i < n / 64; i++) {
      ones += Long.bitCount(r.nextLong());
    }
    // fails with probability about 2e-9 for a uniform source
    assertTrue(Math.abs(ones - n / 2.0) < 6 * Math.sqrt(n / 4.0), "ones=" + ones + " of " + n);
  }
}
