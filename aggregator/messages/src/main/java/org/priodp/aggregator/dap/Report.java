package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * A Client's report, {@code struct { ReportMetadata report_metadata; opaque
 * public_share<0..2^32-1>; HpkeCiphertext leader_encrypted_input_share; HpkeCiphertext
 * helper_encrypted_input_share; } Report} (DAP-18 "Upload Request").
 */
public record Report(ReportMetadata reportMetadata, ByteString publicShare,
    HpkeCiphertext leaderEncryptedInputShare, HpkeCiphertext helperEncryptedInputShare) {
  /** Validates the fields. */
  public Report {
    Objects.requireNonNull(reportMetadata, "report_metadata");
    Octets.checkVector(publicShare, 0, 0xffffffffL, "public_share");
    Objects.requireNonNull(leaderEncryptedInputShare, "leader_encrypted_input_share");
    Objects.requireNonNull(helperEncryptedInputShare, "helper_encrypted_input_share");
  }

  /** Returns the report holding a copy of the VDAF public share. */
  public Report(ReportMetadata reportMetadata, byte[] publicShare,
      HpkeCiphertext leaderEncryptedInputShare, HpkeCiphertext helperEncryptedInputShare) {
    this(reportMetadata, Octets.of(publicShare, "public_share"), leaderEncryptedInputShare,
        helperEncryptedInputShare);
  }

  /** Returns the report share the Leader forwards to the Helper (DAP-18 "Leader Initialization"). */
  public ReportShare helperReportShare() {
    return new ReportShare(reportMetadata, publicShare, helperEncryptedInputShare);
  }

  /** Returns the Leader's own report share. */
  public ReportShare leaderReportShare() {
    return new ReportShare(reportMetadata, publicShare, leaderEncryptedInputShare);
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes one Report with nothing after it. */
  public static Report decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "Report", r -> read(r, "report"));
  }

  static Report read(DapReader r, String field) {
    ReportMetadata metadata = ReportMetadata.read(r, field + ".report_metadata");
    ByteString publicShare = r.opaque(4, 0, 0xffffffffL, field + ".public_share");
    HpkeCiphertext leader = HpkeCiphertext.read(r, field + ".leader_encrypted_input_share");
    HpkeCiphertext helper = HpkeCiphertext.read(r, field + ".helper_encrypted_input_share");
    return new Report(metadata, publicShare, leader, helper);
  }

  void write(DapWriter w) {
    reportMetadata.write(w);
    w.vector(4, 0, 0xffffffffL, publicShare);
    leaderEncryptedInputShare.write(w);
    helperEncryptedInputShare.write(w);
  }
}
