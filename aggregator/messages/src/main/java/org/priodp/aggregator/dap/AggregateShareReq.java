package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The Leader's request for the Helper's aggregate share, {@code struct { CollectionJobReq
 * collection_job_req; BatchSelector batch_selector; uint64 report_count; opaque checksum[32]; }
 * AggregateShareReq} (DAP-18 "Obtaining Aggregate Shares"), media type
 * {@code application/ppm-dap;message=aggregate-share-req}. {@code reportCount} holds a uint64
 * (read it with {@link Long#toUnsignedString(long)}).
 */
public record AggregateShareReq(CollectionJobReq collectionJobReq, BatchSelector batchSelector,
    long reportCount, ByteString checksum) {
  /** The length of the batch checksum in bytes. */
  public static final int CHECKSUM_LENGTH = 32;

  /** Validates the fields. */
  public AggregateShareReq {
    Objects.requireNonNull(collectionJobReq, "collection_job_req");
    Objects.requireNonNull(batchSelector, "batch_selector");
    Octets.checkFixed(checksum, CHECKSUM_LENGTH, "checksum");
  }

  /** Returns the request holding a copy of the checksum. */
  public AggregateShareReq(CollectionJobReq collectionJobReq, BatchSelector batchSelector,
      long reportCount, byte[] checksum) {
    this(collectionJobReq, batchSelector, reportCount, Octets.of(checksum, "checksum"));
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    collectionJobReq.write(w);
    w.raw(batchSelector.encode()).u64(reportCount).raw(checksum);
    return w.toByteArray();
  }

  /** Decodes one AggregateShareReq with nothing after it; throws only {@link DapDecodeException}. */
  public static AggregateShareReq decode(byte[] encoded) {
    return decode(encoded, BatchMode.DEFAULT_COLLECTOR_SELECTED);
  }

  /**
   * Decodes one AggregateShareReq with nothing after it, where collector_selected has the code
   * point {@code collectorSelected} (the task's; draft-ietf-ppm-dap-attribution-00 section 4).
   */
  public static AggregateShareReq decode(byte[] encoded, int collectorSelected) {
    return Decoding.decodeAll(encoded, "AggregateShareReq", r -> read(r, collectorSelected));
  }

  private static AggregateShareReq read(DapReader r, int collectorSelected) {
    CollectionJobReq c = CollectionJobReq.read(r, "collection_job_req", collectorSelected);
    BatchSelector s = SelectorCodec.readBatchSelector(r, "batch_selector", collectorSelected);
    long count = r.u64("report_count");
    ByteString sum = r.opaqueFixed(CHECKSUM_LENGTH, "checksum");
    return new AggregateShareReq(c, s, count, sum);
  }

  /** Shows report_count as the uint64 it is. */
  @Override
  public String toString() {
    return "AggregateShareReq[" + collectionJobReq + ", " + batchSelector + ", reportCount="
        + Long.toUnsignedString(reportCount) + ", checksum=" + checksum + "]";
  }
}
