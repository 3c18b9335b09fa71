package org.priodp.aggregator.server;

import java.util.Map;
import java.util.Objects;

/**
 * An HTTP response produced by {@link DapRouter} (DAP-18 "HTTP Usage"): status, headers
 * (including Content-Type when there is a body) and body. Immutable apart from the body array,
 * which callers must not modify.
 */
public record HttpReply(int status, Map<String, String> headers, byte[] body) {
  /** Copies the headers. */
  public HttpReply {
    headers = Map.copyOf(Objects.requireNonNull(headers, "headers"));
    Objects.requireNonNull(body, "body");
  }

  /** Returns a copy with one more header (or one replaced). */
  public HttpReply withHeader(String name, String value) {
    java.util.Map<String, String> h = new java.util.LinkedHashMap<>(headers);
    h.put(name, value);
    return new HttpReply(status, h, body);
  }

  /** Returns the Content-Type header, or null. */
  public String contentType() {
    return headers.get("Content-Type");
  }
}
