package org.priodp.noise.compress;

import java.util.Arrays;

/**
 * Appends bits to a growing buffer, most significant bit of each byte first; the container for
 * the Elias codes of {@link EliasCode} (Elias 1975, the codes named in the DQL paper, Sec. 3).
 *
 * <p>Not thread-safe. The last byte of {@link #toByteArray()} is padded with zero bits.
 */
public final class BitWriter {
  private byte[] bytes = new byte[16];
  private long bits;

  /** Creates an empty writer. */
  public BitWriter() {}

  /** Appends one bit (0 or 1; any non-zero value counts as 1). */
  public void writeBit(int bit) {
    ensure(bits + 1);
    if (bit != 0) {
      int i = (int) (bits >>> 3);
      bytes[i] |= (byte) (0x80 >>> (int) (bits & 7));
    }
    bits++;
  }

  /**
   * Appends the low {@code n} bits of {@code value}, most significant first.
   *
   * @throws IllegalArgumentException if n is outside [0, 64]
   */
  public void writeBits(long value, int n) {
    if (n < 0 || n > 64) {
      throw new IllegalArgumentException("can write 0 to 64 bits at a time, asked for " + n);
    }
    ensure(bits + n);
    for (int i = n - 1; i >= 0; i--) {
      if (((value >>> i) & 1) != 0) {
        int b = (int) (bits >>> 3);
        bytes[b] |= (byte) (0x80 >>> (int) (bits & 7));
      }
      bits++;
    }
  }

  /** Appends {@code n >= 0} zero bits. */
  public void writeZeros(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("cannot write " + n + " zeros");
    }
    ensure(bits + n);
    bits += n;
  }

  /** Returns the number of bits written so far. */
  public long bitLength() {
    return bits;
  }

  /** Returns the bits written so far, zero-padded to whole bytes. */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, (int) ((bits + 7) >>> 3));
  }

  private void ensure(long totalBits) {
    long needBytes = (totalBits + 7) >>> 3;
    if (needBytes > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("bit stream longer than 2^31 bytes");
    }
    if (needBytes > bytes.length) {
      bytes = Arrays.copyOf(bytes, (int) Math.max(needBytes, Math.min(Integer.MAX_VALUE - 8, 2L * bytes.length)));
    }
  }
}
