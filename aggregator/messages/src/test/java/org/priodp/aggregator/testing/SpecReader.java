package org.priodp.aggregator.testing;

import java.nio.ByteBuffer;

/**
 * A TLS presentation language reader (RFC 8446 section 3) for tests that decode what the project
 * sent from the spec's struct definitions, without the project's codec.
 */
public final class SpecReader {
  private final ByteBuffer b;

  /** Reads from the bytes. */
  public SpecReader(byte[] bytes) {
    b = ByteBuffer.wrap(bytes);
  }

  /** Reads a uint8. */
  public int u8() {
    return b.get() & 0xff;
  }

  /** Reads a uint16. */
  public int u16() {
    return b.getShort() & 0xffff;
  }

  /** Reads a uint32. */
  public long u32() {
    return b.getInt() & 0xffffffffL;
  }

  /** Reads a uint64. */
  public long u64() {
    return b.getLong();
  }

  /** Reads n bytes. */
  public byte[] raw(int n) {
    byte[] out = new byte[n];
    b.get(out);
    return out;
  }

  /** Reads {@code opaque x<0..2^16-1>}. */
  public byte[] opaque16() {
    return raw(u16());
  }

  /** Reads {@code opaque x<0..2^32-1>}. */
  public byte[] opaque32() {
    return raw((int) u32());
  }

  /** Returns how many bytes are left. */
  public int remaining() {
    return b.remaining();
  }
}
