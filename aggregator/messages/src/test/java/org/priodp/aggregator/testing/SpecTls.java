package org.priodp.aggregator.testing;

import java.io.ByteArrayOutputStream;

/**
 * A TLS presentation language writer (RFC 8446 section 3: big-endian integers, length-prefixed
 * vectors) for tests that play a DAP-18 peer written from the spec's struct definitions, so that
 * what they send or check does not come from the project's own codec.
 */
public final class SpecTls {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /** Writes a uint8. */
  public SpecTls u8(int v) {
    out.write(v);
    return this;
  }

  /** Writes a uint16. */
  public SpecTls u16(int v) {
    return u8(v >>> 8).u8(v & 0xff);
  }

  /** Writes a uint32. */
  public SpecTls u32(long v) {
    return u16((int) (v >>> 16)).u16((int) (v & 0xffff));
  }

  /** Writes a uint64. */
  public SpecTls u64(long v) {
    return u32(v >>> 32).u32(v & 0xffffffffL);
  }

  /** Writes bytes as they are (a fixed-length field). */
  public SpecTls raw(byte[] b) {
    out.writeBytes(b);
    return this;
  }

  /** Writes {@code opaque x<0..2^8-1>}. */
  public SpecTls opaque8(byte[] b) {
    return u8(b.length).raw(b);
  }

  /** Writes {@code opaque x<0..2^16-1>}. */
  public SpecTls opaque16(byte[] b) {
    return u16(b.length).raw(b);
  }

  /** Writes {@code opaque x<0..2^32-1>}. */
  public SpecTls opaque32(byte[] b) {
    return u32(b.length).raw(b);
  }

  /** Returns what was written. */
  public byte[] bytes() {
    return out.toByteArray();
  }
}
