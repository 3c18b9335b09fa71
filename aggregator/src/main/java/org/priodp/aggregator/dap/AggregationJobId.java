package org.priodp.aggregator.dap;

import java.util.Arrays;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The identifier of an aggregation job, selected by the Helper when the Leader POSTs an
 * AggregationJobInitReq (DAP-18 "Verifying and Aggregating Reports", "Resource Creation"); the
 * spec leaves its length open, this project uses 16 bytes as the spec's example does ("95 ce da
 * 51 ..."), shown in URLs in URL-safe unpadded base64 (DAP-18 "HTTP Usage").
 */
public record AggregationJobId(byte[] bytes) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 16;

  /** Validates the length and copies the bytes. */
  public AggregationJobId {
    bytes = Octets.checkFixed(bytes, LENGTH, "aggregation_job_id");
  }

  /** Returns a copy of the 16 bytes. */
  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** Returns a fresh random identifier drawn from the given source. */
  public static AggregationJobId random(java.security.SecureRandom random) {
    byte[] b = new byte[LENGTH];
    random.nextBytes(b);
    return new AggregationJobId(b);
  }

  /** Returns the URL-safe, unpadded base64 form used in resource URLs. */
  public String toBase64Url() {
    return Octets.toBase64Url(bytes);
  }

  /** Parses the URL-safe, unpadded base64 form; throws DapDecodeException if malformed. */
  public static AggregationJobId fromBase64Url(String text) {
    byte[] b = Octets.fromBase64Url(text, "aggregation_job_id");
    return Decoding.build("aggregation_job_id", () -> new AggregationJobId(b));
  }

  /** Returns the 16-byte encoding. */
  public byte[] encode() {
    return bytes.clone();
  }

  /** Decodes exactly 16 bytes. */
  public static AggregationJobId decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "AggregationJobID", r -> read(r, "aggregation_job_id"));
  }

  static AggregationJobId read(DapReader r, String field) {
    return new AggregationJobId(r.fixed(LENGTH, field));
  }

  void write(DapWriter w) {
    w.raw(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AggregationJobId other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "AggregationJobId[" + toBase64Url() + "]";
  }
}
