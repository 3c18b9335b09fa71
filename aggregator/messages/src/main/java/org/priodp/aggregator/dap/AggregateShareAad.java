package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The HPKE associated data of an aggregate share, {@code struct { TaskID task_id;
 * TaskConfiguration task_configuration; CollectionJobReq collection_job_req; } AggregateShareAad}
 * (DAP-18 "Aggregate Share Encryption").
 */
public record AggregateShareAad(TaskId taskId, TaskConfiguration taskConfiguration,
    CollectionJobReq collectionJobReq) {
  /** Rejects null fields. */
  public AggregateShareAad {
    Objects.requireNonNull(taskId, "task_id");
    Objects.requireNonNull(taskConfiguration, "task_configuration");
    Objects.requireNonNull(collectionJobReq, "collection_job_req");
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    taskId.write(w);
    taskConfiguration.write(w);
    collectionJobReq.write(w);
    return w.toByteArray();
  }

  /** Decodes one AggregateShareAad with nothing after it. */
  public static AggregateShareAad decode(byte[] encoded, DapVersion version) {
    return Decoding.decodeAll(encoded, "AggregateShareAad", r -> new AggregateShareAad(
        TaskId.read(r, "task_id"), TaskConfiguration.read(r, "task_configuration", version),
        CollectionJobReq.read(r, "collection_job_req")));
  }
}
