package org.priodp.aggregator.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.core.ProblemType;
import org.priodp.aggregator.core.Refusal;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.TaskId;

/**
 * A request that fails with an RFC 9457 problem document (DAP-18 "Errors"): a {@link
 * ProblemType} (a DAP error, whose "type" is the DAP URN, or a prio-dp type with its own URN) or
 * a plain HTTP error ("type" {@code about:blank}), the status, a detail for people (never a
 * secret, a share or a noise value), and the task ID when known. Every refusal of the core
 * becomes a problem here, in {@link #of(Refusal)}, and a problem becomes its {@code
 * application/problem+json} reply in {@link #toReply}.
 */
public final class DapProblem extends RuntimeException {
  /** The media type of a problem document (RFC 9457 section 3). */
  public static final String CONTENT_TYPE = "application/problem+json";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final ProblemType problemType;
  private final int status;
  private final String title;
  private final TaskId taskId;

  private DapProblem(ProblemType problemType, int status, String title, String detail,
      TaskId taskId) {
    super(Objects.requireNonNull(detail, "detail"));
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("problem status must be 4xx or 5xx, got " + status);
    }
    this.problemType = problemType;
    this.status = status;
    this.title = Objects.requireNonNull(title, "title");
    this.taskId = taskId;
  }

  /** Returns the problem document of a domain refusal: its type's URN, title and status. */
  public static DapProblem of(Refusal refusal) {
    return of(refusal.error(), refusal.taskId().orElse(null), refusal.detail());
  }

  /** Returns the problem document of a problem type (a DAP error or a prio-dp type). */
  public static DapProblem of(ProblemType type, TaskId taskId, String detail) {
    return new DapProblem(type, type.status(), type.title(), detail, taskId);
  }

  /**
   * Returns a DAP error ("abort" in DAP-18, a client error): 404 for unrecognizedTask, 400 for
   * the others.
   */
  public static DapProblem dap(DapError error, TaskId taskId, String detail) {
    return of(ProblemType.of(error), taskId, detail);
  }

  /**
   * Returns the problem document of a failure a job or request recorded as {@link
   * ProblemType#type()}; throws IllegalStateException for a recorded type this aggregator does
   * not know (a server fault).
   */
  public static DapProblem recorded(String type, TaskId taskId, String detail) {
    return of(ProblemType.ofType(type).orElseThrow(() -> new IllegalStateException(
        "unknown recorded problem type " + type)), taskId, detail);
  }

  /** Returns a plain HTTP error (type about:blank) such as 401, 404, 405, 413, 415 or 500. */
  public static DapProblem http(int status, String title, String detail, TaskId taskId) {
    return new DapProblem(null, status, title, detail, taskId);
  }

  /** Returns the DAP error type, or empty for a prio-dp type or a plain HTTP error. */
  public Optional<DapError> error() {
    return problemType == null ? Optional.empty() : problemType.dapError();
  }

  /** Returns the "type" member: the problem type's URN or {@code about:blank}. */
  public String type() {
    return problemType == null ? "about:blank" : problemType.urn();
  }

  /** Returns the HTTP status. */
  public int status() {
    return status;
  }

  /** Returns the "title" member. */
  public String title() {
    return title;
  }

  /** Returns the "detail" member. */
  public String detail() {
    return getMessage();
  }

  /** Returns the task ID for the "taskid" member, if known. */
  public Optional<TaskId> taskId() {
    return Optional.ofNullable(taskId);
  }

  /**
   * Returns the problem+json reply (RFC 9457; DAP-18 "Errors"): type, title, status, detail and
   * taskid when known; a 401 also carries {@code WWW-Authenticate: Bearer}.
   */
  public HttpReply toReply() {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("type", type());
    n.put("title", title());
    n.put("status", status());
    n.put("detail", detail());
    taskId().ifPresent(t -> n.put("taskid", t.toBase64Url()));
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Content-Type", CONTENT_TYPE);
    if (status == 401) {
      h.put("WWW-Authenticate", "Bearer");
    }
    byte[] body;
    try {
      body = MAPPER.writeValueAsBytes(n);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return new HttpReply(status, h, body);
  }

  /** Returns the 405 reply (RFC 9110 section 15.5.6) whose Allow header lists {@code allow}. */
  public static HttpReply methodNotAllowed(String allow, TaskId taskId) {
    return http(405, "Method Not Allowed", "allowed methods: " + allow, taskId).toReply()
        .withHeader("Allow", allow);
  }
}
