package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ReportErrorTest {
  // The ReportError enums as the drafts print them ("Basic Type Definitions"), code 1 first.
  private static final List<String> DAP_18 = List.of("batch_collected", "report_replayed",
      "report_dropped", "hpke_unknown_config_id", "hpke_decrypt_error", "vdaf_verify_error",
      "task_expired", "invalid_message", "report_too_early", "task_not_started",
      "outdated_config");
  private static final List<String> DAP_19 = List.of("batch_collected", "report_replayed",
      "report_dropped", "hpke_unknown_config_id", "hpke_decrypt_error", "vdaf_verify_error",
      "invalid_message", "report_too_early", "unknown_verification_key_id",
      "unsupported_extension");

  @Test
  void eachVersionHasExactlyItsDraftsCodes() {
    List<String> mismatches = new ArrayList<>();
    check(DapVersion.DAP_18, DAP_18, mismatches);
    check(DapVersion.DAP_19, DAP_19, mismatches);
    assertEquals(List.of(), mismatches);
    Set<String> union = new TreeSet<>(DAP_18);
    union.addAll(DAP_19);
    assertEquals(union.size(), ReportError.values().length, "the enum is the union of both");
  }

  private static void check(DapVersion v, List<String> table, List<String> mismatches) {
    for (int i = 0; i < table.size(); i++) {
      ReportError e = v.reportError(i + 1, "f");
      if (!e.specName().equals(table.get(i)) || v.code(e) != i + 1) {
        mismatches.add(v.tag() + " code " + (i + 1) + ": " + e.specName() + " (" + v.code(e)
            + "), the draft says " + table.get(i));
      }
    }
    for (ReportError e : ReportError.values()) {
      if (v.has(e) != table.contains(e.specName())) {
        mismatches.add(v.tag() + " has(" + e.specName() + ") = " + v.has(e));
      }
    }
  }

  @Test
  void theReusedCodePointsMeanDifferentErrors() {
    // DAP-19 reused 9 and 10: report_too_early and task_not_started in DAP-18
    assertEquals(ReportError.REPORT_TOO_EARLY, DapVersion.DAP_18.reportError(9, "f"));
    assertEquals(ReportError.UNKNOWN_VERIFICATION_KEY_ID, DapVersion.DAP_19.reportError(9, "f"));
    assertEquals(ReportError.TASK_NOT_STARTED, DapVersion.DAP_18.reportError(10, "f"));
    assertEquals(ReportError.UNSUPPORTED_EXTENSION, DapVersion.DAP_19.reportError(10, "f"));
    assertEquals(8, DapVersion.DAP_18.code(ReportError.INVALID_MESSAGE));
    assertEquals(7, DapVersion.DAP_19.code(ReportError.INVALID_MESSAGE));
  }

  @Test
  void refusesToEncodeAnErrorTheVersionDoesNotHave() {
    assertFalse(DapVersion.DAP_19.has(ReportError.OUTDATED_CONFIG));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DapVersion.DAP_19.code(ReportError.OUTDATED_CONFIG));
    assertTrue(e.getMessage().contains("outdated_config"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> DapVersion.DAP_18.code(ReportError.UNKNOWN_VERIFICATION_KEY_ID));
  }

  @Test
  void rejectsReservedAndUnknownCodesNamingTheField() {
    for (DapVersion v : DapVersion.values()) {
      int first = (v == DapVersion.DAP_18 ? DAP_18 : DAP_19).size() + 1;
      for (int code : new int[] {0, first, 0x7f, 0xff}) {
        DapDecodeException e = assertThrows(DapDecodeException.class,
            () -> v.reportError(code, "status[0].error"), v + " " + code);
        assertEquals("status[0].error", e.field());
        assertEquals(DapError.INVALID_MESSAGE, e.error());
      }
    }
  }
}
