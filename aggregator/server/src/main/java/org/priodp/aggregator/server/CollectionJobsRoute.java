package org.priodp.aggregator.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.time.Clock;
import org.priodp.aggregator.core.BudgetStatus;
import org.priodp.aggregator.core.CollectionJobService;
import org.priodp.aggregator.core.ProblemType;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.task.LedgerHeader;

/**
 * The Leader's collection-job resources (DAP-18 "Collection Job Initialization", "Collection Job
 * Deletion", "Asynchronous Request Handling", "Resource Creation"), reached through {@link
 * DapRouter} after it has found the Leader task and checked the Collector's bearer token:
 *
 * <ul>
 *   <li>{@code POST {leader}tasks/{task-id}/collection_jobs} with a CollectionJobReq (media type
 *       {@code application/ppm-dap;message=collection-job-req}, parsed by {@link
 *       RequestChecks}): the job is created, or found for a byte-identical request,
 *       and answered like a GET on its Location.
 *   <li>{@code GET} on {@code {leader}tasks/{task-id}/collection_jobs/{collection-job-id}}: while
 *       pending, 200 with Location, Retry-After and an empty body; when ready, 200 with the
 *       CollectionJobResp (from then on the Collector has the batch) and, when the route reads
 *       the ledger, the prio-dp header {@link LedgerHeader#NAME} (what the release cost a privacy
 *       unit, what is spent and left, read from the ledger at the time of the answer; the DAP
 *       body is the same bytes with or without it); when failed, the problem
 *       document of its error (a refusal the Helper did not type is a 502); 404 for a deleted or
 *       unknown job.
 *   <li>{@code DELETE} on it: 200 and the job is deleted; 404 if unknown or deleted already. A
 *       batch whose CollectionJobResp was answered stays collected; in the leader_selected mode
 *       the batch of a job deleted before that goes to the next job, with the same Leader share.
 * </ul>
 *
 * Jobs are stepped in the background ({@link CollectionJobDriver}). Blocking: call it off the
 * event loop. Thread-safe.
 */
public final class CollectionJobsRoute implements TaskResource {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(CollectionJobsRoute.class);
  private final CollectionJobService service;
  private final int retryAfterSeconds;
  private final int maxBody;
  private final Datastore ledgerStore; // null: no ledger header
  private final Clock clock;

  /**
   * Creates the route over the service; {@code retryAfterSeconds} is suggested to a Collector
   * polling a pending job, bodies above {@code maxBody} bytes are refused (413). A finished job's
   * answer carries no ledger header.
   */
  public CollectionJobsRoute(CollectionJobService service, int retryAfterSeconds, int maxBody) {
    this(service, retryAfterSeconds, maxBody, null, Clock.systemUTC());
  }

  /**
   * Creates the route as {@link #CollectionJobsRoute(CollectionJobService, int, int)} whose
   * finished jobs' answers carry the {@link LedgerHeader} read from {@code ledgerStore}'s ledger
   * at {@code clock}'s time (null: none).
   */
  public CollectionJobsRoute(CollectionJobService service, int retryAfterSeconds, int maxBody,
      Datastore ledgerStore, Clock clock) {
    this.ledgerStore = ledgerStore;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.service = Objects.requireNonNull(service, "service");
    if (retryAfterSeconds < 0) {
      throw new IllegalArgumentException("retryAfterSeconds must not be negative");
    }
    if (maxBody < 1) {
      throw new IllegalArgumentException("maxBody must be positive");
    }
    this.retryAfterSeconds = retryAfterSeconds;
    this.maxBody = maxBody;
  }

  /** Returns the core service. */
  public CollectionJobService service() {
    return service;
  }

  @Override
  public HttpReply handle(String method, TaskDefinition task, String resourceId, String query,
      String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    CollectionJobId id;
    try {
      id = CollectionJobId.fromBase64Url(resourceId);
    } catch (DapDecodeException e) {
      throw notFound(taskId);
    }
    return switch (method) {
      case "GET" -> answer(task, service.poll(taskId, id).orElseThrow(() -> notFound(taskId)));
      case "DELETE" -> {
        if (!service.delete(taskId, id)) {
          throw notFound(taskId);
        }
        yield new HttpReply(200, Map.of(), new byte[0]);
      }
      default -> DapProblem.methodNotAllowed("GET, DELETE", taskId);
    };
  }

  private static DapProblem notFound(TaskId taskId) {
    return DapProblem.http(404, "Not Found", "no such collection job", taskId);
  }

  @Override
  public HttpReply create(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    RequestChecks.messageType(contentType, DapMediaType.COLLECTION_JOB_REQ, taskId);
    RequestChecks.bodySize(body, maxBody, taskId);
    CollectionJobReq req;
    try {
      req = CollectionJobReq.decode(body, task.attribution().codePoints().collectorSelected());
    } catch (DapDecodeException e) {
      throw DapProblem.dap(e.error(), taskId, e.getMessage());
    }
    return answer(task, service.create(task, req));
  }

  /**
   * Returns the prio-dp ledger header of a finished job, or empty (with one WARN) if the ledger
   * cannot be read: the header is a courtesy, the DAP answer never fails for it.
   */
  private java.util.Optional<String> ledgerHeader(TaskDefinition task, CollectionJobRecord job) {
    try {
      return BudgetStatus.read(ledgerStore, task, clock.instant())
          .flatMap(b -> b.header(job.batch())).map(LedgerHeader::format);
    } catch (RuntimeException e) {
      LOG.warn("task {}: the {} header is left out: {}", task.taskId().toBase64Url(),
          LedgerHeader.NAME, e.toString());
      return java.util.Optional.empty();
    }
  }

  private HttpReply answer(TaskDefinition task, CollectionJobRecord job) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Location", location(task, job.jobId()));
    return switch (job.state()) {
      case READY -> {
        h.put("Content-Type", DapMediaType.COLLECTION_JOB_RESP.contentType());
        if (ledgerStore != null) {
          ledgerHeader(task, job).ifPresent(l -> h.put(LedgerHeader.NAME, l));
        }
        yield new HttpReply(200, h, job.response().orElseThrow().toByteArray());
      }
      case PENDING, DELETED -> {
        h.put("Retry-After", Integer.toString(retryAfterSeconds));
        yield new HttpReply(200, h, new byte[0]);
      }
      case FAILED -> {
        String detail = job.errorDetail().orElse("the collection job failed");
        Optional<ProblemType> type = job.errorType().flatMap(ProblemType::ofType);
        throw type.isPresent() ? DapProblem.of(type.get(), task.taskId(), detail)
            : DapProblem.http(502, "Bad Gateway", detail, task.taskId());
      }
    };
  }

  /**
   * Returns the resource path {@code {base}tasks/{task-id}/collection_jobs/{id}}, {@code {base}}
   * being the path of the task's leader endpoint.
   */
  public static String location(TaskDefinition task, CollectionJobId id) {
    return TaskRoutes.basePath(task.configuration().leaderAggregatorEndpoint()) + "tasks/"
        + task.taskId().toBase64Url() + "/collection_jobs/" + id.toBase64Url();
  }
}
