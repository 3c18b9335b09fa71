package org.priodp.aggregator.dap;

/**
 * A DAP-18 {@code uint64 Time}: a number of the task's time precisions since the Epoch (DAP-18
 * "Times, Durations and Intervals"). The 64 bits of {@code value} are read as unsigned.
 */
public record Time(long value) implements Comparable<Time> {
  /** Compares as unsigned 64-bit integers. */
  @Override
  public int compareTo(Time o) {
    return Long.compareUnsigned(value, o.value);
  }

  @Override
  public String toString() {
    return "Time[" + Long.toUnsignedString(value) + "]";
  }
}
