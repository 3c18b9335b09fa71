package org.priodp.aggregator.dap;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * A task's agreed parameters, {@code struct { opaque task_info<0..2^8-1>; Url
 * leader_aggregator_endpoint; Url helper_aggregator_endpoint; TimePrecision time_precision; uint64
 * min_batch_size; BatchMode batch_mode; opaque batch_config<0..2^16-1>; VdafType vdaf_type; opaque
 * vdaf_configuration<0..2^16-1>; TaskExtension extensions<0..2^16-1>; } TaskConfiguration} (DAP-19
 * "Task Configuration"; DAP-18 has {@code task_info<1..2^8-1>}, which {@link #checkFor} and the
 * version's decoder apply), with {@code opaque Url<1..2^16-1>} of ASCII bytes, uint64 time precision
 * (non-zero) and min batch size, uint32 VDAF type, an empty batch_config (both batch modes of
 * DAP-18 define it empty) and strictly increasing extension types (DAP-18 "Task Extensions").
 * {@code batchModeCode} is the batch_mode byte written: the mode's code, or for collector_selected
 * (draft-ietf-ppm-dap-attribution-00 section 4) the task's code point, as the AADs carry it.
 */
public record TaskConfiguration(ByteString taskInfo, String leaderAggregatorEndpoint,
    String helperAggregatorEndpoint, long timePrecision, long minBatchSize, BatchMode batchMode,
    ByteString batchConfig, long vdafType, ByteString vdafConfiguration,
    List<TaskExtension> extensions, int batchModeCode) {

  /** Validates the fields and copies the list. */
  public TaskConfiguration {
    Octets.checkVector(taskInfo, 0, 0xff, "task_info");
    checkUrl(leaderAggregatorEndpoint, "leader_aggregator_endpoint");
    checkUrl(helperAggregatorEndpoint, "helper_aggregator_endpoint");
    if (timePrecision == 0) {
      throw new IllegalArgumentException("time_precision: must not be 0");
    }
    Objects.requireNonNull(batchMode, "batch_mode");
    if (batchMode == BatchMode.COLLECTOR_SELECTED) {
      SelectorCodec.checkCollectorSelected(batchModeCode);
    } else if (batchModeCode != batchMode.code()) {
      throw new IllegalArgumentException("batch_mode: " + batchMode.specName() + " has code "
          + batchMode.code() + ", got " + batchModeCode);
    }
    Octets.checkVector(batchConfig, 0, 0xffff, "batch_config");
    if (batchConfig.length() != 0) {
      throw new IllegalArgumentException("batch_config: must be empty for " + batchMode.specName()
          + ", got " + batchConfig.length() + " bytes");
    }
    if (vdafType < 0 || vdafType > 0xffffffffL) {
      throw new IllegalArgumentException("vdaf_type: out of uint32 range: " + vdafType);
    }
    Octets.checkVector(vdafConfiguration, 0, 0xffff, "vdaf_configuration");
    extensions = TaskExtension.LIST.checkList(extensions, "extensions");
  }

  /** Returns the configuration with the batch mode under its default code point. */
  public TaskConfiguration(ByteString taskInfo, String leaderAggregatorEndpoint,
      String helperAggregatorEndpoint, long timePrecision, long minBatchSize, BatchMode batchMode,
      ByteString batchConfig, long vdafType, ByteString vdafConfiguration,
      List<TaskExtension> extensions) {
    this(taskInfo, leaderAggregatorEndpoint, helperAggregatorEndpoint, timePrecision,
        minBatchSize, batchMode, batchConfig, vdafType, vdafConfiguration, extensions,
        Objects.requireNonNull(batchMode, "batch_mode").code());
  }

  /** Returns the configuration holding copies of task_info, batch_config and vdaf_configuration. */
  public TaskConfiguration(byte[] taskInfo, String leaderAggregatorEndpoint,
      String helperAggregatorEndpoint, long timePrecision, long minBatchSize, BatchMode batchMode,
      byte[] batchConfig, long vdafType, byte[] vdafConfiguration, List<TaskExtension> extensions) {
    this(Octets.of(taskInfo, "task_info"), leaderAggregatorEndpoint, helperAggregatorEndpoint,
        timePrecision, minBatchSize, batchMode, Octets.of(batchConfig, "batch_config"), vdafType,
        Octets.of(vdafConfiguration, "vdaf_configuration"), extensions);
  }

  /**
   * Returns this configuration with collector_selected under the code point {@code code} (the
   * task's; draft-ietf-ppm-dap-attribution-00 section 4), or this one for the other modes.
   */
  public TaskConfiguration withCollectorSelectedCode(int code) {
    return batchMode != BatchMode.COLLECTOR_SELECTED ? this : new TaskConfiguration(taskInfo,
        leaderAggregatorEndpoint, helperAggregatorEndpoint, timePrecision, minBatchSize,
        batchMode, batchConfig, vdafType, vdafConfiguration, extensions, code);
  }

  private static void checkUrl(String url, String field) {
    if (url == null) {
      throw new NullPointerException(field + " is null");
    }
    if (url.isEmpty() || url.length() > 0xffff) {
      throw new IllegalArgumentException(field + ": length " + url.length() + " outside <1..65535>");
    }
    for (int i = 0; i < url.length(); i++) {
      if (url.charAt(i) > 0x7f) {
        throw new IllegalArgumentException(field + ": not ASCII at index " + i);
      }
    }
  }

  /** Returns the task interval if the task_interval extension is present. */
  public Optional<Interval> taskInterval() {
    for (TaskExtension e : extensions) {
      if (e.extensionType() == TaskExtension.TASK_INTERVAL) {
        return e.asTaskInterval();
      }
    }
    return Optional.empty();
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /**
   * Checks the rules of {@code version} that this record's union of the drafts does not: DAP-18
   * needs a non-empty task_info and knows no collector_selected batch mode (the attribution draft
   * is written against DAP-19). Throws IllegalArgumentException naming the field.
   */
  public TaskConfiguration checkFor(DapVersion version) {
    if (batchMode == BatchMode.COLLECTOR_SELECTED && version == DapVersion.DAP_18) {
      throw new IllegalArgumentException("batch_mode: collector_selected needs dap-19"
          + " (draft-ietf-ppm-dap-attribution-00 extends DAP-19), the task speaks dap-18");
    }
    if (taskInfo.length() < version.taskInfoMinLength()) {
      throw new IllegalArgumentException("task_info: empty, " + version.tag() + " needs at least "
          + version.taskInfoMinLength() + " byte");
    }
    return this;
  }

  /** Decodes one TaskConfiguration of {@code version} with nothing after it. */
  public static TaskConfiguration decode(byte[] encoded, DapVersion version) {
    return decode(encoded, version, BatchMode.DEFAULT_COLLECTOR_SELECTED);
  }

  /**
   * Decodes one TaskConfiguration of {@code version} with nothing after it, where
   * collector_selected has the code point {@code collectorSelected}.
   */
  public static TaskConfiguration decode(byte[] encoded, DapVersion version,
      int collectorSelected) {
    return Decoding.decodeAll(encoded, "TaskConfiguration",
        r -> read(r, "task_configuration", version, collectorSelected));
  }

  static TaskConfiguration read(DapReader r, String field, DapVersion version) {
    return read(r, field, version, BatchMode.DEFAULT_COLLECTOR_SELECTED);
  }

  static TaskConfiguration read(DapReader r, String field, DapVersion version,
      int collectorSelected) {
    ByteString info = r.opaque(1, version.taskInfoMinLength(), 0xff, field + ".task_info");
    String leader = readUrl(r, field + ".leader_aggregator_endpoint");
    String helper = readUrl(r, field + ".helper_aggregator_endpoint");
    long precision = r.u64(field + ".time_precision");
    long minBatch = r.u64(field + ".min_batch_size");
    int modeCode = r.u8(field + ".batch_mode");
    BatchMode mode = BatchMode.fromCode(modeCode, collectorSelected, field + ".batch_mode");
    ByteString batchConfig = r.opaque(2, 0, 0xffff, field + ".batch_config");
    long vdaf = r.u32(field + ".vdaf_type");
    ByteString vdafConfig = r.opaque(2, 0, 0xffff, field + ".vdaf_configuration");
    List<TaskExtension> ext = TaskExtension.LIST.read(r, field + ".extensions");
    return Decoding.build(field, () -> new TaskConfiguration(info, leader, helper, precision,
        minBatch, mode, batchConfig, vdaf, vdafConfig, ext, modeCode));
  }

  private static String readUrl(DapReader r, String field) {
    ByteString b = r.opaque(2, 1, 0xffff, field);
    for (int i = 0; i < b.length(); i++) {
      if (b.byteAt(i) < 0) {
        throw new DapDecodeException(field, "not ASCII at index " + i);
      }
    }
    return new String(b.toByteArray(), StandardCharsets.US_ASCII);
  }

  void write(DapWriter w) {
    w.vector(1, 0, 0xff, taskInfo)
        .vector(2, 1, 0xffff, leaderAggregatorEndpoint.getBytes(StandardCharsets.US_ASCII))
        .vector(2, 1, 0xffff, helperAggregatorEndpoint.getBytes(StandardCharsets.US_ASCII))
        .u64(timePrecision).u64(minBatchSize).u8(batchModeCode)
        .vector(2, 0, 0xffff, batchConfig).u32(vdafType).vector(2, 0, 0xffff, vdafConfiguration);
    TaskExtension.LIST.write(w, extensions);
  }

  /** Shows time_precision and min_batch_size as the uint64 values they are. */
  @Override
  public String toString() {
    return "TaskConfiguration[taskInfo=" + taskInfo + ", leader="
        + leaderAggregatorEndpoint + ", helper=" + helperAggregatorEndpoint + ", timePrecision="
        + Long.toUnsignedString(timePrecision) + ", minBatchSize="
        + Long.toUnsignedString(minBatchSize) + ", batchMode=" + batchMode.specName()
        + ", vdafType=" + vdafType + ", vdafConfiguration=" + vdafConfiguration
        + ", extensions=" + extensions + "]";
  }
}
