package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * A batch ID, {@code opaque BatchID[32]} (DAP-18 "Leader-selected Batch Mode"), chosen by the
 * Leader; its URL-safe unpadded base64 form is used in logs and problem documents.
 */
public record BatchId(ByteString value) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 32;

  /** Validates the length. */
  public BatchId {
    Octets.checkFixed(value, LENGTH, "batch_id");
  }

  /** Returns the ID holding a copy of {@code bytes}; IllegalArgumentException if not LENGTH. */
  public BatchId(byte[] bytes) {
    this(Octets.of(bytes, "batch_id"));
  }

  /** Returns a copy of the 32 bytes. */
  public byte[] bytes() {
    return value.toByteArray();
  }

  /** Returns the URL-safe, unpadded base64 form used in resource URLs. */
  public String toBase64Url() {
    return value.toBase64Url();
  }

  /** Parses the URL-safe, unpadded base64 form; throws DapDecodeException if malformed. */
  public static BatchId fromBase64Url(String text) {
    ByteString b = Octets.fromBase64Url(text, "batch_id");
    return Decoding.build("batch_id", () -> new BatchId(b));
  }

  /** Returns the 32-byte encoding. */
  public byte[] encode() {
    return value.toByteArray();
  }

  /** Decodes exactly 32 bytes. */
  public static BatchId decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "BatchID", r -> read(r, "batch_id"));
  }

  static BatchId read(DapReader r, String field) {
    return new BatchId(r.opaqueFixed(LENGTH, field));
  }

  void write(DapWriter w) {
    w.raw(value);
  }

  @Override
  public String toString() {
    return "BatchId[" + toBase64Url() + "]";
  }
}
