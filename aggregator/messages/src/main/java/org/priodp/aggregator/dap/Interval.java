package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * A half-open interval {@code struct { Time start; Duration duration; } Interval} (DAP-18 "Times,
 * Durations and Intervals"); encoded as 16 bytes. Decoding accepts any two uint64 values; whether
 * the interval is usable (no overflow, non-empty) is a batch-validity question for the caller.
 */
public record Interval(Time start, Duration duration) {
  /** The encoded length in bytes. */
  public static final int LENGTH = 16;

  /** Rejects null components. */
  public Interval {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(duration, "duration");
  }

  /** Returns the interval [start, start + duration) from raw unsigned values. */
  public static Interval of(long start, long duration) {
    return new Interval(new Time(start), new Duration(duration));
  }

  /** Returns true if start + duration does not exceed 2^64 - 1, so that {@link #end()} exists. */
  public boolean isWellFormed() {
    return Long.compareUnsigned(start.value() + duration.value(), start.value()) >= 0;
  }

  /** Returns the exclusive end start + duration; throws IllegalStateException if it overflows. */
  public Time end() {
    if (!isWellFormed()) {
      throw new IllegalStateException("interval end overflows uint64: " + this);
    }
    return new Time(start.value() + duration.value());
  }

  /** Returns true if this interval is well formed and lies within {@code outer} (DAP-18 time-interval consistency). */
  public boolean isWithin(Interval outer) {
    return isWellFormed() && outer.isWellFormed()
        && start.compareTo(outer.start) >= 0 && end().compareTo(outer.end()) <= 0;
  }

  /** Returns the 16-byte encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes exactly 16 bytes. */
  public static Interval decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "Interval", r -> read(r, "interval"));
  }

  static Interval read(DapReader r, String field) {
    long s = r.u64(field + ".start");
    long d = r.u64(field + ".duration");
    return Interval.of(s, d);
  }

  void write(DapWriter w) {
    w.u64(start.value()).u64(duration.value());
  }
}
