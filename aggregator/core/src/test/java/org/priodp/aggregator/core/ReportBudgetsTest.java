package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.CollectionJobExtension;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.task.AttributionCodePoints;
import org.priodp.aggregator.task.MicroEpsilon;

class ReportBudgetsTest {
  private static final AttributionCodePoints CODES = AttributionCodePoints.DEFAULTS;

  private static List<ReportExtension> budget(byte... data) {
    return List.of(new ReportExtension(0xFA01, data));
  }

  @Test
  void readsThePublicPrivacyBudgetUnderTheTasksCodePoint() {
    assertEquals(new ReportBudgets.Spent(new MicroEpsilon(0x01020304L)),
        ReportBudgets.stated(CODES, budget((byte) 1, (byte) 2, (byte) 3, (byte) 4)));
    assertEquals(new ReportBudgets.Absent(), ReportBudgets.stated(CODES, List.of()));
    assertEquals(new ReportBudgets.Absent(), ReportBudgets.stated(
        AttributionCodePoints.of(java.util.Map.of("privacy_budget", 9)), budget(new byte[4])));
    assertEquals(ReportBudgets.Malformed.class,
        ReportBudgets.stated(CODES, budget((byte) 1)).getClass());
  }

  @Test
  void theMinimumDropsReportsWithoutBudgetOrBelowIt() {
    MicroEpsilon min = MicroEpsilon.parseEpsilon("0.5");
    assertEquals(Optional.empty(), ReportBudgets.admit(
        new ReportBudgets.Spent(MicroEpsilon.parseEpsilon("0.5")), min));
    assertEquals(Optional.empty(), ReportBudgets.admit(
        new ReportBudgets.Spent(MicroEpsilon.parseEpsilon("2")), min));
    assertEquals(Optional.of(ReportError.REPORT_DROPPED), ReportBudgets.admit(
        new ReportBudgets.Spent(MicroEpsilon.parseEpsilon("0.499999")), min));
    assertEquals(Optional.of(ReportError.REPORT_DROPPED),
        ReportBudgets.admit(new ReportBudgets.Absent(), min));
    assertEquals(Optional.of(ReportError.INVALID_MESSAGE),
        ReportBudgets.admit(new ReportBudgets.Malformed("x"), min));
  }

  @Test
  void minDpBudgetIsAPositiveUint32() {
    assertEquals(Optional.of(new MicroEpsilon(1_000_000)), ReportBudgets.minDpBudget(CODES,
        List.of(new CollectionJobExtension(0xFA02, new MicroEpsilon(1_000_000).encode()))));
    assertEquals(Optional.empty(), ReportBudgets.minDpBudget(CODES, List.of()));
    assertThrows(IllegalArgumentException.class, () -> ReportBudgets.minDpBudget(CODES,
        List.of(new CollectionJobExtension(0xFA02, new byte[4]))));
    assertThrows(IllegalArgumentException.class, () -> ReportBudgets.minDpBudget(CODES,
        List.of(new CollectionJobExtension(0xFA02, new byte[5]))));
  }
}
