package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The Leader's first verification message for one report, {@code struct { ReportShare
 * report_share; opaque payload<1..2^32-1>; } VerifyInit} (DAP-18 "Leader Initialization"; called
 * PrepareInit before DAP-17 renamed preparation to verification). The payload is the Leader's
 * outbound ping-pong message ({@link PingPongMessage}, normally {@code initialize}); it is kept
 * opaque here because a malformed one rejects only this report ({@code vdaf_verify_error}).
 */
public record VerifyInit(ReportShare reportShare, ByteString payload) {
  /** Validates the fields. */
  public VerifyInit {
    Objects.requireNonNull(reportShare, "report_share");
    Octets.checkVector(payload, 1, 0xffffffffL, "payload");
  }

  /** Returns the message holding a copy of {@code payload}. */
  public VerifyInit(ReportShare reportShare, byte[] payload) {
    this(reportShare, Octets.of(payload, "payload"));
  }

  /** Returns the report ID of the report share. */
  public ReportId reportId() {
    return reportShare.reportId();
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes one VerifyInit with nothing after it. */
  public static VerifyInit decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "VerifyInit", r -> read(r, "verify_init"));
  }

  static VerifyInit read(DapReader r, String field) {
    ReportShare share = ReportShare.read(r, field + ".report_share");
    ByteString payload = r.opaque(4, 1, 0xffffffffL, field + ".payload");
    return new VerifyInit(share, payload);
  }

  void write(DapWriter w) {
    reportShare.write(w);
    w.vector(4, 1, 0xffffffffL, payload);
  }
}
