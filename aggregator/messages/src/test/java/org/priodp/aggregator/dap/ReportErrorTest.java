package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportErrorTest {
  @Test
  void hasEveryCodeOfTheReportErrorsRegistry() {
    // DAP-18 "Report Errors Registry", 0x01..0x0B (0x00 is reserved)
    List<String> registry = List.of("batch_collected", "report_replayed", "report_dropped",
        "hpke_unknown_config_id", "hpke_decrypt_error", "vdaf_verify_error", "task_expired",
        "invalid_message", "report_too_early", "task_not_started", "outdated_config");
    assertEquals(registry.size(), ReportError.values().length);
    for (int i = 0; i < registry.size(); i++) {
      ReportError e = ReportError.fromCode(i + 1, "f");
      assertEquals(registry.get(i), e.specName());
      assertEquals(i + 1, e.code());
    }
  }

  @Test
  void rejectsReservedAndUnknownCodesNamingTheField() {
    for (int code : new int[] {0, 12, 0x7f, 0xff}) {
      DapDecodeException e = assertThrows(DapDecodeException.class,
          () -> ReportError.fromCode(code, "status[0].error"));
      assertEquals("status[0].error", e.field());
      assertEquals(DapError.INVALID_MESSAGE, e.error());
    }
  }
}
