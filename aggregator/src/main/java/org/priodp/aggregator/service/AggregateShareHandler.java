package org.priodp.aggregator.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.priodp.aggregator.core.DapProblem;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.store.AggregateShareResource;
import org.priodp.aggregator.store.AggregateShareStore;
import org.priodp.aggregator.store.ReleasedAggregateShare;
import org.priodp.aggregator.task.TaskDefinition;

/**
 * Handles the Helper's aggregate-share resources independently of the HTTP server (DAP-18
 * "Obtaining Aggregate Shares", "Aggregate Share Deletion", "Resource Creation", "Errors"):
 * {@code POST /tasks/{task-id}/aggregate_shares} answers synchronously with 200, a Location and
 * the AggregateShare; {@code GET} and {@code DELETE} act on that Location; {@code GET /healthz}
 * reports liveness. Every refusal is an {@code application/problem+json} document: DAP error
 * types use their URN with "taskid" when the task is known; HTTP-level refusals (401 missing or
 * wrong bearer token, 404, 405, 413, 415) use {@code about:blank}. Store failures are 500.
 *
 * <p>The aggregate share ID is derived from the task and the request digest, so a repeated POST
 * finds the same resource (DAP-18 "Resource Creation"). Blocking: call it off the event loop.
 */
public final class AggregateShareHandler {
  /** The default limit on request bodies, in bytes. */
  public static final int DEFAULT_MAX_BODY = 64 * 1024;
  static final String PROBLEM_JSON = "application/problem+json";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(AggregateShareHandler.class);
  private static final byte[] ID_LABEL =
      "prio-dp aggregate share id v1".getBytes(StandardCharsets.US_ASCII);

  private final Map<TaskId, TaskDefinition> tasks;
  private final AggregateShareStore store;
  private final NoisedShareService service;
  private final int maxBody;

  /** Creates the handler for the tasks over the store and core service. */
  public AggregateShareHandler(List<TaskDefinition> tasks, AggregateShareStore store,
      NoisedShareService service, int maxBody) {
    this.tasks = Objects.requireNonNull(tasks, "tasks").stream()
        .collect(Collectors.toUnmodifiableMap(TaskDefinition::taskId, Function.identity()));
    this.store = Objects.requireNonNull(store, "store");
    this.service = Objects.requireNonNull(service, "service");
    if (maxBody < 1) {
      throw new IllegalArgumentException("maxBody must be positive");
    }
    this.maxBody = maxBody;
  }

  /** Returns the body size limit in bytes. */
  public int maxBody() {
    return maxBody;
  }

  /** Returns the core service (e.g. to read its draw counter). */
  public NoisedShareService service() {
    return service;
  }

  /**
   * Handles one request; {@code path} excludes the query string, {@code authorization} and
   * {@code contentType} are header values or null. Never throws for client input.
   */
  public HttpReply handle(String method, String path, String authorization, String contentType,
      byte[] body) {
    try {
      return route(method, path, authorization, contentType, body == null ? new byte[0] : body);
    } catch (DapProblem p) {
      return problem(p);
    } catch (RuntimeException e) {
      LOG.warn("server fault on {} {}: {}", method, path, e.toString());
      // A server fault (e.g. the database is down); details stay in the log, never in the reply.
      return problem(DapProblem.http(500, "Internal Server Error",
          "the aggregator could not complete the request", null));
    }
  }

  private HttpReply route(String method, String path, String authorization, String contentType,
      byte[] body) {
    if ("/healthz".equals(path)) {
      if (!"GET".equals(method) && !"HEAD".equals(method)) {
        throw DapProblem.http(405, "Method Not Allowed", "use GET", null);
      }
      return new HttpReply(200, Map.of("Content-Type", "application/json"),
          "{\"status\":\"ok\"}".getBytes(StandardCharsets.US_ASCII));
    }
    String[] parts = path == null ? new String[0] : path.split("/", -1);
    // "", "tasks", "{task-id}", "aggregate_shares"[, "{id}"]
    if (parts.length < 4 || parts.length > 5 || !parts[0].isEmpty() || !"tasks".equals(parts[1])
        || !"aggregate_shares".equals(parts[3])) {
      throw DapProblem.http(404, "Not Found", "no such resource", null);
    }
    TaskId taskId;
    try {
      taskId = TaskId.fromBase64Url(parts[2]);
    } catch (DapDecodeException e) {
      throw DapProblem.dap(DapError.UNRECOGNIZED_TASK, null, "the task ID is not 32 bytes of"
          + " URL-safe unpadded base64");
    }
    TaskDefinition task = tasks.get(taskId);
    if (task == null) {
      throw DapProblem.dap(DapError.UNRECOGNIZED_TASK, taskId, "unknown task");
    }
    if (authorization == null) {
      throw DapProblem.http(401, "Unauthorized", "missing bearer token", taskId);
    }
    if (!task.authToken().matchesAuthorization(authorization)) {
      throw DapProblem.http(401, "Unauthorized", "wrong bearer token", taskId);
    }
    if (parts.length == 4) {
      if (!"POST".equals(method)) {
        throw DapProblem.http(405, "Method Not Allowed", "use POST", taskId);
      }
      return post(task, contentType, body);
    }
    AggregateShareId id;
    try {
      id = AggregateShareId.fromBase64Url(parts[4]);
    } catch (DapDecodeException e) {
      throw DapProblem.http(404, "Not Found", "no such aggregate share", taskId);
    }
    return switch (method) {
      case "GET" -> get(task, id);
      case "DELETE" -> delete(task, id);
      default -> throw DapProblem.http(405, "Method Not Allowed", "use GET or DELETE", taskId);
    };
  }

