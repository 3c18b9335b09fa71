package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.DapError;

/** The two kinds of problem type: DAP's error types and prio-dp's own. */
class ProblemTypeTest {
  @Test
  void everyDapErrorIsAProblemTypeWithItsUrnAndA400Or404() {
    for (DapError e : DapError.values()) {
      ProblemType t = ProblemType.of(e);
      assertEquals(e.urn(), t.urn());
      assertEquals(e.type(), t.type(), "the token a failed job records, as before");
      assertEquals(e == DapError.UNRECOGNIZED_TASK ? 404 : 400, t.status(), e.type());
      assertFalse(t.title().isBlank());
      assertEquals(Optional.of(e), t.dapError());
      assertEquals(Optional.of(t), ProblemType.ofType(e.type()), "read back from the token");
      assertEquals(Optional.of(t), ProblemType.ofType(e.urn()), "read back from the URN");
    }
    assertEquals("urn:ietf:params:ppm:dap:error:batchOverlap",
        ProblemType.of(DapError.BATCH_OVERLAP).urn());
    assertEquals("The query includes reports that were collected in a different batch",
        ProblemType.of(DapError.BATCH_OVERLAP).title());
  }

  @Test
  void aPrioDpTypeHasItsOwnUrnTitleAndStatus() {
    ProblemType.PrioDp t = new ProblemType.PrioDp("budgetSpent", "The budget is spent", 409);
    assertEquals("urn:priodp:problem:budgetSpent", t.urn());
    assertEquals(t.urn(), t.type(), "recorded by URN: never taken for a DAP token");
    assertEquals(409, t.status());
    assertEquals("The budget is spent", t.title());
    assertEquals(Optional.empty(), t.dapError());
    assertEquals(Optional.empty(), ProblemType.ofType(t.urn()), "not one this aggregator raises");
  }

  @Test
  void thePrivacyBudgetTypeIsRaisedAndResolvedByUrn() {
    ProblemType.PrioDp t = ProblemType.PRIVACY_BUDGET_EXHAUSTED;
    assertEquals("urn:priodp:problem:privacyBudgetExhausted", t.urn());
    assertEquals(403, t.status());
    assertTrue(ProblemType.PRIODP_TYPES.contains(t));
    assertEquals(Optional.of(t), ProblemType.ofType(t.type()), "a failed job's recorded type reads back");
  }

  /** draft-ietf-ppm-dap-attribution-00 section 4: an upload to a job that does not exist is 404. */
  @Test
  void theUnknownCollectionJobTypeIs404AndResolvedByUrn() {
    ProblemType.PrioDp t = ProblemType.UNKNOWN_COLLECTION_JOB;
    assertEquals("urn:priodp:problem:unknownCollectionJob", t.urn());
    assertEquals(404, t.status());
    assertEquals(Optional.of(t), ProblemType.ofType(t.urn()));
  }

  @Test
  void theCollectorIdentityTypesAreRaisedAndResolvedByUrn() {
    ProblemType.PrioDp denied = ProblemType.COLLECTOR_NOT_AUTHORIZED;
    assertEquals("urn:priodp:problem:collectorNotAuthorized", denied.urn());
    assertEquals(403, denied.status(), "the task's binding forbids it; repeating does not help");
    ProblemType.PrioDp unavailable = ProblemType.COLLECTOR_IDENTITY_UNAVAILABLE;
    assertEquals("urn:priodp:problem:collectorIdentityUnavailable", unavailable.urn());
    assertEquals(503, unavailable.status(), "a 5xx: the Leader retries the same request later");
    for (ProblemType.PrioDp t : java.util.List.of(denied, unavailable)) {
      assertEquals(Optional.of(t), ProblemType.ofType(t.type()), t.name());
    }
  }

  @Test
  void aPrioDpTypeIsValidated() {
    assertThrows(IllegalArgumentException.class,
        () -> new ProblemType.PrioDp("Budget spent", "t", 400), "not a token");
    assertThrows(IllegalArgumentException.class,
        () -> new ProblemType.PrioDp("batchOverlap", "t", 400), "a DAP error token");
    assertThrows(IllegalArgumentException.class,
        () -> new ProblemType.PrioDp("budgetSpent", " ", 400), "no title");
    assertThrows(IllegalArgumentException.class,
        () -> new ProblemType.PrioDp("budgetSpent", "t", 200), "not an error status");
    assertThrows(IllegalArgumentException.class,
        () -> new ProblemType.PrioDp("budgetSpent", "t", 600), "not an HTTP status");
    assertThrows(NullPointerException.class, () -> ProblemType.of(null));
  }

  @Test
  void anUnknownRecordedTypeIsNone() {
    assertEquals(Optional.empty(), ProblemType.ofType("noSuchError"));
    assertEquals(Optional.empty(), ProblemType.ofType("urn:priodp:problem:noSuchProblem"));
    assertEquals(Optional.empty(), ProblemType.ofType(""));
  }
}
