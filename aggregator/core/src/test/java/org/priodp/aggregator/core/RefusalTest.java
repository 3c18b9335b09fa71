package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.TaskId;

/** A refusal carries a DAP error type or a prio-dp problem type, the task and a detail. */
class RefusalTest {
  private static final TaskId TASK = new TaskId(new byte[32]);

  @Test
  void aDapRefusalNamesItsError() {
    Refusal r = Refusal.of(DapError.BATCH_MISMATCH, TASK, "checksum differs");
    assertEquals(ProblemType.of(DapError.BATCH_MISMATCH), r.error());
    assertEquals(Optional.of(DapError.BATCH_MISMATCH), r.dapError());
    assertTrue(r.is(DapError.BATCH_MISMATCH));
    assertFalse(r.is(DapError.INVALID_BATCH_SIZE));
    assertEquals("batchMismatch", r.error().type());
    assertEquals(Optional.of(TASK), r.taskId());
    assertEquals("checksum differs", r.detail());
  }

  @Test
  void aPrioDpRefusalIsNoDapError() {
    ProblemType.PrioDp type = new ProblemType.PrioDp("budgetSpent", "The budget is spent", 409);
    Refusal r = Refusal.of(type, null, "no budget left");
    assertEquals(type, r.error());
    assertEquals(Optional.empty(), r.dapError());
    assertFalse(r.is(DapError.INVALID_MESSAGE));
    assertEquals(Optional.empty(), r.taskId());
    assertEquals("urn:priodp:problem:budgetSpent", r.error().type());
  }

  @Test
  void typeAndDetailAreRequired() {
    assertThrows(NullPointerException.class, () -> Refusal.of((ProblemType) null, TASK, "x"));
    assertThrows(NullPointerException.class, () -> Refusal.of(DapError.BATCH_INVALID, TASK, null));
  }
}
