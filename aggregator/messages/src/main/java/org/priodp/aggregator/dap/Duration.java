package org.priodp.aggregator.dap;

/**
 * A DAP-18 {@code uint64 Duration}: a number of the task's time precisions (DAP-18 "Times,
 * Durations and Intervals"). The 64 bits of {@code value} are read as unsigned.
 */
public record Duration(long value) implements Comparable<Duration> {
  /** Compares as unsigned 64-bit integers. */
  @Override
  public int compareTo(Duration o) {
    return Long.compareUnsigned(value, o.value);
  }

  @Override
  public String toString() {
    return "Duration[" + Long.toUnsignedString(value) + "]";
  }
}
