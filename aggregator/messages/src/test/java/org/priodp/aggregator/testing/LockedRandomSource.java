package org.priodp.aggregator.testing;

import org.priodp.noise.RandomSource;

/**
 * A seeded {@link RandomSource} shared by the threads of a test server: every call is
 * synchronized on the source (the seeded stream itself is not thread-safe). The bits are
 * reproducible from the seed; which draw gets which bits depends on the threads' order.
 */
public final class LockedRandomSource implements RandomSource {
  private final RandomSource inner;

  /** Wraps {@code RandomSource.seeded(seed)}. */
  public LockedRandomSource(byte[] seed) {
    this.inner = RandomSource.seeded(seed);
  }

  @Override
  public synchronized int nextBit() {
    return inner.nextBit();
  }

  @Override
  public synchronized long nextBits(int k) {
    return inner.nextBits(k);
  }

  @Override
  public synchronized long bitsConsumed() {
    return inner.bitsConsumed();
  }
}
