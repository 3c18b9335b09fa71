package org.priodp.aggregator.dap;

import java.util.function.BiFunction;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;

/**
 * The wire form shared by Query and BatchSelector, {@code struct { BatchMode batch_mode; opaque
 * config<0..2^16-1>; }}, with the per-batch-mode {@code config} of each (DAP-18 "Time Interval"
 * and "Leader-selected Batch Mode", "Query Configuration" and "Batch Selector Configuration";
 * draft-ietf-ppm-dap-attribution-00 section 4.2 for collector-selected).
 */
final class SelectorCodec {
  private SelectorCodec() {
  }

  static byte[] encode(BatchMode mode, byte[] config) {
    return encode(mode.code(), config);
  }

  static byte[] encode(int code, byte[] config) {
    return new DapWriter().u8(code).vector(2, 0, 0xffff, config).toByteArray();
  }

  /** Rejects a collector_selected code point that is not a uint8 other than 0, 1 and 2. */
  static void checkCollectorSelected(int code) {
    if (code < 3 || code > 0xff) {
      throw new IllegalArgumentException("collector_selected: a batch mode code point is a uint8"
          + " other than 0, 1 and 2, got " + code);
    }
  }

  static Query readQuery(DapReader r, String field, int collectorSelected) {
    return read(r, field, collectorSelected, (mode, config) -> switch (mode) {
      case TIME_INTERVAL ->
          new Query.TimeInterval(Interval.read(config, field + ".config.batch_interval"));
      case LEADER_SELECTED -> new Query.LeaderSelected();
      case COLLECTOR_SELECTED -> new Query.CollectorSelected(collectorSelected);
    });
  }

  static BatchSelector readBatchSelector(DapReader r, String field, int collectorSelected) {
    return read(r, field, collectorSelected, (mode, config) -> switch (mode) {
      case TIME_INTERVAL ->
          new BatchSelector.TimeInterval(Interval.read(config, field + ".config.batch_interval"));
      case LEADER_SELECTED ->
          new BatchSelector.LeaderSelected(BatchId.read(config, field + ".config.batch_id"));
      case COLLECTOR_SELECTED -> new BatchSelector.CollectorSelected(
          BatchId.read(config, field + ".config.batch_id"), collectorSelected);
    });
  }

  /** Reads the batch mode, then the config with {@code config}, which must consume it all. */
  private static <T> T read(DapReader r, String field, int collectorSelected,
      BiFunction<BatchMode, DapReader, T> config) {
    BatchMode mode = BatchMode.fromCode(r.u8(field + ".batch_mode"), collectorSelected,
        field + ".batch_mode");
    DapReader c = r.subVector(2, 0, 0xffff, field + ".config");
    T value = config.apply(mode, c);
    c.finish(field + ".config");
    return value;
  }
}
