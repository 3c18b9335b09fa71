package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Leader's batch selector, {@code struct { BatchMode batch_mode; opaque config<0..2^16-1>; }
 * BatchSelector} (DAP-18 "Obtaining Aggregate Shares"). The config is parsed strictly per mode:
 * {@code TimeIntervalBatchSelectorConfig { Interval batch_interval; }} (DAP-18 "Time Interval",
 * "Batch Selector Configuration") or {@code LeaderSelectedBatchSelectorConfig { BatchID batch_id; }}
 * (DAP-18 "Leader-selected Batch Mode", "Batch Selector Configuration"). Within a task a batch is
 * collected once, so the encoding of the selector serves as the batch's natural key.
 */
public sealed interface BatchSelector permits BatchSelector.TimeInterval, BatchSelector.LeaderSelected {
  /** Returns the batch mode of this selector. */
  BatchMode batchMode();

  /** Returns the encoded {@code config} payload. */
  byte[] config();

  /**
   * Returns true if this selector is consistent with the query (same batch mode; for time-interval,
   * the selector's interval lies within the query's; DAP-18 "Batch Selector Configuration").
   */
  boolean isConsistentWith(Query query);

  /** Returns the encoding of the whole BatchSelector. */
  default byte[] encode() {
    return SelectorCodec.encode(batchMode(), config());
  }

  /** Decodes one BatchSelector with nothing after it. */
  static BatchSelector decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "BatchSelector",
        r -> SelectorCodec.readBatchSelector(r, "batch_selector"));
  }

  /** A time-interval selector naming the batch interval. */
  record TimeInterval(Interval batchInterval) implements BatchSelector {
    /** Rejects a null interval. */
    public TimeInterval {
      Objects.requireNonNull(batchInterval, "batch_interval");
    }

    @Override
    public BatchMode batchMode() {
      return BatchMode.TIME_INTERVAL;
    }

    @Override
    public byte[] config() {
      return batchInterval.encode();
    }

    @Override
    public boolean isConsistentWith(Query query) {
      return query instanceof Query.TimeInterval q && batchInterval.isWithin(q.batchInterval());
    }
  }

  /** A leader-selected selector naming the batch ID. */
  record LeaderSelected(BatchId batchId) implements BatchSelector {
    /** Rejects a null batch ID. */
    public LeaderSelected {
      Objects.requireNonNull(batchId, "batch_id");
    }

    @Override
    public BatchMode batchMode() {
      return BatchMode.LEADER_SELECTED;
    }

    @Override
    public byte[] config() {
      return batchId.encode();
    }

    @Override
    public boolean isConsistentWith(Query query) {
      return query instanceof Query.LeaderSelected;
    }
  }
}
