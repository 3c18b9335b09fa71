package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The identifier of a collection job, selected by the Leader when the Collector POSTs a
 * CollectionJobReq (DAP-18 "Collection Job Initialization", "Resource Creation"); the spec leaves
 * its length open, this project uses 16 bytes, shown in URLs in URL-safe unpadded base64 (DAP-18
 * "HTTP Usage").
 */
public record CollectionJobId(ByteString value) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 16;

  /** Validates the length. */
  public CollectionJobId {
    Octets.checkFixed(value, LENGTH, "collection_job_id");
  }

  /** Returns the ID holding a copy of {@code bytes}; IllegalArgumentException if not LENGTH. */
  public CollectionJobId(byte[] bytes) {
    this(Octets.of(bytes, "collection_job_id"));
  }

  /** Returns a copy of the 16 bytes. */
  public byte[] bytes() {
    return value.toByteArray();
  }

  /** Returns a fresh random identifier drawn from the given source. */
  public static CollectionJobId random(java.security.SecureRandom random) {
    byte[] b = new byte[LENGTH];
    random.nextBytes(b);
    return new CollectionJobId(b);
  }

  /** Returns the URL-safe, unpadded base64 form used in resource URLs. */
  public String toBase64Url() {
    return value.toBase64Url();
  }

  /** Parses the URL-safe, unpadded base64 form; throws DapDecodeException if malformed. */
  public static CollectionJobId fromBase64Url(String text) {
    ByteString b = Octets.fromBase64Url(text, "collection_job_id");
    return Decoding.build("collection_job_id", () -> new CollectionJobId(b));
  }

  /** Returns the 16-byte encoding. */
  public byte[] encode() {
    return value.toByteArray();
  }

  /** Decodes exactly 16 bytes. */
  public static CollectionJobId decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "CollectionJobID", r -> read(r, "collection_job_id"));
  }

  static CollectionJobId read(DapReader r, String field) {
    return new CollectionJobId(r.opaqueFixed(LENGTH, field));
  }

  void write(DapWriter w) {
    w.raw(value);
  }

  @Override
  public String toString() {
    return "CollectionJobId[" + toBase64Url() + "]";
  }
}
