package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.DapReader;

/**
 * Decodes the per-batch-mode {@code config} of Query and BatchSelector (DAP-18 "Time Interval"
 * and "Leader-selected Batch Mode", "Query Configuration" and "Batch Selector Configuration").
 */
final class SelectorCodec {
  private SelectorCodec() {
  }

  static Query readQuery(DapReader r, String field) {
    BatchMode mode = BatchMode.fromCode(r.u8(field + ".batch_mode"), field + ".batch_mode");
    DapReader config = r.subVector(2, 0, 0xffff, field + ".config");
    Query q;
    if (mode == BatchMode.TIME_INTERVAL) {
      q = new Query.TimeInterval(Interval.read(config, field + ".config.batch_interval"));
    } else {
      q = new Query.LeaderSelected();
    }
    config.finish(field + ".config");
    return q;
  }

  static BatchSelector readBatchSelector(DapReader r, String field) {
    BatchMode mode = BatchMode.fromCode(r.u8(field + ".batch_mode"), field + ".batch_mode");
    DapReader config = r.subVector(2, 0, 0xffff, field + ".config");
    BatchSelector s;
    if (mode == BatchMode.TIME_INTERVAL) {
      s = new BatchSelector.TimeInterval(Interval.read(config, field + ".config.batch_interval"));
    } else {
      s = new BatchSelector.LeaderSelected(BatchId.read(config, field + ".config.batch_id"));
    }
    config.finish(field + ".config");
    return s;
  }
}
