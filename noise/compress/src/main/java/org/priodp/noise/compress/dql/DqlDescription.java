package org.priodp.noise.compress.dql;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The coded description of a vector under the DQL codec: the signed Elias codes of the integer
 * descriptions M_1, ..., M_n of Algorithm 1, concatenated most significant bit first and padded
 * with zero bits to whole bytes (the DQL paper, Sec. 3 and Theorem 8).
 *
 * @param bytes the bit stream (copied in and out)
 * @param bitLength the number of meaningful bits, {@code 8 * bytes.length - 7 <= bitLength <=
 *     8 * bytes.length} (or 0 for no values)
 * @param count the number of values n
 */
public record DqlDescription(byte[] bytes, long bitLength, int count) {

  /** Validates and copies. */
  public DqlDescription {
    bytes = bytes.clone();
    if (count < 0 || bitLength < 0 || (bitLength + 7) / 8 != bytes.length || (count > 0 && bitLength < count)) {
      throw new IllegalArgumentException(
          "inconsistent description: " + bytes.length + " bytes, " + bitLength + " bits, " + count + " values");
    }
  }

  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** Returns the bytes in lower-case hex. */
  public String hex() {
    return HexFormat.of().formatHex(bytes);
  }

  /** Returns the mean number of bits per value (0 for no values). */
  public double bitsPerValue() {
    return count == 0 ? 0 : (double) bitLength / count;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DqlDescription d && d.bitLength == bitLength && d.count == count && Arrays.equals(d.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes) * 31 + Long.hashCode(bitLength) * 17 + count;
  }

  @Override
  public String toString() {
    return "DqlDescription[" + count + " values, " + bitLength + " bits, " + hex() + "]";
  }
}
