package org.priodp.aggregator.dap;

import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;

/**
 * An immutable string of bytes: the value behind every typed identifier and opaque field the
 * aggregator keeps (task, batch, report and job IDs, digests, encoded shares). Equality and hash
 * are by content, order is unsigned lexicographic (the order of encoded big-endian integers),
 * and {@link #toString()} shows at most the first 8 bytes in hex, so a log line never carries a
 * whole share or key.
 */
public final class ByteString implements Comparable<ByteString> {
  /** The empty string. */
  public static final ByteString EMPTY = new ByteString(new byte[0]);
  private static final HexFormat HEX = HexFormat.of();
  private static final int SHOWN = 8;

  private final byte[] bytes;

  private ByteString(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Returns the string holding a copy of {@code bytes}. */
  public static ByteString copyOf(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new ByteString(Objects.requireNonNull(bytes).clone());
  }

  /** Returns the string holding a copy of {@code bytes[from..to)}. */
  public static ByteString copyOf(byte[] bytes, int from, int to) {
    return from == to ? EMPTY : new ByteString(Arrays.copyOfRange(bytes, from, to));
  }

  /**
   * Parses URL-safe base64 without padding (DAP-18 "HTTP Usage"); throws
   * IllegalArgumentException if malformed.
   */
  public static ByteString fromBase64Url(String text) {
    if (text.indexOf('=') >= 0) {
      throw new IllegalArgumentException("padded base64 (DAP uses unpadded base64url)");
    }
    return new ByteString(Base64.getUrlDecoder().decode(text));
  }

  /** Returns the number of bytes. */
  public int length() {
    return bytes.length;
  }

  /** Returns the byte at {@code i}. */
  public byte byteAt(int i) {
    return bytes[i];
  }

  /** Returns a copy of the bytes. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  /** Returns URL-safe base64 without padding. */
  public String toBase64Url() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Returns the whole string in lower-case hex. */
  public String toHex() {
    return HEX.formatHex(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ByteString b && Arrays.equals(bytes, b.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public int compareTo(ByteString o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  /** Returns the first 8 bytes in hex, with an ellipsis and the length when there are more. */
  @Override
  public String toString() {
    return bytes.length <= SHOWN ? HEX.formatHex(bytes)
        : HEX.formatHex(bytes, 0, SHOWN) + "..(" + bytes.length + " bytes)";
  }
}
