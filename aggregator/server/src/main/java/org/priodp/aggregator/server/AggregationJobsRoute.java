package org.priodp.aggregator.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.priodp.aggregator.core.AggregationJobService;
import org.priodp.aggregator.core.Refusal;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregationJobContinueReq;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.server.internal.Causes;

/**
 * The Helper's aggregation-job resources (DAP-18 "Helper Initialization", "Helper Continuation",
 * "Recovering from Aggregation Step Skew", "Aggregation Job Abandonment and Deletion",
 * "Asynchronous Request Handling", "Resource Creation"), reached through {@link DapRouter} after
 * it has found the Helper task and checked the Leader's bearer token:
 *
 * <ul>
 *   <li>{@code POST {base}tasks/{task-id}/aggregation_jobs} with an AggregationJobInitReq: the
 *       job ID is derived from the request, so an identical POST finds the same job. Synchronous
 *       mode: 200 with Location and the AggregationJobResp. Asynchronous mode: 200 with an empty
 *       body, Location {@code ...?step=0} and Retry-After; the job runs on the executor.
 *   <li>{@code POST} on the job URL with an AggregationJobContinueReq (see
 *       {@link AggregationJobService#continueJob}).
 *   <li>{@code GET} on the job URL with {@code ?step=N}: the stored response of step N, the
 *       empty not-ready answer while it is processed, the job's error if it failed, stepMismatch
 *       for another step; without {@code step}, invalidMessage.
 *   <li>{@code DELETE} on the job URL: abandons it (200), unrecognizedAggregationJob if unknown.
 * </ul>
 *
 * All answers use 200 for success: DAP-18's examples do, and "HTTP Status Codes" lets a client
 * read any 2xx as 200. Blocking: call it off the event loop. Thread-safe.
 */
public final class AggregationJobsRoute implements TaskResource {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(AggregationJobsRoute.class);

  private final AggregationJobService service;
  private final Executor async;
  private final int retryAfterSeconds;
  private final Set<AggregationJobId> inFlight = ConcurrentHashMap.newKeySet();
  /** The body size limit of aggregation-job requests: 16 MiB. */
  public static final int MAX_BODY = 16 * 1024 * 1024;

  /** Creates the synchronous route: each job is processed in its request. */
  public static AggregationJobsRoute synchronous(AggregationJobService service) {
    return new AggregationJobsRoute(service, null, 1);
  }

  /**
   * Creates the asynchronous route that runs jobs on {@code executor} (owned by the caller) and
   * suggests polling after {@code retryAfterSeconds}.
   */
  public static AggregationJobsRoute asynchronous(AggregationJobService service,
      Executor executor, int retryAfterSeconds) {
    return new AggregationJobsRoute(service, Objects.requireNonNull(executor, "executor"),
        retryAfterSeconds);
  }

