package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.List;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * A Client's upload, {@code struct { Report reports[message_length]; } UploadRequest} (DAP-18
 * "Upload Request"), media type {@code application/ppm-dap;message=upload-req}: the reports are
 * concatenated without a length prefix and run to the end of the HTTP content, so the body is
 * exactly a sequence of whole Reports. The spec sets no minimum; an empty body decodes to an empty
 * upload. Duplicate report IDs are not a decoding matter (the Leader discards replays per report).
 */
public record UploadRequest(List<Report> reports) {
  /** Copies the list; null entries are rejected. */
  public UploadRequest {
    reports = List.copyOf(reports);
  }

  /** Returns the encoding: the concatenated Reports. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    for (Report r : reports) {
      r.write(w);
    }
    return w.toByteArray();
  }

  /** Decodes a whole request body; throws only {@link DapDecodeException}. */
  public static UploadRequest decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "UploadRequest", UploadRequest::read);
  }

  private static UploadRequest read(DapReader r) {
    List<Report> out = new ArrayList<>();
    while (r.remaining() > 0) {
      out.add(Report.read(r, "reports[" + out.size() + "]"));
    }
    return new UploadRequest(out);
  }
}
