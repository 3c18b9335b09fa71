package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * One Aggregator's share of a report, {@code struct { ReportMetadata report_metadata; opaque
 * public_share<0..2^32-1>; HpkeCiphertext encrypted_input_share; } ReportShare} (DAP-18 "Leader
 * Initialization").
 */
public record ReportShare(ReportMetadata reportMetadata, ByteString publicShare,
    HpkeCiphertext encryptedInputShare) {
  /** Validates the fields. */
  public ReportShare {
    Objects.requireNonNull(reportMetadata, "report_metadata");
    Octets.checkVector(publicShare, 0, 0xffffffffL, "public_share");
    Objects.requireNonNull(encryptedInputShare, "encrypted_input_share");
  }

  /** Returns the report share holding a copy of the VDAF public share. */
  public ReportShare(ReportMetadata reportMetadata, byte[] publicShare,
      HpkeCiphertext encryptedInputShare) {
    this(reportMetadata, Octets.of(publicShare, "public_share"), encryptedInputShare);
  }

  /** Returns the report ID from the metadata. */
  public ReportId reportId() {
    return reportMetadata.reportId();
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes one ReportShare with nothing after it. */
  public static ReportShare decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "ReportShare", r -> read(r, "report_share"));
  }

  static ReportShare read(DapReader r, String field) {
    ReportMetadata metadata = ReportMetadata.read(r, field + ".report_metadata");
    ByteString publicShare = r.opaque(4, 0, 0xffffffffL, field + ".public_share");
    HpkeCiphertext share = HpkeCiphertext.read(r, field + ".encrypted_input_share");
    return new ReportShare(metadata, publicShare, share);
  }

  void write(DapWriter w) {
    reportMetadata.write(w);
    w.vector(4, 0, 0xffffffffL, publicShare);
    encryptedInputShare.write(w);
  }
}
