package org.priodp.aggregator.dap;

import java.util.Arrays;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * A task ID, {@code opaque TaskID[32]} (DAP-18 "Task Configuration"), shown in URLs in URL-safe
 * unpadded base64 (DAP-18 "HTTP Usage").
 */
public record TaskId(byte[] bytes) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 32;

  /** Validates the length and copies the bytes. */
  public TaskId {
    bytes = Octets.checkFixed(bytes, LENGTH, "task_id");
  }

  /** Returns a copy of the 32 bytes. */
  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** Returns the URL-safe, unpadded base64 form used in resource URLs. */
  public String toBase64Url() {
    return Octets.toBase64Url(bytes);
  }

  /** Parses the URL-safe, unpadded base64 form; throws DapDecodeException if malformed. */
  public static TaskId fromBase64Url(String text) {
    byte[] b = Octets.fromBase64Url(text, "task_id");
    return Decoding.build("task_id", () -> new TaskId(b));
  }

  /** Returns the 32-byte encoding. */
  public byte[] encode() {
    return bytes.clone();
  }

  /** Decodes exactly 32 bytes. */
  public static TaskId decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "TaskID", r -> read(r, "task_id"));
  }

  static TaskId read(DapReader r, String field) {
    return new TaskId(r.fixed(LENGTH, field));
  }

  void write(DapWriter w) {
    w.raw(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TaskId other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "TaskId[" + toBase64Url() + "]";
  }
}
