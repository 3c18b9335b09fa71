package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The Leader's next verification message for one report, {@code struct { ReportID report_id;
 * opaque payload<1..2^32-1>; } VerifyContinue} (DAP-18 "Leader Continuation"; PrepareContinue
 * before DAP-17); the payload is the Leader's outbound {@link PingPongMessage}.
 */
public record VerifyContinue(ReportId reportId, ByteString payload) {
  /** Validates the fields. */
  public VerifyContinue {
    Objects.requireNonNull(reportId, "report_id");
    Octets.checkVector(payload, 1, 0xffffffffL, "payload");
  }

  /** Returns the message holding a copy of {@code payload}. */
  public VerifyContinue(ReportId reportId, byte[] payload) {
    this(reportId, Octets.of(payload, "payload"));
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes one VerifyContinue with nothing after it. */
  public static VerifyContinue decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "VerifyContinue", r -> read(r, "verify_continue"));
  }

  static VerifyContinue read(DapReader r, String field) {
    ReportId id = ReportId.read(r, field + ".report_id");
    return new VerifyContinue(id, r.opaque(4, 1, 0xffffffffL, field + ".payload"));
  }

  void write(DapWriter w) {
    reportId.write(w);
    w.vector(4, 1, 0xffffffffL, payload);
  }
}
