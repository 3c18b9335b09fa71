package org.priodp.aggregator.client;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import org.priodp.aggregator.dap.DapError;

/**
 * An aggregator refused a request with an error status (DAP-18 "Errors"): the status, the
 * problem document's "type" (a DAP error such as {@code invalidBatchSize}, or another URI), and
 * its "detail". The message names the DAP error type when there is one, e.g. {@code the Leader
 * refused the collection job: invalidBatchSize (HTTP 400): ...}.
 */
public final class DapProblemException extends IOException {
  private static final long serialVersionUID = 1L;
  private static final int MAX_DETAIL = 500;

  private final int status;
  private final String type;
  private final DapError error;
  private final String detail;

  /** Returns the exception for a status, a problem type (or null) and a detail (or null). */
  public DapProblemException(String what, int status, String type, String detail) {
    super(message(what, status, type, detail));
    this.status = status;
    this.type = type == null ? "about:blank" : type;
    this.error = dapError(this.type).orElse(null);
    this.detail = detail == null ? "" : detail;
  }

  private static Optional<DapError> dapError(String type) {
    if (!type.startsWith(DapError.URN_PREFIX)) {
      return Optional.empty();
    }
    try {
      return Optional.of(DapError.fromType(type));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static String message(String what, int status, String type, String detail) {
    String t = type == null || type.equals("about:blank") ? null
        : type.startsWith(DapError.URN_PREFIX) ? type.substring(DapError.URN_PREFIX.length())
        : type;
    return what + ": " + (t == null ? "" : t + " ") + "(HTTP " + status + ")"
        + (detail == null || detail.isBlank() ? "" : ": " + detail);
  }

  /**
   * Returns the exception for an error response: its problem document (RFC 9457) if it has one,
   * else the start of the body as the detail.
   */
  static DapProblemException of(String what, HttpResponse<byte[]> response) {
    String contentType = response.headers().firstValue("Content-Type").orElse("")
        .toLowerCase(Locale.ROOT);
    byte[] body = response.body() == null ? new byte[0] : response.body();
    String type = null;
    String detail = null;
    if (contentType.startsWith("application/problem+json") || contentType.contains("json")) {
      ProblemDocument doc = ProblemDocument.parse(new String(body, StandardCharsets.UTF_8))
          .orElse(null);
      if (doc != null) {
        type = doc.string("type").orElse(null);
        detail = doc.string("detail").or(() -> doc.string("title")).orElse(null);
      }
    }
    if (type == null && detail == null && body.length > 0) {
      detail = new String(body, 0, Math.min(body.length, MAX_DETAIL), StandardCharsets.UTF_8)
          .strip();
    }
    if (detail != null && detail.length() > MAX_DETAIL) {
      detail = detail.substring(0, MAX_DETAIL) + "...";
    }
    return new DapProblemException(what, response.statusCode(), type, detail);
  }

  /** Returns the HTTP status. */
  public int status() {
    return status;
  }

  /** Returns the problem type: a DAP URN, another URI, or {@code about:blank}. */
  public String type() {
    return type;
  }

  /** Returns the DAP error, when the type is one of DAP-18's. */
  public Optional<DapError> error() {
    return Optional.ofNullable(error);
  }

  /** Returns the problem's detail (empty if it had none). */
  public String detail() {
    return detail;
  }
}
