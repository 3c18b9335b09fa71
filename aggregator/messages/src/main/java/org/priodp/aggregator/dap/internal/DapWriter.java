package org.priodp.aggregator.dap.internal;

import java.io.ByteArrayOutputStream;
import org.priodp.aggregator.dap.ByteString;

/**
 * Writes TLS presentation-language values (RFC 8446 section 3, as used by DAP-18 "Presentation
 * Language"): big-endian unsigned integers and length-prefixed vectors whose bounds are checked.
 */
public final class DapWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /** Writes a uint8; the value must be in [0, 255]. */
  public DapWriter u8(int v) {
    if (v < 0 || v > 0xff) {
      throw new IllegalArgumentException("uint8 out of range: " + v);
    }
    out.write(v);
    return this;
  }

  /** Writes a big-endian uint16; the value must be in [0, 65535]. */
  public DapWriter u16(int v) {
    if (v < 0 || v > 0xffff) {
      throw new IllegalArgumentException("uint16 out of range: " + v);
    }
    out.write(v >>> 8);
    out.write(v);
    return this;
  }

  /** Writes a big-endian uint32; the value must be in [0, 2^32-1]. */
  public DapWriter u32(long v) {
    if (v < 0 || v > 0xffffffffL) {
      throw new IllegalArgumentException("uint32 out of range: " + v);
    }
    for (int shift = 24; shift >= 0; shift -= 8) {
      out.write((int) (v >>> shift));
    }
    return this;
  }

  /** Writes the 64 bits of v as a big-endian uint64. */
  public DapWriter u64(long v) {
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.write((int) (v >>> shift));
    }
    return this;
  }

  /** Writes raw bytes (a fixed-length array or an already encoded struct). */
  public DapWriter raw(byte[] bytes) {
    out.write(bytes, 0, bytes.length);
    return this;
  }

  /** Writes {@code opaque <min..max>}: a 1, 2 or 4 byte length prefix and the bytes. */
  public DapWriter vector(int prefixBytes, long min, long max, byte[] bytes) {
    long len = bytes.length;
    if (len < min || len > max) {
      throw new IllegalArgumentException("vector length " + len + " outside <" + min + ".." + max + ">");
    }
    switch (prefixBytes) {
      case 1: u8((int) len); break;
      case 2: u16((int) len); break;
      case 4: u32(len); break;
      default: throw new IllegalArgumentException("length prefix width " + prefixBytes);
    }
    return raw(bytes);
  }

  /** Writes a byte string as it stands (a fixed-length array such as an ID or a checksum). */
  public DapWriter raw(ByteString bytes) {
    return raw(bytes.toByteArray());
  }

  /** Writes {@code opaque <min..max>} from a byte string: a 1, 2 or 4 byte length prefix and the bytes. */
  public DapWriter vector(int prefixBytes, long min, long max, ByteString bytes) {
    return vector(prefixBytes, min, max, bytes.toByteArray());
  }

  /** Returns the bytes written so far. */
  public byte[] toByteArray() {
    return out.toByteArray();
  }
}
