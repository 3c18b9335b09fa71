package org.priodp.aggregator.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.TaskId;

/**
 * A request that fails with an RFC 9457 problem document (DAP-18 "Errors"): a DAP error type
 * (whose "type" is the DAP URN) or a plain HTTP error ("type" {@code about:blank}), the status,
 * a detail for people (never a secret, a share or a noise value), and the task ID when known.
 * This is the one place where a domain refusal becomes a problem ({@link #of}) and a problem
 * becomes its {@code application/problem+json} reply ({@link #toReply}).
 */
public final class DapProblem extends RuntimeException {
  /** The media type of a problem document (RFC 9457 section 3). */
  public static final String CONTENT_TYPE = "application/problem+json";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final DapError error;
  private final int status;
  private final String title;
  private final TaskId taskId;

  private DapProblem(DapError error, int status, String title, String detail, TaskId taskId) {
    super(Objects.requireNonNull(detail, "detail"));
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("problem status must be 4xx or 5xx, got " + status);
    }
    this.error = error;
    this.status = status;
    this.title = Objects.requireNonNull(title, "title");
    this.taskId = taskId;
  }

  /** Returns the problem document of a domain refusal (see {@link #dap}). */
  public static DapProblem of(org.priodp.aggregator.core.DapRefusal refusal) {
    return dap(refusal.error(), refusal.taskId().orElse(null), refusal.detail());
  }

  /**
   * Returns a DAP error ("abort" in DAP-18, a client error): 404 for unrecognizedTask, 400 for
   * the others.
   */
  public static DapProblem dap(DapError error, TaskId taskId, String detail) {
    int status = error == DapError.UNRECOGNIZED_TASK ? 404 : 400;
    return new DapProblem(error, status, titleOf(error), detail, taskId);
  }

  /** Returns a plain HTTP error (type about:blank) such as 401, 404, 405, 413, 415 or 500. */
  public static DapProblem http(int status, String title, String detail, TaskId taskId) {
    return new DapProblem(null, status, title, detail, taskId);
  }

  private static String titleOf(DapError e) {
    return switch (e) {
      case INVALID_MESSAGE -> "The message could not be parsed or was invalid";
      case UNRECOGNIZED_TASK -> "Unknown task ID";
      case UNRECOGNIZED_AGGREGATION_JOB -> "Unknown aggregation job ID";
      case BATCH_INVALID -> "The batch boundary check for the query failed";
      case INVALID_BATCH_SIZE -> "The batch holds an invalid number of reports";
      case INVALID_AGGREGATION_PARAMETER -> "The aggregation parameter is invalid";
      case BATCH_MISMATCH -> "The aggregators disagree on the reports aggregated in the batch";
      case STEP_MISMATCH -> "The aggregators disagree on the current step";
      case BATCH_OVERLAP -> "The query includes reports that were collected in a different batch";
      case UNSUPPORTED_EXTENSION -> "Unsupported extension";
      case INVALID_EXTENSION -> "Invalid extension";
    };
  }

  /** Returns the DAP error type, or empty for a plain HTTP error. */
  public Optional<DapError> error() {
    return Optional.ofNullable(error);
  }

  /** Returns the "type" member: the DAP URN or {@code about:blank}. */
  public String type() {
    return error == null ? "about:blank" : error.urn();
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
