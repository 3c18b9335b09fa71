package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.List;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Leader's answer to a partly or wholly failed upload, {@code struct { ReportUploadStatus
 * status[message_length]; } UploadErrors} (DAP-18 "Upload Request", "Leader Behavior"), media type
 * {@code application/ppm-dap;message=upload-errors}: 17-byte statuses concatenated to the end of the
 * HTTP content, in the order of the request's reports. (A fully accepted upload gets an empty body
 * instead, which this codec would read as an empty list.)
 */
public record UploadErrors(List<ReportUploadStatus> status) {
  /** Copies the list; null entries are rejected. */
  public UploadErrors {
    status = List.copyOf(status);
  }

  /** Returns the encoding: the concatenated statuses, errors coded as {@code version}. */
  public byte[] encode(DapVersion version) {
    DapWriter w = new DapWriter();
    for (ReportUploadStatus s : status) {
      s.write(w, version);
    }
    return w.toByteArray();
  }

  /**
   * Decodes a whole response body, reading errors as {@code version}; throws only
   * {@link DapDecodeException}.
   */
  public static UploadErrors decode(byte[] encoded, DapVersion version) {
    return Decoding.decodeAll(encoded, "UploadErrors", r -> read(r, version));
  }

  private static UploadErrors read(DapReader r, DapVersion version) {
    List<ReportUploadStatus> out = new ArrayList<>();
    while (r.remaining() > 0) {
      out.add(ReportUploadStatus.read(r, "status[" + out.size() + "]", version));
    }
    return new UploadErrors(out);
  }
}
