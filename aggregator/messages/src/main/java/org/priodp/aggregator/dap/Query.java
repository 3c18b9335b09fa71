package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Collector's query, {@code struct { BatchMode batch_mode; opaque config<0..2^16-1>; } Query}
 * (DAP-18 "Collection Job Initialization"). The config is parsed strictly per batch mode:
 * {@code TimeIntervalQueryConfig { Interval batch_interval; }} (DAP-18 "Time Interval", "Query
 * Configuration") or empty for leader-selected (DAP-18 "Leader-selected Batch Mode", "Query
 * Configuration") and for collector-selected (draft-ietf-ppm-dap-attribution-00 section 4.2).
 */
public sealed interface Query permits Query.TimeInterval, Query.LeaderSelected,
    Query.CollectorSelected {
  /** Returns the batch mode of this query. */
  BatchMode batchMode();

  /** Returns the encoded {@code config} payload. */
  byte[] config();

  /** Returns the encoding of the whole Query. */
  default byte[] encode() {
    return SelectorCodec.encode(batchMode(), config());
  }

  /** Decodes one Query with nothing after it. */
  static Query decode(byte[] encoded) {
    return decode(encoded, BatchMode.DEFAULT_COLLECTOR_SELECTED);
  }

  /** Decodes one Query where collector_selected has the code point {@code collectorSelected}. */
  static Query decode(byte[] encoded, int collectorSelected) {
    return Decoding.decodeAll(encoded, "Query",
        r -> SelectorCodec.readQuery(r, "query", collectorSelected));
  }

  /** A time-interval query for the batch interval chosen by the Collector. */
  record TimeInterval(Interval batchInterval) implements Query {
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
  }

  /** A leader-selected query: "give me the next batch"; its config is empty. */
  record LeaderSelected() implements Query {
    @Override
    public BatchMode batchMode() {
      return BatchMode.LEADER_SELECTED;
    }

    @Override
    public byte[] config() {
      return new byte[0];
    }
  }

  /**
   * A collector-selected query (draft-ietf-ppm-dap-attribution-00 section 4.2): its config is
   * empty; the batch is the reports uploaded to the collection job.
   *
   * @param code the task's code point of collector_selected
   */
  record CollectorSelected(int code) implements Query {
    /** Rejects a code that is not a uint8 other than 0, 1 and 2. */
    public CollectorSelected {
      SelectorCodec.checkCollectorSelected(code);
    }

    /** Returns the query under prio-dp's default code point. */
    public CollectorSelected() {
      this(BatchMode.DEFAULT_COLLECTOR_SELECTED);
    }

    @Override
    public BatchMode batchMode() {
      return BatchMode.COLLECTOR_SELECTED;
    }

    @Override
    public byte[] config() {
      return new byte[0];
    }

    @Override
    public byte[] encode() {
      return SelectorCodec.encode(code, config());
    }
  }
}
