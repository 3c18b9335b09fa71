package org.priodp.aggregator.dap.internal;

import java.util.HexFormat;
import org.priodp.aggregator.dap.ByteString;

/** Small helpers for byte-array fields of immutable DAP-18 message records. */
public final class Octets {
  private static final HexFormat HEX = HexFormat.of();

  private Octets() {
  }

  /** Returns a copy of the array, failing with a message naming the field if it is null. */
  public static byte[] copy(byte[] bytes, String field) {
    return present(bytes, field).clone();
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

  /** Checks that a length lies in the vector bounds {@code <min..max>} of the named field. */
  public static byte[] checkVector(byte[] bytes, long min, long max, String field) {
    byte[] c = copy(bytes, field);
    if (c.length < min || c.length > max) {
      throw new IllegalArgumentException(
          field + ": length " + c.length + " outside <" + min + ".." + max + ">");
    }
    return c;
  }

  /** Checks that an array has exactly the given length. */
  public static byte[] checkFixed(byte[] bytes, int length, String field) {
    byte[] c = copy(bytes, field);
    if (c.length != length) {
      throw new IllegalArgumentException(field + ": length " + c.length + ", expected " + length);
    }
    return c;
  }

  /** Checks that a byte string is present and has exactly the given length. */
  public static ByteString checkFixed(ByteString value, int length, String field) {
    if (present(value, field).length() != length) {
      throw new IllegalArgumentException(field + ": length " + value.length() + ", expected "
          + length);
    }
    return value;
  }

  /** Returns lowercase hex, abbreviated after 32 bytes, for toString. */
  public static String hex(byte[] bytes) {
    if (bytes.length <= 32) {
      return HEX.formatHex(bytes);
    }
    return HEX.formatHex(bytes, 0, 32) + "...(" + bytes.length + " bytes)";
  }

  /** Returns the URL-safe, unpadded base64 form of an identifier (DAP-18 "HTTP Usage"). */
  public static String toBase64Url(byte[] bytes) {
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /**
   * Parses the URL-safe, unpadded base64 form of an identifier.
   *
   * @throws org.priodp.aggregator.dap.DapDecodeException naming {@code field} if it is null,
   *     padded or not base64url
   */
  public static byte[] fromBase64Url(String text, String field) {
    try {
      if (text == null || text.indexOf('=') >= 0) {
        throw new IllegalArgumentException("padding or null");
      }
      return java.util.Base64.getUrlDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new org.priodp.aggregator.dap.DapDecodeException(field, "not URL-safe unpadded base64");
    }
  }
}
