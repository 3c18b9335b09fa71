package org.priodp.aggregator.interop;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.server.HttpReply;
import org.priodp.aggregator.server.MountedRoutes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shape every endpoint of the interoperation test API shares (draft-dcook-ppm-dap-interop-
 * test-design, "Interoperation Test API"): {@code POST /internal/test/NAME} with a JSON object
 * (an empty body reads as {@code {}}), answered 200 with a JSON object, {@code application/json}.
 * A subclass registers its endpoints by name; this class does the rest:
 *
 * <ul>
 *   <li>a path under {@code /internal/test/} that names no endpoint is 404, as the draft asks;
 *   <li>a method other than POST is 405 with {@code Allow: POST};
 *   <li>a body that is not one JSON object is 400 with {@code {"status": "error", "error":
 *       "body: ..."}};
 *   <li>a request whose fields are wrong is 200 with {@code {"status": "error", "error":
 *       "FIELD: what is wrong"}} (the endpoint throws IllegalArgumentException naming the field,
 *       as {@link Request}'s readers do), and so is a DAP-level failure;
 *   <li>anything else an endpoint throws is logged and answered 200 with {@code "status":
 *       "error"} naming the exception's class, never a 500 or a stack trace.
 * </ul>
 *
 * Unknown top-level fields are ignored (the draft adds keys as it evolves); unknown keys inside a
 * nested object that prio-dp reads strictly (the VDAF, prio-dp's own {@code "prio_dp"} object)
 * are refused. Thread-safe if the subclass's endpoints are.
 */
public abstract class InteropApi implements MountedRoutes {
  /** The path prefix of every endpoint. */
  public static final String PREFIX = "/internal/test/";
  private static final Logger LOG = LoggerFactory.getLogger(InteropApi.class);
  static final ObjectMapper JSON = new ObjectMapper();

  /** One endpoint: reads the request object and returns the response object. */
  @FunctionalInterface
  protected interface Endpoint {
    /** Answers the request; throws IllegalArgumentException naming a field that is wrong. */
    ObjectNode call(Request request) throws Exception;
  }

  private final Map<String, Endpoint> endpoints = new LinkedHashMap<>();

  /** Registers the endpoint {@code /internal/test/NAME}; call it from the constructor only. */
  protected final void endpoint(String name, Endpoint e) {
    endpoints.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(e, "endpoint"));
  }

  /** Returns the role this API plays, for logs: "Leader or Helper", "Client", "Collector". */
  protected abstract String role();

  @Override
  public final String prefix() {
    return PREFIX;
  }

  @Override
  public final String routeOf(String path) {
    String name = path.startsWith(PREFIX) ? path.substring(PREFIX.length()) : "";
    return endpoints.containsKey(name) ? PREFIX + name : PREFIX + "{unknown}";
  }

  /** Returns the names of the endpoints served, in registration order. */
  public final java.util.Set<String> endpointNames() {
    return java.util.Collections.unmodifiableSet(endpoints.keySet());
  }

  @Override
  public final HttpReply handle(String method, String path, String contentType, byte[] body) {
    String name = path.startsWith(PREFIX) ? path.substring(PREFIX.length()) : path;
    Endpoint e = endpoints.get(name);
    if (e == null) {
      return reply(404, error("no such test endpoint " + path + " on this " + role() + " ("
          + String.join(", ", endpoints.keySet()) + ")"));
    }
    if (!"POST".equals(method)) {
      return reply(405, error("use POST")).withHeader("Allow", "POST");
    }
    JsonNode root;
    try {
      root = body == null || body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
    } catch (JsonProcessingException ex) {
      return reply(400, error("body: not JSON (line " + ex.getLocation().getLineNr()
          + ", column " + ex.getLocation().getColumnNr() + ")"));
    } catch (java.io.IOException ex) {
      return reply(400, error("body: unreadable"));
    }
    if (root == null || root.isMissingNode()) {
      root = JSON.createObjectNode();
    }
    if (!root.isObject()) {
      return reply(400, error("body: expected a JSON object, got " + kind(root)));
    }
    try {
      return reply(200, e.call(new Request((ObjectNode) root, "")));
    } catch (IllegalArgumentException ex) {
      LOG.info("interop {}: {}", name, ex.getMessage());
      return reply(200, error(ex.getMessage()));
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return reply(200, error("interrupted"));
    } catch (Exception ex) {
      LOG.warn("interop {} failed: {}", name, ex.toString(), ex);
      return reply(200, error(ex.getClass().getSimpleName()
          + (ex.getMessage() == null ? "" : ": " + ex.getMessage())));
    }
  }

  /** Returns {@code {"status": "success"}}. */
  protected static ObjectNode success() {
    return JSON.createObjectNode().put("status", "success");
  }

  /** Returns {@code {"status": "error", "error": message}}. */
  protected static ObjectNode error(String message) {
    return JSON.createObjectNode().put("status", "error").put("error", message);
  }

  private static HttpReply reply(int status, ObjectNode body) {
    byte[] bytes;
    try {
      bytes = JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return new HttpReply(status, Map.of("Content-Type", "application/json"), bytes);
  }

  private static String kind(JsonNode n) {
    return n.isArray() ? "an array" : n.isTextual() ? "a string" : n.isNumber() ? "a number"
        : n.isBoolean() ? "a boolean" : n.isNull() ? "null" : n.getNodeType().toString();
  }

  /**
   * A request object with readers that name the field (with its path, e.g. {@code vdaf.length})
   * in every IllegalArgumentException they throw.
   */
  protected static final class Request {
    private final ObjectNode node;
    private final String path;

    Request(ObjectNode node, String path) {
      this.node = node;
      this.path = path;
    }

    /** Returns the field's name with this object's path. */
    public String name(String field) {
      return path + field;
    }

    /** Returns whether the field is present and not null. */
    public boolean has(String field) {
      return node.hasNonNull(field);
    }

    /** Returns the field's value; throws if it is missing. */
    public JsonNode need(String field) {
      if (!has(field)) {
        throw new IllegalArgumentException(name(field) + ": missing");
      }
      return node.get(field);
    }

    /** Returns the field names present, in order. */
    public java.util.List<String> fields() {
      java.util.List<String> names = new java.util.ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      return names;
    }

    /** Refuses any field not in {@code allowed} (for the objects prio-dp reads strictly). */
    public void only(java.util.Set<String> allowed) {
      for (String f : fields()) {
        if (!allowed.contains(f)) {
          throw new IllegalArgumentException(name(f) + ": unknown field (expected "
              + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
        }
      }
    }

    /** Returns a string field. */
    public String text(String field) {
      JsonNode v = need(field);
      if (!v.isTextual()) {
        throw new IllegalArgumentException(name(field) + ": expected a string, got " + kind(v));
      }
      return v.asText();
    }

    /** Returns a string field if present. */
    public Optional<String> optText(String field) {
      return has(field) ? Optional.of(text(field)) : Optional.empty();
    }

    /**
     * Returns an unsigned integer field that fits a long: a JSON integer or a string of decimal
     * digits (the draft writes VDAF values as strings, other numbers as numbers).
     */
    public long number(String field) {
      BigInteger b = bigNumber(field);
      if (b.bitLength() > 63) {
        throw new IllegalArgumentException(name(field) + ": " + b + " is too large");
      }
      return b.longValue();
    }

    /** Returns an unsigned integer field (a JSON integer or a string of decimal digits). */
    public BigInteger bigNumber(String field) {
      JsonNode v = need(field);
      if (v.isIntegralNumber() && v.bigIntegerValue().signum() >= 0) {
        return v.bigIntegerValue();
      }
      if (v.isTextual() && v.asText().matches("[0-9]{1,40}")) {
        return new BigInteger(v.asText());
      }
      throw new IllegalArgumentException(name(field) + ": expected an unsigned integer, got "
          + (v.isTextual() ? "\"" + abbreviate(v.asText()) + "\"" : kind(v)));
    }

    /** Returns an unsigned integer field if present. */
    public Optional<Long> optNumber(String field) {
      return has(field) ? Optional.of(number(field)) : Optional.empty();
    }

    /** Returns a base64url field (RFC 4648 section 5; padding optional) decoded. */
    public byte[] base64Url(String field) {
      String s = text(field);
      if (!s.matches("[A-Za-z0-9_-]*={0,2}")) {
        throw new IllegalArgumentException(name(field) + ": not base64url (RFC 4648 section 5:"
            + " A-Z a-z 0-9 - _)");
      }
      try {
        return Base64.getUrlDecoder().decode(s.getBytes(StandardCharsets.US_ASCII));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(name(field) + ": not base64url (" + e.getMessage()
            + ")", e);
      }
    }

    /** Returns {@code task_id}: a base64url DAP TaskID of 32 bytes. */
    public TaskId taskId() {
      byte[] b = base64Url("task_id");
      try {
        return new TaskId(b);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(name("task_id") + ": " + b.length + " bytes, a DAP"
            + " TaskID has " + TaskId.LENGTH, e);
      }
    }

    /** Returns a nested object field. */
    public Request object(String field) {
      JsonNode v = need(field);
      if (!v.isObject()) {
        throw new IllegalArgumentException(name(field) + ": expected an object, got " + kind(v));
      }
      return new Request((ObjectNode) v, name(field) + ".");
    }

    /** Returns the object as JSON, for readers that take Jackson trees. */
    public ObjectNode json() {
      return node;
    }

    private static String abbreviate(String s) {
      return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
  }
}
