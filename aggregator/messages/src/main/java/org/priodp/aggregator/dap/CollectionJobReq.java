package org.priodp.aggregator.dap;

import java.util.List;
import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The Collector's collection request, {@code struct { Query query; opaque agg_param<0..2^32-1>;
 * CollectionJobExtension extensions<0..2^16-1>; } CollectionJobReq} (DAP-18 "Collection Job
 * Initialization"); extension types must be strictly increasing (DAP-18 "Collection Job
 * Extensions", else {@code invalidExtension}).
 */
public record CollectionJobReq(Query query, ByteString aggParam,
    List<CollectionJobExtension> extensions) {
  /** Validates the fields and copies the list. */
  public CollectionJobReq {
    Objects.requireNonNull(query, "query");
    Octets.checkVector(aggParam, 0, 0xffffffffL, "agg_param");
    extensions = CollectionJobExtension.LIST.checkList(extensions, "extensions");
  }

  /** Returns the request holding a copy of the aggregation parameter. */
  public CollectionJobReq(Query query, byte[] aggParam, List<CollectionJobExtension> extensions) {
    this(query, Octets.of(aggParam, "agg_param"), extensions);
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes one CollectionJobReq with nothing after it. */
  public static CollectionJobReq decode(byte[] encoded) {
    return decode(encoded, BatchMode.DEFAULT_COLLECTOR_SELECTED);
  }

  /**
   * Decodes one CollectionJobReq with nothing after it, where collector_selected has the code
   * point {@code collectorSelected} (the task's; draft-ietf-ppm-dap-attribution-00 section 4).
   */
  public static CollectionJobReq decode(byte[] encoded, int collectorSelected) {
    return Decoding.decodeAll(encoded, "CollectionJobReq",
        r -> read(r, "collection_job_req", collectorSelected));
  }

  static CollectionJobReq read(DapReader r, String field) {
    return read(r, field, BatchMode.DEFAULT_COLLECTOR_SELECTED);
  }

  static CollectionJobReq read(DapReader r, String field, int collectorSelected) {
    Query q = SelectorCodec.readQuery(r, field + ".query", collectorSelected);
    ByteString aggParam = r.opaque(4, 0, 0xffffffffL, field + ".agg_param");
    List<CollectionJobExtension> ext = CollectionJobExtension.LIST.read(r, field + ".extensions");
    return Decoding.build(field + ".extensions", () -> new CollectionJobReq(q, aggParam, ext));
  }

  void write(DapWriter w) {
    w.raw(query.encode()).vector(4, 0, 0xffffffffL, aggParam);
    CollectionJobExtension.LIST.write(w, extensions);
  }
}
