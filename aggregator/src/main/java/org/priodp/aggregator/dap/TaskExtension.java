package org.priodp.aggregator.dap;

import java.util.Arrays;
import java.util.Optional;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * One task extension, {@code struct { TaskExtensionType extension_type; opaque
 * extension_data<0..2^16-1>; }} (DAP-18 "Task Extensions"). Unknown types are kept as their
 * uint16 code point; the only registered one is {@code task_interval(1)}, whose data must be
 * exactly one {@link Interval} (DAP-18 "Task Interval Task Extension").
 */
public record TaskExtension(int extensionType, byte[] extensionData) {
  /** The code point of {@code task_interval}. */
  public static final int TASK_INTERVAL = 1;

  /** Validates the uint16 type, the data length and the payload of a task_interval extension. */
  public TaskExtension {
    Extensions.checkType(extensionType);
    extensionData = Octets.checkVector(extensionData, 0, 0xffff, "extension_data");
    if (extensionType == TASK_INTERVAL && extensionData.length != Interval.LENGTH) {
      throw new DapDecodeException(DapError.INVALID_EXTENSION, "task_interval",
          "extension_data must be one 16-byte Interval, got " + extensionData.length + " bytes");
    }
  }

  /** Returns a task_interval extension holding the given interval. */
  public static TaskExtension taskInterval(Interval interval) {
    return new TaskExtension(TASK_INTERVAL, interval.encode());
  }

  /** Returns the interval if this is a task_interval extension. */
  public Optional<Interval> asTaskInterval() {
    if (extensionType != TASK_INTERVAL) {
      return Optional.empty();
    }
    return Optional.of(Decoding.decodeAll(extensionData, "task_interval",
        r -> Interval.read(r, "task_interval")));
  }

  /** Returns a copy of the extension data. */
  @Override
  public byte[] extensionData() {
    return extensionData.clone();
  }

  int dataLength() {
    return extensionData.length;
  }

  static java.util.List<TaskExtension> readList(DapReader r, String field) {
    java.util.List<TaskExtension> out = new java.util.ArrayList<>();
    for (Extensions.Entry e : Extensions.read(r, field)) {
      String f = field + "[" + out.size() + "]";
      out.add(Decoding.build(f, () -> new TaskExtension(e.type(), e.data())));
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TaskExtension e && e.extensionType == extensionType
        && Arrays.equals(e.extensionData, extensionData);
  }

  @Override
  public int hashCode() {
    return 31 * extensionType + Arrays.hashCode(extensionData);
  }

  @Override
  public String toString() {
    return "TaskExtension[type=" + extensionType + ", data=" + Octets.hex(extensionData) + "]";
  }
}
