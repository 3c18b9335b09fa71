package org.priodp.aggregator.dap;

import java.util.function.BiFunction;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;

/**
 * The wire form shared by Query and BatchSelector, {@code struct { BatchMode batch_mode; opaque
 * config<0..2^16-1>; }}, with the per-batch-mode {@code config} of each (DAP-18 "Time Interval"
 * and "Leader-selected Batch Mode", "Query Configuration" and "Batch Selector Configuration").
 */
final class SelectorCodec {
  private SelectorCodec() {
  }

  static byte[] encode(BatchMode mode, byte[] config) {
    return new DapWriter().u8(mode.code()).vector(2, 0, 0xffff, config).toByteArray();
  }

  static Query readQuery(DapReader r, String field) {
    return read(r, field, (mode, config) -> mode == BatchMode.TIME_INTERVAL
        ? new Query.TimeInterval(Interval.read(config, field + ".config.batch_interval"))
        : new Query.LeaderSelected());
  }

  static BatchSelector readBatchSelector(DapReader r, String field) {
    return read(r, field, (mode, config) -> mode == BatchMode.TIME_INTERVAL
        ? new BatchSelector.TimeInterval(Interval.read(config, field + ".config.batch_interval"))
        : new BatchSelector.LeaderSelected(BatchId.read(config, field + ".config.batch_id")));
  }

  /** Reads the batch mode, then the config with {@code config}, which must consume it all. */
  private static <T> T read(DapReader r, String field,
      BiFunction<BatchMode, DapReader, T> config) {
    BatchMode mode = BatchMode.fromCode(r.u8(field + ".batch_mode"), field + ".batch_mode");
    DapReader c = r.subVector(2, 0, 0xffff, field + ".config");
    T value = config.apply(mode, c);
    c.finish(field + ".config");
    return value;
  }
}
