package org.priodp.aggregator.dap.internal;

import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapDecodeException;

/**
 * Reads TLS presentation-language values (RFC 8446 section 3, as used by DAP-18 "Presentation
 * Language"): big-endian unsigned integers, fixed-length opaque arrays and length-prefixed
 * vectors. Every declared length is checked against its bounds and against the bytes that remain
 * before anything is allocated, so hostile input can only produce {@link DapDecodeException}.
 */
public final class DapReader {
  private final byte[] buf;
  private final int end;
  private int pos;

  private DapReader(byte[] buf, int pos, int end) {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
  }

  /** Returns a reader over the whole array (not copied); null is reported as a decode error. */
  public static DapReader of(byte[] bytes, String what) {
    if (bytes == null) {
      throw new DapDecodeException(what, "input is null");
    }
    return new DapReader(bytes, 0, bytes.length);
  }

  /** Returns the number of unread bytes. */
  public int remaining() {
    return end - pos;
  }

  private void need(long n, String field) {
    if (n > remaining()) {
      throw new DapDecodeException(field, "truncated: need " + n + " bytes, " + remaining() + " remain");
    }
  }

  /** Reads a uint8. */
  public int u8(String field) {
    need(1, field);
    return buf[pos++] & 0xff;
  }

  /** Reads a big-endian uint16. */
  public int u16(String field) {
    need(2, field);
    int v = ((buf[pos] & 0xff) << 8) | (buf[pos + 1] & 0xff);
    pos += 2;
    return v;
  }

  /** Reads a big-endian uint32 as a non-negative long. */
  public long u32(String field) {
    need(4, field);
    long v = 0;
    for (int i = 0; i < 4; i++) {
      v = (v << 8) | (buf[pos + i] & 0xff);
    }
    pos += 4;
    return v;
  }

  /** Reads a big-endian uint64 into the 64 bits of a long (to be read as unsigned). */
  public long u64(String field) {
    need(8, field);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (buf[pos + i] & 0xff);
    }
    pos += 8;
    return v;
  }

  /** Reads a fixed-length opaque array such as {@code opaque checksum[32]} as a byte string. */
  public ByteString opaqueFixed(int length, String field) {
    need(length, field);
    return take(length);
  }

  private ByteString take(int length) {
    ByteString out = ByteString.copyOf(buf, pos, pos + length);
    pos += length;
    return out;
  }

  private long lengthPrefix(int prefixBytes, long min, long max, String field) {
    long len;
    switch (prefixBytes) {
      case 1: len = u8(field + " length"); break;
      case 2: len = u16(field + " length"); break;
      case 4: len = u32(field + " length"); break;
      default: throw new IllegalArgumentException("length prefix width " + prefixBytes);
    }
    if (len < min || len > max) {
      throw new DapDecodeException(field,
          "vector length " + len + " outside <" + min + ".." + max + ">");
    }
    if (len > remaining()) {
      throw new DapDecodeException(field,
          "vector length " + len + " exceeds the " + remaining() + " bytes that remain");
    }
    return len;
  }

  /** Reads {@code opaque field<min..max>} with a length prefix of 1, 2 or 4 bytes as a byte string. */
  public ByteString opaque(int prefixBytes, long min, long max, String field) {
    return take((int) lengthPrefix(prefixBytes, min, max, field));
  }

  /** Reads a vector's length prefix and returns a reader over its contents (for lists of structs). */
  public DapReader subVector(int prefixBytes, long min, long max, String field) {
    int len = (int) lengthPrefix(prefixBytes, min, max, field);
    DapReader sub = new DapReader(buf, pos, pos + len);
    pos += len;
    return sub;
  }

  /** Throws {@link DapDecodeException} if any bytes are left after {@code what}. */
  public void finish(String what) {
    if (pos != end) {
      throw new DapDecodeException(what, (end - pos) + " trailing bytes");
    }
  }
}
