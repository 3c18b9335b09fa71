package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskConfigurationTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void encodesFieldsInSpecOrderWithTheirWidths() {
    TaskConfiguration t = new TaskConfiguration(new byte[] {0x61}, "L", "H", 60, 10,
        BatchMode.LEADER_SELECTED, new byte[0], 2, new byte[] {0, 0, 0, 0, 0, 0, 0, 5}, List.of());
    String expected = "01" + "61" // task_info<1..2^8-1>
        + "0001" + "4c" + "0001" + "48" // urls
        + "000000000000003c" + "000000000000000a" // time_precision, min_batch_size
        + "02" + "0000" // batch_mode, batch_config
        + "00000002" + "0008" + "0000000000000005" // vdaf_type, vdaf_configuration
        + "0000"; // extensions
    assertEquals(expected, HEX.formatHex(t.encode()));
    assertEquals(t, TaskConfiguration.decode(t.encode(), DapVersion.DAP_18));
  }

  @Test
  void roundTripsTheTaskIntervalExtension() {
    TaskConfiguration t = Samples.taskConfiguration();
    TaskConfiguration back = TaskConfiguration.decode(t.encode(), DapVersion.DAP_18);
    assertArrayEquals(t.encode(), back.encode());
    assertEquals(Interval.of(100, 50), back.taskInterval().orElseThrow());
  }

  @Test
  void rejectsInvalidFields() {
    // an empty task_info is DAP-19's; DAP-18's floor is DapVersionTest's
    assertThrows(IllegalArgumentException.class, () -> new TaskConfiguration(new byte[256], "L",
        "H", 60, 10, BatchMode.TIME_INTERVAL, new byte[0], 1, new byte[0], List.of()));
    assertThrows(IllegalArgumentException.class, () -> new TaskConfiguration(new byte[1], "L\u00e9", "H",
        60, 10, BatchMode.TIME_INTERVAL, new byte[0], 1, new byte[0], List.of()));
    assertThrows(IllegalArgumentException.class, () -> new TaskConfiguration(new byte[1], "L", "H",
        0, 10, BatchMode.TIME_INTERVAL, new byte[0], 1, new byte[0], List.of()));
    assertThrows(IllegalArgumentException.class, () -> new TaskConfiguration(new byte[1], "L", "H",
        60, 10, BatchMode.TIME_INTERVAL, new byte[1], 1, new byte[0], List.of()));
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> new TaskConfiguration(
        new byte[1], "L", "H", 60, 10, BatchMode.TIME_INTERVAL, new byte[0], 1, new byte[0],
        List.of(new TaskExtension(5, new byte[0]), new TaskExtension(2, new byte[0]))));
    assertEquals(DapError.INVALID_EXTENSION, e.error());
    e = assertThrows(DapDecodeException.class, () -> new TaskExtension(TaskExtension.TASK_INTERVAL, new byte[3]));
    assertEquals(DapError.INVALID_EXTENSION, e.error());
  }

  @Test
  void rejectsNonAsciiUrlBytesOnDecode() {
    byte[] enc = new TaskConfiguration(new byte[] {0x61}, "L", "H", 60, 10,
        BatchMode.TIME_INTERVAL, new byte[0], 1, new byte[0], List.of()).encode();
    enc[4] = (byte) 0xc3;
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> TaskConfiguration.decode(enc, DapVersion.DAP_18));
    assertEquals("task_configuration.leader_aggregator_endpoint", e.field());
  }

  /**
   * The batch_mode byte of a collector_selected task (draft-ietf-ppm-dap-attribution-00 section
   * 4) is the deployment's code point, which the InputShareAad and AggregateShareAad carry; DAP-18
   * has no such mode.
   */
  @Test
  void collectorSelectedWritesTheTasksCodePoint() {
    TaskConfiguration t = new TaskConfiguration(new byte[] {0x61}, "L", "H", 60, 10,
        BatchMode.COLLECTOR_SELECTED, new byte[0], 2, new byte[] {0, 0, 0, 0, 0, 0, 0, 5},
        List.of()).withCollectorSelectedCode(0x41);
    String expected = "01" + "61" + "0001" + "4c" + "0001" + "48"
        + "000000000000003c" + "000000000000000a"
        + "41" + "0000" // batch_mode (the task's collector_selected), batch_config
        + "00000002" + "0008" + "0000000000000005" + "0000";
    assertEquals(expected, HEX.formatHex(t.encode()));
    assertEquals(t, TaskConfiguration.decode(t.encode(), DapVersion.DAP_19, 0x41));
    assertEquals(0xfa, t.withCollectorSelectedCode(0xfa).batchModeCode());
    assertThrows(DapDecodeException.class,
        () -> TaskConfiguration.decode(t.encode(), DapVersion.DAP_19));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> t.checkFor(DapVersion.DAP_18));
    assertEquals(true, e.getMessage().contains("collector_selected needs dap-19"));
  }
}
