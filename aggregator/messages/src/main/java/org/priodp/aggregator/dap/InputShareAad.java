package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The HPKE associated data of an input share, {@code struct { TaskID task_id; TaskConfiguration
 * task_configuration; ReportMetadata report_metadata; opaque public_share<0..2^32-1>; }
 * InputShareAad} (DAP-18 "Upload Request", "Client Behavior", and "Input Share Decryption").
 */
public record InputShareAad(TaskId taskId, TaskConfiguration taskConfiguration,
    ReportMetadata reportMetadata, ByteString publicShare) {
  /** Validates the fields. */
  public InputShareAad {
    Objects.requireNonNull(taskId, "task_id");
    Objects.requireNonNull(taskConfiguration, "task_configuration");
    Objects.requireNonNull(reportMetadata, "report_metadata");
    Octets.checkVector(publicShare, 0, 0xffffffffL, "public_share");
  }

  /** Returns the AAD holding a copy of the public share. */
  public InputShareAad(TaskId taskId, TaskConfiguration taskConfiguration,
      ReportMetadata reportMetadata, byte[] publicShare) {
    this(taskId, taskConfiguration, reportMetadata, Octets.of(publicShare, "public_share"));
  }

  /** Returns the AAD an Aggregator uses to open the input share of a report share. */
  public static InputShareAad of(TaskId taskId, TaskConfiguration taskConfiguration,
      ReportShare reportShare) {
    return new InputShareAad(taskId, taskConfiguration, reportShare.reportMetadata(),
        reportShare.publicShare());
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    taskId.write(w);
    taskConfiguration.write(w);
    reportMetadata.write(w);
    w.vector(4, 0, 0xffffffffL, publicShare);
    return w.toByteArray();
  }

  /** Decodes one InputShareAad with nothing after it. */
  public static InputShareAad decode(byte[] encoded, DapVersion version) {
    return Decoding.decodeAll(encoded, "InputShareAad", r -> read(r, version));
  }

  private static InputShareAad read(DapReader r, DapVersion version) {
    TaskId id = TaskId.read(r, "task_id");
    TaskConfiguration config = TaskConfiguration.read(r, "task_configuration", version);
    ReportMetadata metadata = ReportMetadata.read(r, "report_metadata");
    ByteString publicShare = r.opaque(4, 0, 0xffffffffL, "public_share");
    return new InputShareAad(id, config, metadata, publicShare);
  }
}
