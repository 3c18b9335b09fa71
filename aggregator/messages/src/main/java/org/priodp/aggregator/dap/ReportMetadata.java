package org.priodp.aggregator.dap;

import java.util.List;
import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * A report's public metadata, {@code struct { ReportID report_id; Time time; Extension
 * public_extensions<0..2^16-1>; } ReportMetadata} (DAP-18 "Upload Request"). The extension list
 * is kept in wire order; its ordering rule is checked per report by
 * {@link ReportExtension#validate} (see there why decoding does not reject it).
 */
public record ReportMetadata(ReportId reportId, Time time, List<ReportExtension> publicExtensions) {
  /** Validates and copies the fields. */
  public ReportMetadata {
    Objects.requireNonNull(reportId, "report_id");
    Objects.requireNonNull(time, "time");
    publicExtensions = ReportExtension.LIST.checkList(publicExtensions, "public_extensions");
  }

  /** Returns metadata without public extensions. */
  public static ReportMetadata of(ReportId reportId, long time) {
    return new ReportMetadata(reportId, new Time(time), List.of());
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes one ReportMetadata with nothing after it. */
  public static ReportMetadata decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "ReportMetadata", r -> read(r, "report_metadata"));
  }

  static ReportMetadata read(DapReader r, String field) {
    ReportId id = ReportId.read(r, field + ".report_id");
    Time time = new Time(r.u64(field + ".time"));
    List<ReportExtension> ext = ReportExtension.LIST.read(r, field + ".public_extensions");
    return new ReportMetadata(id, time, ext);
  }

  void write(DapWriter w) {
    reportId.write(w);
    w.u64(time.value());
    ReportExtension.LIST.write(w, publicExtensions);
  }
}