  private static boolean isAggregateShareReqType(String contentType) {
    if (contentType == null) {
      return false;
    }
    String t = contentType.toLowerCase(Locale.ROOT).replace(" ", "").replace("\t", "");
    return t.equals(DapMediaType.AGGREGATE_SHARE_REQ.contentType())
        || t.equals(DapMediaType.BASE + ";message=\"" + DapMediaType.AGGREGATE_SHARE_REQ.message()
            + "\"");
  }

  private HttpReply post(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    if (!isAggregateShareReqType(contentType)) {
      throw DapProblem.http(415, "Unsupported Media Type", "expected Content-Type "
          + DapMediaType.AGGREGATE_SHARE_REQ.contentType(), taskId);
    }
    if (body.length > maxBody) {
      throw DapProblem.http(413, "Content Too Large", "the body exceeds " + maxBody + " bytes",
          taskId);
    }
    AggregateShareReq req;
    try {
      req = AggregateShareReq.decode(body);
    } catch (DapDecodeException e) {
      throw DapProblem.dap(e.error(), taskId, e.getMessage());
    }
    ReleasedAggregateShare released = service.release(task, req);
    AggregateShareId id = resourceId(taskId, released.requestDigest());
    AggregateShareResource resource = store.createResourceIfAbsent(new AggregateShareResource(
        taskId, id, released.batchIdentifier(), released.requestDigest(),
        released.createdAt()));
    return share(task, resource.id(), released);
  }

  private HttpReply get(TaskDefinition task, AggregateShareId id) {
    Optional<AggregateShareResource> r = store.resource(task.taskId(), id);
    if (r.isEmpty()) {
      throw DapProblem.http(404, "Not Found", "no such aggregate share", task.taskId());
    }
    ReleasedAggregateShare released = service.released(task.taskId(), r.get().batchIdentifier())
        .orElseThrow(() -> new IllegalStateException("resource without a released share"));
    return share(task, id, released);
  }

  private HttpReply delete(TaskDefinition task, AggregateShareId id) {
    if (!store.deleteResource(task.taskId(), id)) {
      throw DapProblem.http(404, "Not Found", "no such aggregate share", task.taskId());
    }
    return new HttpReply(200, Map.of(), new byte[0]);
  }

  private static HttpReply share(TaskDefinition task, AggregateShareId id,
      ReleasedAggregateShare released) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Location", location(task.taskId(), id));
    h.put("Content-Type", DapMediaType.AGGREGATE_SHARE.contentType());
    return new HttpReply(200, h, released.aggregateShare());
  }

  /** Returns the resource path {@code /tasks/{task-id}/aggregate_shares/{id}}. */
  public static String location(TaskId taskId, AggregateShareId id) {
    return "/tasks/" + taskId.toBase64Url() + "/aggregate_shares/" + id.toBase64Url();
  }

  /** Derives the aggregate share ID from the task and the request digest. */
  static AggregateShareId resourceId(TaskId taskId, byte[] requestDigest) {
    byte[] input = new byte[ID_LABEL.length + TaskId.LENGTH + requestDigest.length];
    System.arraycopy(ID_LABEL, 0, input, 0, ID_LABEL.length);
    System.arraycopy(taskId.bytes(), 0, input, ID_LABEL.length, TaskId.LENGTH);
    System.arraycopy(requestDigest, 0, input, ID_LABEL.length + TaskId.LENGTH,
        requestDigest.length);
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(input);
      return new AggregateShareId(Arrays.copyOf(d, AggregateShareId.LENGTH));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }

  /** Returns the problem+json reply for a problem (RFC 9457; DAP-18 "Errors"). */
  public static HttpReply problem(DapProblem p) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("type", p.type());
    n.put("title", p.title());
    n.put("status", p.status());
    n.put("detail", p.detail());
    p.taskId().ifPresent(t -> n.put("taskid", t.toBase64Url()));
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Content-Type", PROBLEM_JSON);
    if (p.status() == 401) {
      h.put("WWW-Authenticate", "Bearer");
    }
    byte[] body;
    try {
      body = MAPPER.writeValueAsBytes(n);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    return new HttpReply(p.status(), h, body);
  }
}
