package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DapVersionTest {
  private static final HexFormat HEX = HexFormat.of();

  private static String ascii(String s) {
    return HEX.formatHex(s.getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void newTasksSpeakDap19AndTagsParse() {
    assertEquals(DapVersion.DAP_19, DapVersion.latest());
    assertEquals(DapVersion.DAP_18, DapVersion.fromTag("dap-18"));
    assertEquals(DapVersion.DAP_19, DapVersion.fromTag("DAP-19"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DapVersion.fromTag("dap-17"));
    assertTrue(e.getMessage().startsWith("dap_version: \"dap-17\""), e.getMessage());
  }

  @Test
  void theVdafContextIsTheTagThenTheTaskId() {
    // DAP-19 "Client Behavior": ctx = "dap-19" || task_id (DAP-18: "dap-18" || task_id)
    byte[] id = new byte[32];
    id[0] = 7;
    TaskId taskId = new TaskId(id);
    assertEquals(ascii("dap-19") + HEX.formatHex(id),
        HEX.formatHex(DapVersion.DAP_19.vdafContext(taskId)));
    assertEquals(ascii("dap-18") + HEX.formatHex(id),
        HEX.formatHex(DapVersion.DAP_18.vdafContext(taskId)));
  }

  @Test
  void theHpkeInfoStringsCarryTheTagAndTheRoles() {
    // "dap-19 input share" || 0x01 || server_role; "dap-19 aggregate share" || server_role || 0x00
    for (DapVersion v : DapVersion.values()) {
      String input = ascii(v.tag() + " input share");
      assertEquals(input + "0102", HEX.formatHex(v.inputShareInfo(Role.LEADER)));
      assertEquals(input + "0103", HEX.formatHex(v.inputShareInfo(Role.HELPER)));
      String agg = ascii(v.tag() + " aggregate share");
      assertEquals(agg + "0200", HEX.formatHex(v.aggregateShareInfo(Role.LEADER)));
      assertEquals(agg + "0300", HEX.formatHex(v.aggregateShareInfo(Role.HELPER)));
      assertThrows(IllegalArgumentException.class, () -> v.inputShareInfo(Role.CLIENT));
      assertThrows(IllegalArgumentException.class, () -> v.inputShareInfo(Role.COLLECTOR));
      assertThrows(IllegalArgumentException.class, () -> v.aggregateShareInfo(Role.CLIENT));
      assertThrows(IllegalArgumentException.class, () -> v.aggregateShareInfo(Role.COLLECTOR));
    }
  }

  @Test
  void eachFailureGetsItsVersionsError() {
    DapVersion d18 = DapVersion.DAP_18;
    DapVersion d19 = DapVersion.DAP_19;
    assertEquals(ReportError.OUTDATED_CONFIG, d18.uploadUnknownHpkeConfig());
    assertEquals(ReportError.HPKE_UNKNOWN_CONFIG_ID, d19.uploadUnknownHpkeConfig());
    assertEquals(ReportError.HPKE_DECRYPT_ERROR, d18.aggregationUnknownHpkeConfig());
    assertEquals(ReportError.HPKE_UNKNOWN_CONFIG_ID, d19.aggregationUnknownHpkeConfig());
    assertEquals(ReportError.TASK_NOT_STARTED, d18.beforeTaskInterval());
    assertEquals(ReportError.TASK_EXPIRED, d18.afterTaskInterval());
    assertEquals(ReportError.REPORT_DROPPED, d19.beforeTaskInterval());
    assertEquals(ReportError.REPORT_DROPPED, d19.afterTaskInterval());
    assertEquals(ReportError.UNSUPPORTED_EXTENSION,
        d19.uploadExtensionError(ReportExtension.Failure.UNRECOGNIZED));
    assertEquals(ReportError.INVALID_MESSAGE,
        d19.uploadExtensionError(ReportExtension.Failure.REPEATED));
    assertEquals(ReportError.INVALID_MESSAGE,
        d18.uploadExtensionError(ReportExtension.Failure.UNRECOGNIZED));
    assertEquals(Optional.empty(), d18.unknownVerificationKeyId());
    assertEquals(Optional.of(ReportError.UNKNOWN_VERIFICATION_KEY_ID),
        d19.unknownVerificationKeyId());
    assertTrue(d19.mayRetry(ReportError.UNKNOWN_VERIFICATION_KEY_ID));
    assertTrue(d18.mayRetry(ReportError.REPORT_TOO_EARLY));
    assertFalse(d18.mayRetry(ReportError.UNKNOWN_VERIFICATION_KEY_ID));
    assertFalse(d19.mayRetry(ReportError.VDAF_VERIFY_ERROR));
    // every error a version picks is one it can encode
    for (DapVersion v : DapVersion.values()) {
      for (ReportError e : new ReportError[] {v.uploadUnknownHpkeConfig(),
          v.aggregationUnknownHpkeConfig(), v.beforeTaskInterval(), v.afterTaskInterval(),
          v.uploadExtensionError(ReportExtension.Failure.UNRECOGNIZED),
          v.uploadExtensionError(ReportExtension.Failure.REPEATED)}) {
        assertTrue(v.has(e), v + " " + e);
      }
    }
  }

  @Test
  void dap19AcceptsAnEmptyTaskInfoAndDap18RefusesIt() {
    TaskConfiguration c = SpecSamples.taskConfiguration();
    TaskConfiguration empty = new TaskConfiguration(ByteString.EMPTY,
        c.leaderAggregatorEndpoint(), c.helperAggregatorEndpoint(), c.timePrecision(),
        c.minBatchSize(), c.batchMode(), c.batchConfig(), c.vdafType(), c.vdafConfiguration(),
        c.extensions());
    assertEquals(0, DapVersion.DAP_19.taskInfoMinLength());
    assertEquals(1, DapVersion.DAP_18.taskInfoMinLength());
    assertEquals(empty, empty.checkFor(DapVersion.DAP_19));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> empty.checkFor(DapVersion.DAP_18));
    assertTrue(e.getMessage().startsWith("task_info:"), e.getMessage());
    byte[] encoded = empty.encode();
    assertEquals("00", HEX.formatHex(encoded, 0, 1)); // task_info<0..255>: length 0
    assertEquals(empty, TaskConfiguration.decode(encoded, DapVersion.DAP_19));
    DapDecodeException d = assertThrows(DapDecodeException.class,
        () -> TaskConfiguration.decode(encoded, DapVersion.DAP_18));
    assertEquals("task_configuration.task_info", d.field());
  }
}
