package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Collector's query, {@code struct { BatchMode batch_mode; opaque config<0..2^16-1>; } Query}
 * (DAP-18 "Collection Job Initialization"). The config is parsed strictly per batch mode:
 * {@code TimeIntervalQueryConfig { Interval batch_interval; }} (DAP-18 "Time Interval", "Query
 * Configuration") or empty for leader-selected (DAP-18 "Leader-selected Batch Mode", "Query
 * Configuration").
 */
public sealed interface Query permits Query.TimeInterval, Query.LeaderSelected {
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
    return Decoding.decodeAll(encoded, "Query", r -> SelectorCodec.readQuery(r, "query"));
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
}
