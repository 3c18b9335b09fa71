package org.priodp.aggregator.dap;

import java.util.Arrays;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The identifier of an aggregate-share resource, selected by the Helper (DAP-18 "Obtaining
 * Aggregate Shares", "Resource Creation"); the spec leaves its length open, this project uses 16
 * bytes, shown in URLs in URL-safe unpadded base64 (DAP-18 "HTTP Usage").
 */
public record AggregateShareId(byte[] bytes) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 16;

  /** Validates the length and copies the bytes. */
  public AggregateShareId {
    bytes = Octets.checkFixed(bytes, LENGTH, "aggregate_share_id");
  }

  /** Returns a copy of the 16 bytes. */
  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** Returns a fresh random identifier drawn from the given source. */
  public static AggregateShareId random(java.security.SecureRandom random) {
    byte[] b = new byte[LENGTH];
    random.nextBytes(b);
    return new AggregateShareId(b);
  }

  /** Returns the URL-safe, unpadded base64 form used in resource URLs. */
  public String toBase64Url() {
    return Octets.toBase64Url(bytes);
  }

  /** Parses the URL-safe, unpadded base64 form; throws DapDecodeException if malformed. */
  public static AggregateShareId fromBase64Url(String text) {
    byte[] b = Octets.fromBase64Url(text, "aggregate_share_id");
    return Decoding.build("aggregate_share_id", () -> new AggregateShareId(b));
  }

  /** Returns the 16 bytes. */
  public byte[] encode() {
    return bytes.clone();
  }

  /** Decodes exactly 16 bytes. */
  public static AggregateShareId decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "AggregateShareID", r -> read(r, "aggregate_share_id"));
  }

  static AggregateShareId read(DapReader r, String field) {
    return new AggregateShareId(r.fixed(LENGTH, field));
  }

  void write(DapWriter w) {
    w.raw(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AggregateShareId other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "AggregateShareId[" + toBase64Url() + "]";
  }
}
