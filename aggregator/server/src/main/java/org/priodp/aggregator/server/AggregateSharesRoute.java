package org.priodp.aggregator.server;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.core.Refusal;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregateShareRequest;
import org.priodp.aggregator.datastore.AggregateShareResource;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;
import org.priodp.aggregator.server.internal.Causes;

/**
 * The Helper's aggregate-share resources (DAP-18 "Obtaining Aggregate Shares", "Aggregate Share
 * Deletion", "Resource Creation", "Asynchronous Request Handling"), reached through {@link
 * DapRouter} after it has found the Helper task and checked the Leader's bearer token: {@code POST
 * {base}tasks/{task-id}/aggregate_shares} answers with 200, a Location and the AggregateShare;
 * {@code GET} and {@code DELETE} act on that Location ({@code {base}} is the path of the task's
 * helper_aggregator_endpoint, {@link TaskRoutes}). The request Content-Type must name {@code
 * aggregate-share-req} ({@link RequestChecks}).
 *
 * <p>The aggregate share ID is derived from the task and the request digest, so a repeated POST
 * finds the same resource. Noise is drawn once per batch: every share comes from the once-only
 * {@link NoisedShareService#release}. In asynchronous mode ({@link AsyncShares}) a new request is
 * answered with an empty body, a Location and Retry-After, and released on the executor; GET on
 * the Location serves the share once released, or the error it failed with (a refusal of a 5xx
 * type, such as an unreachable collector identity, is answered once and then retried). Blocking: call it
 * off the event loop. Thread-safe.
 */
public final class AggregateSharesRoute implements TaskResource {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(AggregateSharesRoute.class);
  private static final byte[] ID_LABEL =
      "prio-dp aggregate share id v1".getBytes(StandardCharsets.US_ASCII);

  /**
   * How aggregate shares are answered asynchronously (DAP-18 "Asynchronous Request Handling"):
   * the executor that releases them and the Retry-After (seconds) of the not-ready answer.
   */
  public record AsyncShares(Executor executor, int retryAfterSeconds) {
    /** Validates the fields. */
    public AsyncShares {
      Objects.requireNonNull(executor, "executor");
      if (retryAfterSeconds < 0) {
        throw new IllegalArgumentException("retryAfterSeconds must not be negative");
      }
    }
  }

  private final Datastore store;
  private final NoisedShareService service;
  private final int maxBody;
  private final Optional<AsyncShares> asyncShares;
  private final Clock clock;
  private final Set<AggregateShareId> sharesInFlight = ConcurrentHashMap.newKeySet();
  /** Background refusals of a 5xx type, each answered to the next GET and then forgotten. */
  private final java.util.Map<AggregateShareId, Refusal> transientRefusals =
      new ConcurrentHashMap<>();

