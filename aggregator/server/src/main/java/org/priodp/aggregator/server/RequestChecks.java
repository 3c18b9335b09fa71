package org.priodp.aggregator.server;

import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.task.AuthToken;

/**
 * Checks a DAP request before its resource reads it (DAP-18 "HTTP Usage", "Errors", "Request
 * Authentication"): the bearer token (401), the body size (413) and the Content-Type, parsed per
 * RFC 9110 ({@link MediaType}): {@code application/ppm-dap} in any case, the {@code message}
 * parameter exactly the wanted message, other parameters (such as DAP's {@code version}) accepted
 * and ignored (anything else: 415). Each check throws a {@link DapProblem} with the task ID.
 */
final class RequestChecks {
  private RequestChecks() {}

  /** Checks the Authorization header against the task's bearer token (constant time); 401. */
  static void bearer(AuthToken token, String authorization, TaskId taskId) {
    if (authorization == null) {
      throw DapProblem.http(401, "Unauthorized", "missing bearer token", taskId);
    }
    if (!token.matchesAuthorization(authorization)) {
      throw DapProblem.http(401, "Unauthorized", "wrong bearer token", taskId);
    }
  }

  /** Checks that the body has at most {@code maxBody} bytes; 413 otherwise. */
  static void bodySize(byte[] body, int maxBody, TaskId taskId) {
    if (body.length > maxBody) {
      throw DapProblem.http(413, "Content Too Large", "the body exceeds " + maxBody + " bytes",
          taskId);
    }
  }

  /** Checks that a Content-Type names the DAP message {@code wanted}; 415 otherwise. */
  static void messageType(String contentType, DapMediaType wanted, TaskId taskId) {
    String expected = wanted.contentType();
    if (contentType == null) {
      throw DapProblem.http(415, "Unsupported Media Type", "missing Content-Type; expected "
          + expected, taskId);
    }
    MediaType type;
    try {
      type = MediaType.parse(contentType);
    } catch (IllegalArgumentException e) {
      throw DapProblem.http(415, "Unsupported Media Type", "malformed Content-Type ("
          + e.getMessage() + "); expected " + expected, taskId);
    }
    int slash = DapMediaType.BASE.indexOf('/');
    if (!type.is(DapMediaType.BASE.substring(0, slash), DapMediaType.BASE.substring(slash + 1))) {
      throw DapProblem.http(415, "Unsupported Media Type", "expected Content-Type " + expected,
          taskId);
    }
    String message = type.parameter("message");
    if (!wanted.message().equals(message)) {
      throw DapProblem.http(415, "Unsupported Media Type", (message == null
          ? "the message parameter is missing" : "the message parameter names another message")
          + "; expected " + expected, taskId);
    }
  }
}