  private AggregationJobsRoute(AggregationJobService service, Executor async,
      int retryAfterSeconds) {
    this.service = Objects.requireNonNull(service, "service");
    this.async = async;
    if (retryAfterSeconds < 0) {
      throw new IllegalArgumentException("retryAfterSeconds must not be negative");
    }
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** Returns the core service. */
  public AggregationJobService service() {
    return service;
  }

  /** Returns whether jobs are handled asynchronously. */
  public boolean isAsynchronous() {
    return async != null;
  }

  @Override
  public HttpReply handle(String method, TaskDefinition task, String jobSegment, String query,
      String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    AggregationJobId id;
    try {
      id = AggregationJobId.fromBase64Url(jobSegment);
    } catch (DapDecodeException e) {
      throw Refusal.of(DapError.UNRECOGNIZED_AGGREGATION_JOB, taskId, "no such aggregation job");
    }
    return switch (method) {
      case "POST" -> continueJob(task, id, contentType, body);
      case "GET" -> get(task, id, query);
      case "DELETE" -> {
        if (!service.abandon(taskId, id)) {
          throw Refusal.of(DapError.UNRECOGNIZED_AGGREGATION_JOB, taskId,
              "no such aggregation job");
        }
        yield new HttpReply(200, Map.of(), new byte[0]);
      }
      default -> DapProblem.methodNotAllowed("GET, POST, DELETE", taskId);
    };
  }

  @Override
  public HttpReply create(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    RequestChecks.messageType(contentType, DapMediaType.AGGREGATION_JOB_INIT_REQ, taskId);
    AggregationJobInitReq req;
    try {
      req = AggregationJobInitReq.decode(body);
    } catch (DapDecodeException e) {
      throw DapProblem.dap(e.error(), taskId, e.getMessage());
    }
    ByteString digest = AggregationJobService.digest(body);
    if (async == null) {
      return answer(task, service.initialize(task, req, digest), 0);
    }
    AggregationJobRecord job = service.accept(task, req, digest);
    if (job.state() == AggregationJobRecord.State.PENDING) {
      submit(task, req, digest, job.jobId());
    }
    return answer(task, job, 0);
  }

  private void submit(TaskDefinition task, AggregationJobInitReq req, ByteString digest,
      AggregationJobId id) {
    if (!inFlight.add(id)) {
      return;
    }
    async.execute(() -> {
      try {
        service.initialize(task, req, digest);
      } catch (Refusal r) {
        service.fail(task.taskId(), id, r);
      } catch (RuntimeException e) {
        // stays pending: a repeated POST of the same request submits it again
        LOG.error("aggregation job {} failed: {}", id.toBase64Url(), Causes.forLog(e));
      } finally {
        inFlight.remove(id);
      }
    });
  }

  private HttpReply continueJob(TaskDefinition task, AggregationJobId id, String contentType,
      byte[] body) {
    TaskId taskId = task.taskId();
    RequestChecks.messageType(contentType, DapMediaType.AGGREGATION_JOB_CONTINUE_REQ, taskId);
    AggregationJobContinueReq req;
    try {
      req = AggregationJobContinueReq.decode(body);
    } catch (DapDecodeException e) {
      throw DapProblem.dap(e.error(), taskId, e.getMessage());
    }
    AggregationJobRecord job = service.continueJob(task, id, req,
        AggregationJobService.digest(body));
    return answer(task, job, req.step());
  }

  private HttpReply get(TaskDefinition task, AggregationJobId id, String query) {
    TaskId taskId = task.taskId();
    Integer step = step(query);
    if (step == null) {
      throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "GET on an aggregation job needs"
          + " the step query parameter, e.g. ?step=0");
    }
    AggregationJobRecord job = service.job(taskId, id)
        .filter(j -> j.state() != AggregationJobRecord.State.ABANDONED)
        .orElseThrow(() -> Refusal.of(DapError.UNRECOGNIZED_AGGREGATION_JOB, taskId,
            "no such aggregation job"));
    if (step != job.step()) {
      throw Refusal.of(DapError.STEP_MISMATCH, taskId, "the job is at step " + job.step()
          + ", the request is for step " + step);
    }
    return answer(task, job, step);
  }

  /** Returns the step of a query string such as {@code step=1}, or null if absent or invalid. */
  static Integer step(String query) {
    if (query == null) {
      return null;
    }
    Integer step = null;
    for (String part : query.split("&")) {
      if (part.startsWith("step=")) {
        String v = part.substring(5);
        if (!v.matches("[0-9]{1,5}") || Integer.parseInt(v) > 0xffff || step != null) {
          return null;
        }
        step = Integer.parseInt(v);
      }
    }
    return step;
  }

  private HttpReply answer(TaskDefinition task, AggregationJobRecord job, int step) {
    String location = TaskRoutes.aggregationJobsPath(task) + "/" + job.jobId().toBase64Url();
    return switch (job.state()) {
      case READY, ABANDONED -> {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Location", location);
        h.put("Content-Type", DapMediaType.AGGREGATION_JOB_RESP.contentType());
        yield new HttpReply(200, h, job.response().orElseThrow().toByteArray());
      }
      case PENDING -> {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Location", location + "?step=" + step);
        h.put("Retry-After", Integer.toString(retryAfterSeconds));
        yield new HttpReply(200, h, new byte[0]);
      }
      case FAILED -> throw DapProblem.recorded(job.errorType().orElseThrow(), task.taskId(),
          job.errorDetail().orElse("the aggregation job failed"));
    };
  }
}
