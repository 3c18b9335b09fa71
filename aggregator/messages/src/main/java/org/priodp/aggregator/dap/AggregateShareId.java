package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The identifier of an aggregate-share resource, selected by the Helper (DAP-18 "Obtaining
 * Aggregate Shares", "Resource Creation"); the spec leaves its length open, this project uses 16
 * bytes, shown in URLs in URL-safe unpadded base64 (DAP-18 "HTTP Usage").
 */
public record AggregateShareId(ByteString value) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 16;

  /** Validates the length. */
  public AggregateShareId {
    Octets.checkFixed(value, LENGTH, "aggregate_share_id");
  }

  /** Returns the ID holding a copy of {@code bytes}; IllegalArgumentException if not LENGTH. */
  public AggregateShareId(byte[] bytes) {
    this(Octets.of(bytes, "aggregate_share_id"));
  }

  /** Returns a copy of the 16 bytes. */
  public byte[] bytes() {
    return value.toByteArray();
  }

  /** Returns a fresh random identifier drawn from the given source. */
  public static AggregateShareId random(java.security.SecureRandom random) {
    byte[] b = new byte[LENGTH];
    random.nextBytes(b);
    return new AggregateShareId(b);
  }

  /** Returns the URL-safe, unpadded base64 form used in resource URLs. */
  public String toBase64Url() {
    return value.toBase64Url();
  }

  /** Parses the URL-safe, unpadded base64 form; throws DapDecodeException if malformed. */
  public static AggregateShareId fromBase64Url(String text) {
    ByteString b = Octets.fromBase64Url(text, "aggregate_share_id");
    return Decoding.build("aggregate_share_id", () -> new AggregateShareId(b));
  }

  /** Returns the 16 bytes. */
  public byte[] encode() {
    return value.toByteArray();
  }

  /** Decodes exactly 16 bytes. */
  public static AggregateShareId decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "AggregateShareID", r -> read(r, "aggregate_share_id"));
  }

  static AggregateShareId read(DapReader r, String field) {
    return new AggregateShareId(r.opaqueFixed(LENGTH, field));
  }

  void write(DapWriter w) {
    w.raw(value);
  }

  @Override
  public String toString() {
    return "AggregateShareId[" + toBase64Url() + "]";
  }
}
