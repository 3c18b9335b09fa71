package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * A report ID, {@code opaque ReportID[16]} (DAP-18 "Basic Type Definitions"), sampled by the
 * Client from a cryptographically secure generator (DAP-18 "Upload Request") and used as the VDAF
 * nonce; its URL-safe unpadded base64 form (DAP-18 "HTTP Usage") is used in logs and problem
 * documents.
 */
public record ReportId(ByteString value) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 16;

  /** Validates the length. */
  public ReportId {
    Octets.checkFixed(value, LENGTH, "report_id");
  }

  /** Returns the ID holding a copy of {@code bytes}; IllegalArgumentException if not LENGTH. */
  public ReportId(byte[] bytes) {
    this(Octets.of(bytes, "report_id"));
  }

  /** Returns a copy of the 16 bytes. */
  public byte[] bytes() {
    return value.toByteArray();
  }

  /** Returns a fresh random report ID drawn from the given source (the Client's duty). */
  public static ReportId random(java.security.SecureRandom random) {
    byte[] b = new byte[LENGTH];
    random.nextBytes(b);
    return new ReportId(b);
  }

  /** Returns the URL-safe, unpadded base64 form. */
  public String toBase64Url() {
    return value.toBase64Url();
  }

  /** Parses the URL-safe, unpadded base64 form; throws DapDecodeException if malformed. */
  public static ReportId fromBase64Url(String text) {
    ByteString b = Octets.fromBase64Url(text, "report_id");
    return Decoding.build("report_id", () -> new ReportId(b));
  }

  /** Returns the 16-byte encoding. */
  public byte[] encode() {
    return value.toByteArray();
  }

  /** Decodes exactly 16 bytes. */
  public static ReportId decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "ReportID", r -> read(r, "report_id"));
  }

  static ReportId read(DapReader r, String field) {
    return new ReportId(r.opaqueFixed(LENGTH, field));
  }

  void write(DapWriter w) {
    w.raw(value);
  }

  @Override
  public String toString() {
    return "ReportId[" + toBase64Url() + "]";
  }
}
