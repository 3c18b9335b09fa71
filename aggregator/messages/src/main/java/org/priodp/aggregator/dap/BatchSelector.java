package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Leader's batch selector, {@code struct { BatchMode batch_mode; opaque config<0..2^16-1>; }
 * BatchSelector} (DAP-18 "Obtaining Aggregate Shares"). The config is parsed strictly per mode:
 * {@code TimeIntervalBatchSelectorConfig { Interval batch_interval; }} (DAP-18 "Time Interval",
 * "Batch Selector Configuration") or {@code LeaderSelectedBatchSelectorConfig { BatchID batch_id; }}
 * (DAP-18 "Leader-selected Batch Mode", "Batch Selector Configuration"); collector-selected has
 * the leader-selected config (draft-ietf-ppm-dap-attribution-00 section 4.2). Within a task a batch is
 * collected once, so the encoding of the selector serves as the batch's natural key.
 */
public sealed interface BatchSelector permits BatchSelector.TimeInterval,
    BatchSelector.LeaderSelected, BatchSelector.CollectorSelected {
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
    return decode(encoded, BatchMode.DEFAULT_COLLECTOR_SELECTED);
  }

  /** Decodes one BatchSelector where collector_selected has the code {@code collectorSelected}. */
  static BatchSelector decode(byte[] encoded, int collectorSelected) {
    return Decoding.decodeAll(encoded, "BatchSelector",
        r -> SelectorCodec.readBatchSelector(r, "batch_selector", collectorSelected));
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

  /**
   * A collector-selected selector naming the batch ID the Leader assigned to the collection job
   * (draft-ietf-ppm-dap-attribution-00 section 4.2).
   *
   * @param batchId the batch ID
   * @param code the task's code point of collector_selected
   */
  record CollectorSelected(BatchId batchId, int code) implements BatchSelector {
    /** Rejects a null batch ID and a code that is not a uint8 other than 0, 1 and 2. */
    public CollectorSelected {
      Objects.requireNonNull(batchId, "batch_id");
      SelectorCodec.checkCollectorSelected(code);
    }

    @Override
    public BatchMode batchMode() {
      return BatchMode.COLLECTOR_SELECTED;
    }

    @Override
    public byte[] config() {
      return batchId.encode();
    }

    @Override
    public byte[] encode() {
      return SelectorCodec.encode(code, config());
    }

    @Override
    public boolean isConsistentWith(Query query) {
      return query instanceof Query.CollectorSelected q && q.code() == code;
    }
  }
}
