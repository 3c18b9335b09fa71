package org.priodp.noise.compress;

/**
 * Reads bits written by {@link BitWriter}, most significant bit of each byte first, failing
 * clearly on a truncated stream; the source of the Elias decoders of {@link EliasCode}.
 *
 * <p>Not thread-safe.
 */
public final class BitReader {
  private final byte[] bytes;
  private final long limit;
  private long pos;

  /** Reads all {@code 8 * bytes.length} bits of {@code bytes} (copied). */
  public BitReader(byte[] bytes) {
    this.bytes = bytes.clone();
    this.limit = 8L * bytes.length;
  }

  /**
   * Reads one bit.
   *
   * @throws IllegalArgumentException if the stream is exhausted (a truncated description)
   */
  public int readBit() {
    if (pos >= limit) {
      throw truncated();
    }
    int b = (bytes[(int) (pos >>> 3)] >>> (7 - (int) (pos & 7))) & 1;
    pos++;
    return b;
  }

  /**
   * Reads {@code n} bits (0 to 64), most significant first, into the low bits of the result.
   *
   * @throws IllegalArgumentException if n is outside [0, 64] or fewer than n bits remain
   */
  public long readBits(int n) {
    if (n < 0 || n > 64) {
      throw new IllegalArgumentException("can read 0 to 64 bits at a time, asked for " + n);
    }
    if (remaining() < n) {
      pos = limit;
      throw truncated();
    }
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = (v << 1) | ((bytes[(int) (pos >>> 3)] >>> (7 - (int) (pos & 7))) & 1);
      pos++;
    }
    return v;
  }

  /**
   * Counts and consumes zero bits up to and including the next one bit, returning the number of
   * zeros (the unary prefix of an Elias code).
   *
   * @throws IllegalArgumentException if no one bit follows, or more than {@code max} zeros do
   */
  public int readZerosThenOne(int max) {
    int zeros = 0;
    while (readBit() == 0) {
      zeros++;
      if (zeros > max) {
        throw new IllegalArgumentException("malformed description: more than " + max + " leading zeros in a code word");
      }
    }
    return zeros;
  }

  /** Returns the number of bits read so far. */
  public long position() {
    return pos;
  }

  /** Returns the number of unread bits. */
  public long remaining() {
    return limit - pos;
  }

  /** Returns true if every unread bit is zero (padding). */
  public boolean restIsZero() {
    for (long p = pos; p < limit; p++) {
      if (((bytes[(int) (p >>> 3)] >>> (7 - (int) (p & 7))) & 1) != 0) {
        return false;
      }
    }
    return true;
  }

  private static IllegalArgumentException truncated() {
    return new IllegalArgumentException("truncated description: the bit stream ended inside a code word");
  }
}
