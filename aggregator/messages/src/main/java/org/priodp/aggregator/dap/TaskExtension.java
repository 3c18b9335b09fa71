package org.priodp.aggregator.dap;

import java.util.Optional;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * One task extension, {@code struct { TaskExtensionType extension_type; opaque
 * extension_data<0..2^16-1>; }} (DAP-18 "Task Extensions"). Unknown types are kept as their
 * uint16 code point; the only registered one is {@code task_interval(1)}, whose data must be
 * exactly one {@link Interval} (DAP-18 "Task Interval Task Extension").
 */
public record TaskExtension(int extensionType, ByteString extensionData)
    implements Extensions.Entry {
  /** The code point of {@code task_interval}. */
  public static final int TASK_INTERVAL = 1;

  /** {@code TaskExtension extensions<0..2^16-1>}: types strictly increasing, else invalidExtension. */
  static final Extensions<TaskExtension> LIST =
      Extensions.ordered(TaskExtension::new, DapError.INVALID_EXTENSION);

  /** Validates the uint16 type, the data length and the payload of a task_interval extension. */
  public TaskExtension {
    Extensions.checkEntry(extensionType, extensionData);
    if (extensionType == TASK_INTERVAL && extensionData.length() != Interval.LENGTH) {
      throw new DapDecodeException(DapError.INVALID_EXTENSION, "task_interval",
          "extension_data must be one 16-byte Interval, got " + extensionData.length() + " bytes");
    }
  }

  /** Returns the extension holding a copy of {@code extensionData}. */
  public TaskExtension(int extensionType, byte[] extensionData) {
    this(extensionType, Octets.of(extensionData, "extension_data"));
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
    return Optional.of(Decoding.decodeAll(extensionData.toByteArray(), "task_interval",
        r -> Interval.read(r, "task_interval")));
  }
}
