package org.priodp.aggregator.datastore;

/**
 * The time range a released time-interval batch covers, {@code [start, end)} in the task's
 * time_precision units (DAP-18 "Times, Durations and Intervals"), both read as unsigned 64-bit
 * values. The store keeps one per released batch so that the DAP-18 batchOverlap rule ("Replay
 * Protection and Double Collection": a report is collected in at most one batch) is decided by a
 * range query inside the releasing transaction.
 */
public record CollectedInterval(long start, long end) {
  /** Rejects an empty or reversed range (unsigned comparison). */
  public CollectedInterval {
    if (Long.compareUnsigned(start, end) >= 0) {
      throw new IllegalArgumentException("collected interval must be non-empty: ["
          + Long.toUnsignedString(start) + ", " + Long.toUnsignedString(end) + ")");
    }
  }

  /** Returns whether the two half-open ranges share a point. */
  public boolean overlaps(CollectedInterval o) {
    return Long.compareUnsigned(start, o.end) < 0 && Long.compareUnsigned(o.start, end) < 0;
  }
}