  /**
   * Creates the route over the store and the once-only release, refusing bodies above {@code
   * maxBody} bytes (413); asynchronous with {@code asyncShares}, whose requests are dated by {@code clock}.
   */
  AggregateSharesRoute(Datastore store, NoisedShareService service, int maxBody,
      Optional<AsyncShares> asyncShares, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.service = Objects.requireNonNull(service, "service");
    if (maxBody < 1) {
      throw new IllegalArgumentException("maxBody must be positive");
    }
    this.maxBody = maxBody;
    this.asyncShares = Objects.requireNonNull(asyncShares, "asyncShares");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Returns the once-only release (e.g. to read its draw counter). */
  public NoisedShareService service() {
    return service;
  }

  /** Returns whether aggregate shares are answered asynchronously. */
  public boolean isAsynchronous() {
    return asyncShares.isPresent();
  }

  @Override
  public HttpReply create(TaskDefinition task, String contentType, byte[] body) {
    if (asyncShares.isPresent()) {
      return postAsync(task, contentType, body);
    }
    return post(task, contentType, body);
  }

  @Override
  public HttpReply handle(String method, TaskDefinition task, String resourceId, String query,
      String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    AggregateShareId id;
    try {
      id = AggregateShareId.fromBase64Url(resourceId);
    } catch (DapDecodeException e) {
      throw DapProblem.http(404, "Not Found", "no such aggregate share", taskId);
    }
    return switch (method) {
      case "GET" -> get(task, id);
      case "DELETE" -> delete(task, id);
      default -> DapProblem.methodNotAllowed("GET, DELETE", taskId);
    };
  }

  /** Checks the Content-Type and size of an AggregateShareReq and decodes it. */
  private AggregateShareReq request(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    RequestChecks.messageType(contentType, DapMediaType.AGGREGATE_SHARE_REQ, taskId);
    RequestChecks.bodySize(body, maxBody, taskId);
    try {
      return AggregateShareReq.decode(body, task.attribution().codePoints().collectorSelected());
    } catch (DapDecodeException e) {
      throw DapProblem.dap(e.error(), taskId, e.getMessage());
    }
  }

  private HttpReply post(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    AggregateShareReq req = request(task, contentType, body);
    ReleasedAggregateShare released = service.release(task, req);
    AggregateShareId id = resourceId(taskId, released.requestDigest());
    AggregateShareResource resource = store.inTaskTransaction(taskId,
        tx -> tx.aggregateShares().createIfAbsent(new AggregateShareResource(
        taskId, id, released.batch(), released.requestDigest(),
        released.createdAt())));
    return share(task, resource.id(), released);
  }

  private HttpReply get(TaskDefinition task, AggregateShareId id) {
    Optional<AggregateShareResource> r = store.inTaskTransaction(task.taskId(),
        tx -> tx.aggregateShares().get(id));
    if (r.isEmpty()) {
      throw DapProblem.http(404, "Not Found", "no such aggregate share", task.taskId());
    }
    if (asyncShares.isPresent()) {
      return pendingOrDone(task, r.get());
    }
    ReleasedAggregateShare released = service.released(task.taskId(), r.get().batch())
        .orElseThrow(() -> new IllegalStateException("resource without a released share"));
    return share(task, id, released);
  }

  private HttpReply delete(TaskDefinition task, AggregateShareId id) {
    if (!store.inTaskTransaction(task.taskId(), tx -> tx.aggregateShares().delete(id))) {
      throw DapProblem.http(404, "Not Found", "no such aggregate share", task.taskId());
    }
    return new HttpReply(200, Map.of(), new byte[0]);
  }

  /**
   * The asynchronous POST: a batch released before is answered at once (the same once-only
   * release returns the stored share, or refuses another request for it); otherwise the request
   * is stored, the resource created, the release started in the background and the answer is
   * 200 with Location, Retry-After and an empty body.
   */
  private HttpReply postAsync(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    AggregateShareReq req = request(task, contentType, body);
    BatchIdentifier batch = BatchBuckets.batchIdentifier(req.batchSelector());
    if (service.released(taskId, batch).isPresent()) {
      return post(task, contentType, body);
    }
    ByteString digest = NoisedShareService.requestDigest(req);
    AggregateShareId id = resourceId(taskId, digest);
    java.time.Instant now = clock.instant();
    store.inTaskTransaction(taskId, tx -> tx.aggregateShares().putRequestIfAbsent(
        new AggregateShareRequest(taskId,
        id, ByteString.copyOf(req.encode()), Optional.empty(), Optional.empty(), now)));
    AggregateShareResource resource = store.inTaskTransaction(taskId,
        tx -> tx.aggregateShares().createIfAbsent(new AggregateShareResource(
        taskId, id, batch, digest, now)));
    return pendingOrDone(task, resource);
  }

  /**
   * Answers an asynchronous resource: its share once released for its request, the error it
   * failed with, or (starting its release if no thread of this process runs it) not ready yet.
   */
  private HttpReply pendingOrDone(TaskDefinition task, AggregateShareResource resource) {
    TaskId taskId = task.taskId();
    Optional<ReleasedAggregateShare> released = service.released(taskId, resource.batch());
    if (released.isPresent() && released.get().requestDigest().equals(resource.requestDigest())) {
      return share(task, resource.id(), released.get());
    }
    Optional<AggregateShareRequest> stored =
        store.inTaskTransaction(taskId, tx -> tx.aggregateShares().request(resource.id()));
    if (stored.isEmpty()) {
      throw new IllegalStateException("aggregate share resource without a released share or a"
          + " stored request");
    }
    if (stored.get().errorType().isPresent()) {
      throw DapProblem.recorded(stored.get().errorType().get(), taskId,
          stored.get().errorDetail().orElse("the aggregate share request failed"));
    }
    Refusal transientRefusal = transientRefusals.remove(resource.id());
    if (transientRefusal != null) {
      throw DapProblem.of(transientRefusal);
    }
    submit(task, stored.get());
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Location", location(task, resource.id()));
    h.put("Retry-After", Integer.toString(asyncShares.orElseThrow().retryAfterSeconds()));
    return new HttpReply(200, h, new byte[0]);
  }

  private void submit(TaskDefinition task, AggregateShareRequest stored) {
    AggregateShareId id = stored.id();
    if (!sharesInFlight.add(id)) {
      return;
    }
    try {
      asyncShares.orElseThrow().executor().execute(() -> {
        try {
          service.release(task, AggregateShareReq.decode(stored.request().toByteArray(),
              task.attribution().codePoints().collectorSelected()));
        } catch (Refusal r) {
          if (r.error().status() >= 500) {
            // a refusal worth retrying (the collector identity could not be asked): the next
            // GET answers it once, and the one after starts the release again
            transientRefusals.put(id, r);
          } else {
            store.inTaskTransaction(task.taskId(),
                tx -> tx.aggregateShares().failRequest(id, r.error().type(), r.detail()));
          }
        } catch (RuntimeException e) {
          // stays pending: the next GET or POST starts it again
          LOG.error("aggregate share {} failed: {}", id.toBase64Url(), Causes.forLog(e));
        } finally {
          sharesInFlight.remove(id);
        }
      });
    } catch (RejectedExecutionException e) {
      sharesInFlight.remove(id);
      throw e;
    }
  }

  private static HttpReply share(TaskDefinition task, AggregateShareId id,
      ReleasedAggregateShare released) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Location", location(task, id));
    h.put("Content-Type", DapMediaType.AGGREGATE_SHARE.contentType());
    return new HttpReply(200, h, released.aggregateShare().toByteArray());
  }

  /**
   * Returns the resource path {@code {base}tasks/{task-id}/aggregate_shares/{id}}, {@code {base}}
   * being the path of the task's helper endpoint.
   */
  public static String location(TaskDefinition task, AggregateShareId id) {
    return TaskRoutes.aggregateSharesPath(task) + "/" + id.toBase64Url();
  }

  /** Derives the aggregate share ID from the task and the request digest. */
  static AggregateShareId resourceId(TaskId taskId, ByteString digest) {
    byte[] requestDigest = digest.toByteArray();
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
}
