package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.core.ProblemType;
import org.priodp.aggregator.core.Refusal;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.TaskId;

/**
 * Every refusal becomes an application/problem+json document in one place: a DAP error with its
 * DAP URN, title and status (the bytes as they were before refusals could carry other types),
 * a prio-dp type with its own URN, title and status.
 */
class DapProblemTest {
  private static final TaskId TASK = new TaskId(new byte[32]);
  private static final String TASK_B64 = TASK.toBase64Url();

  private static String body(DapProblem p) {
    HttpReply r = p.toReply();
    assertEquals(p.status(), r.status());
    assertEquals("application/problem+json", r.headers().get("Content-Type"));
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  @Test
  void aDapRefusalIsItsDapErrorDocument() {
    DapProblem p = DapProblem.of(Refusal.of(DapError.BATCH_OVERLAP, TASK, "already collected"));
    assertEquals(Optional.of(DapError.BATCH_OVERLAP), p.error());
    assertEquals("{\"type\":\"urn:ietf:params:ppm:dap:error:batchOverlap\",\"title\":\"The query"
        + " includes reports that were collected in a different batch\",\"status\":400,"
        + "\"detail\":\"already collected\",\"taskid\":\"" + TASK_B64 + "\"}", body(p));
    DapProblem unknown = DapProblem.of(Refusal.of(DapError.UNRECOGNIZED_TASK, null, "unknown"));
    assertEquals("{\"type\":\"urn:ietf:params:ppm:dap:error:unrecognizedTask\",\"title\":"
        + "\"Unknown task ID\",\"status\":404,\"detail\":\"unknown\"}", body(unknown));
  }

  @Test
  void everyDapErrorMapsAsDapDid() {
    for (DapError e : DapError.values()) {
      DapProblem viaRefusal = DapProblem.of(Refusal.of(e, TASK, "d"));
      DapProblem direct = DapProblem.dap(e, TASK, "d");
      assertEquals(body(direct), body(viaRefusal), e.type());
      assertEquals(e.urn(), direct.type());
      assertEquals(e == DapError.UNRECOGNIZED_TASK ? 404 : 400, direct.status());
    }
  }

  @Test
  void aPrioDpRefusalIsItsOwnTypesDocument() {
    ProblemType.PrioDp type = new ProblemType.PrioDp("budgetSpent", "The budget is spent", 409);
    DapProblem p = DapProblem.of(Refusal.of(type, TASK, "no budget left for this batch"));
    assertEquals(Optional.empty(), p.error());
    assertEquals("{\"type\":\"urn:priodp:problem:budgetSpent\",\"title\":\"The budget is"
        + " spent\",\"status\":409,\"detail\":\"no budget left for this batch\",\"taskid\":\""
        + TASK_B64 + "\"}", body(p));
  }

  @Test
  void aRecordedFailureIsReadBackByItsType() {
    assertEquals(body(DapProblem.dap(DapError.INVALID_BATCH_SIZE, TASK, "too few")),
        body(DapProblem.recorded("invalidBatchSize", TASK, "too few")));
    assertThrows(IllegalStateException.class,
        () -> DapProblem.recorded("noSuchError", TASK, "x"), "a server fault, answered 500");
  }

  @Test
  void aPlainHttpErrorIsAboutBlank() {
    DapProblem p = DapProblem.http(401, "Unauthorized", "missing bearer token", null);
    assertEquals("about:blank", p.type());
    assertEquals(Optional.empty(), p.error());
    assertEquals("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,"
        + "\"detail\":\"missing bearer token\"}", body(p));
  }
}
