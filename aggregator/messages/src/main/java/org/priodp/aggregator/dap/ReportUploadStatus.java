package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Leader's verdict on one rejected upload, {@code struct { ReportID id; ReportError error; }
 * ReportUploadStatus} (DAP-18 "Upload Request", "Leader Behavior"); encoded as 17 bytes.
 */
public record ReportUploadStatus(ReportId id, ReportError error) {
  /** The encoded length in bytes. */
  public static final int LENGTH = ReportId.LENGTH + 1;

  /** Rejects null fields. */
  public ReportUploadStatus {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(error, "error");
  }

  /** Returns the 17-byte encoding, with the error's code point in {@code version}. */
  public byte[] encode(DapVersion version) {
    DapWriter w = new DapWriter();
    write(w, version);
    return w.toByteArray();
  }

  /** Decodes exactly one ReportUploadStatus, reading the error as {@code version}. */
  public static ReportUploadStatus decode(byte[] encoded, DapVersion version) {
    return Decoding.decodeAll(encoded, "ReportUploadStatus", r -> read(r, "status", version));
  }

  static ReportUploadStatus read(DapReader r, String field, DapVersion version) {
    ReportId id = ReportId.read(r, field + ".id");
    ReportError error = version.reportError(r.u8(field + ".error"), field + ".error");
    return new ReportUploadStatus(id, error);
  }

  void write(DapWriter w, DapVersion version) {
    id.write(w);
    w.u8(version.code(error));
  }
}
