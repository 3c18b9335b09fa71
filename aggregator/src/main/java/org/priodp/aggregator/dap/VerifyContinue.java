package org.priodp.aggregator.dap;

import java.util.Arrays;
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
public record VerifyContinue(ReportId reportId, byte[] payload) {
  /** Validates and copies the fields. */
  public VerifyContinue {
    Objects.requireNonNull(reportId, "report_id");
    payload = Octets.checkVector(payload, 1, 0xffffffffL, "payload");
  }

  /** Returns a copy of the encoded ping-pong message. */
  @Override
  public byte[] payload() {
    return payload.clone();
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
    return new VerifyContinue(id, r.vector(4, 1, 0xffffffffL, field + ".payload"));
  }

  void write(DapWriter w) {
    reportId.write(w);
    w.vector(4, 1, 0xffffffffL, payload);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VerifyContinue v && v.reportId.equals(reportId)
        && Arrays.equals(v.payload, payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(reportId, Arrays.hashCode(payload));
  }

  @Override
  public String toString() {
    return "VerifyContinue[" + reportId + ", payload=" + Octets.hex(payload) + "]";
  }
}
