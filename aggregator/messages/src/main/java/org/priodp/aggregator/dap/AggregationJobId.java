package org.priodp.aggregator.dap;

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
public record AggregationJobId(ByteString value) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 16;

  /** Validates the length. */
  public AggregationJobId {
    Octets.checkFixed(value, LENGTH, "aggregation_job_id");
  }

  /** Returns the ID holding a copy of {@code bytes}; IllegalArgumentException if not LENGTH. */
  public AggregationJobId(byte[] bytes) {
    this(Octets.of(bytes, "aggregation_job_id"));
  }

  /** Returns a copy of the 16 bytes. */
  public byte[] bytes() {
    return value.toByteArray();
  }

  /** Returns a fresh random identifier drawn from the given source. */
  public static AggregationJobId random(java.security.SecureRandom random) {
    byte[] b = new byte[LENGTH];
    random.nextBytes(b);
    return new AggregationJobId(b);
  }

  /** Returns the URL-safe, unpadded base64 form used in resource URLs. */
  public String toBase64Url() {
    return value.toBase64Url();
  }

  /** Parses the URL-safe, unpadded base64 form; throws DapDecodeException if malformed. */
  public static AggregationJobId fromBase64Url(String text) {
    ByteString b = Octets.fromBase64Url(text, "aggregation_job_id");
    return Decoding.build("aggregation_job_id", () -> new AggregationJobId(b));
  }

  /** Returns the 16-byte encoding. */
  public byte[] encode() {
    return value.toByteArray();
  }

  /** Decodes exactly 16 bytes. */
  public static AggregationJobId decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "AggregationJobID", r -> read(r, "aggregation_job_id"));
  }

  static AggregationJobId read(DapReader r, String field) {
    return new AggregationJobId(r.opaqueFixed(LENGTH, field));
  }

  void write(DapWriter w) {
    w.raw(value);
  }

  @Override
  public String toString() {
    return "AggregationJobId[" + toBase64Url() + "]";
  }
}
