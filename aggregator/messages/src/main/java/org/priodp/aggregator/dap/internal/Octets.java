package org.priodp.aggregator.dap.internal;

import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapDecodeException;

/** Checks for the opaque {@link ByteString} fields of immutable DAP-18 message records. */
public final class Octets {
  private Octets() {
  }

  private static <T> T present(T value, String field) {
    if (value == null) {
      throw new NullPointerException(field + " is null");
    }
    return value;
  }

  /** Returns a byte string holding a copy of the array, failing with a message naming the field if it is null. */
  public static ByteString of(byte[] bytes, String field) {
    return ByteString.copyOf(present(bytes, field));
  }

  /** Checks that a byte string is present and its length lies in the vector bounds {@code <min..max>}. */
  public static ByteString checkVector(ByteString value, long min, long max, String field) {
    if (present(value, field).length() < min || value.length() > max) {
      throw new IllegalArgumentException(
          field + ": length " + value.length() + " outside <" + min + ".." + max + ">");
    }
    return value;
  }

  /** Checks that a byte string is present and has exactly the given length. */
  public static ByteString checkFixed(ByteString value, int length, String field) {
    if (present(value, field).length() != length) {
      throw new IllegalArgumentException(field + ": length " + value.length() + ", expected "
          + length);
    }
    return value;
  }

  /**
   * Parses the URL-safe, unpadded base64 form of an identifier.
   *
   * @throws DapDecodeException naming {@code field} if it is null, padded or not base64url
   */
  public static ByteString fromBase64Url(String text, String field) {
    try {
      return ByteString.fromBase64Url(present(text, field));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new DapDecodeException(field, "not URL-safe unpadded base64");
    }
  }
}
