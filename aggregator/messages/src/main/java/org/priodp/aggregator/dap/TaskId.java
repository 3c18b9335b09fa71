package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * A task ID, {@code opaque TaskID[32]} (DAP-18 "Task Configuration"), shown in URLs in URL-safe
 * unpadded base64 (DAP-18 "HTTP Usage").
 */
public record TaskId(ByteString value) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 32;

  /** Validates the length. */
  public TaskId {
    Octets.checkFixed(value, LENGTH, "task_id");
  }

  /** Returns the ID holding a copy of {@code bytes}; IllegalArgumentException if not LENGTH. */
  public TaskId(byte[] bytes) {
    this(Octets.of(bytes, "task_id"));
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
  public static TaskId fromBase64Url(String text) {
    ByteString b = Octets.fromBase64Url(text, "task_id");
    return Decoding.build("task_id", () -> new TaskId(b));
  }

  /** Returns the 32-byte encoding. */
  public byte[] encode() {
    return value.toByteArray();
  }

  /** Decodes exactly 32 bytes. */
  public static TaskId decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "TaskID", r -> read(r, "task_id"));
  }

  static TaskId read(DapReader r, String field) {
    return new TaskId(r.opaqueFixed(LENGTH, field));
  }

  void write(DapWriter w) {
    w.raw(value);
  }

  @Override
  public String toString() {
    return "TaskId[" + toBase64Url() + "]";
  }
}
