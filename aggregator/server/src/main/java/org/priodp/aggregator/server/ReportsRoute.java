package org.priodp.aggregator.server;

import java.util.Map;
import java.util.Objects;
import org.priodp.aggregator.core.ProblemType;
import org.priodp.aggregator.core.Refusal;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.core.UploadService;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.UploadRequest;

/**
 * The Leader's reports resource {@code POST {leader}tasks/{task-id}/reports} (DAP-18 "Upload
 * Request", "Leader Behavior", "HTTP Resources Reference"), which {@link DapRouter} routes
 * here for Leader tasks without authentication. Only POST on the creation URL (the router
 * answers other methods with 405 and {@code Allow: POST}); the Content-Type must name {@code
 * upload-req} (else 415, parsed as for every DAP message); a body that is not a sequence of
 * whole Reports is invalidMessage (400); bodies are limited to {@link #MAX_BODY} (413). The
 * reports are decided by {@link UploadService}: 200 with an empty body when every report is accepted, else 200 with
 * {@code application/ppm-dap;message=upload-errors} listing the refused reports in request
 * order. Blocking: call it off the event loop. Thread-safe.
 */
public final class ReportsRoute implements TaskResource {
  /** The body limit of an upload (many reports), like an aggregation job's: 16 MiB. */
  public static final int MAX_BODY = 16 << 20;

  private final UploadService service;

  /** Creates the route over the core service. */
  public ReportsRoute(UploadService service) {
    this.service = Objects.requireNonNull(service, "service");
  }

  /** Returns the core service. */
  public UploadService service() {
    return service;
  }

  /**
   * Answers {@code POST tasks/{task-id}/reports/{collection-job-id}}, the upload to a collection
   * job of a collector_selected task (draft-ietf-ppm-dap-attribution-00 section 4.1): the same
   * body and answer as the plain upload; a job that does not take uploads is 404 with {@code
   * Retry-After} ({@link #RETRY_AFTER_SECONDS}) and the problem type {@code
   * urn:priodp:problem:unknownCollectionJob}; other methods are 405.
   */
  @Override
  public HttpReply handle(String method, TaskDefinition task, String resourceId, String query,
      String contentType, byte[] body) {
    if (!"POST".equals(method)) {
      return DapProblem.methodNotAllowed("POST", task.taskId());
    }
    CollectionJobId jobId;
    try {
      jobId = CollectionJobId.fromBase64Url(resourceId);
    } catch (IllegalArgumentException e) {
      throw DapProblem.http(404, "Not Found", "not a collection job ID: " + e.getMessage(),
          task.taskId());
    }
    UploadRequest req = request(task, contentType, body);
    UploadService.Result result;
    try {
      result = service.uploadToJob(task, jobId, req);
    } catch (Refusal r) {
      if (r.error().equals(ProblemType.UNKNOWN_COLLECTION_JOB)) {
        return DapProblem.of(r).toReply().withHeader("Retry-After",
            Integer.toString(RETRY_AFTER_SECONDS));
      }
      throw r;
    }
    return answer(task, result);
  }

  /** How long a Client is told to wait before it uploads again to a job that does not exist. */
  public static final int RETRY_AFTER_SECONDS = 5;

  @Override
  public HttpReply create(TaskDefinition task, String contentType, byte[] body) {
    return answer(task, service.upload(task, request(task, contentType, body)));
  }

  private static UploadRequest request(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    RequestChecks.messageType(contentType, DapMediaType.UPLOAD_REQ, taskId);
    byte[] b = body == null ? new byte[0] : body;
    RequestChecks.bodySize(b, MAX_BODY, taskId);
    try {
      return UploadRequest.decode(b);
    } catch (DapDecodeException e) {
      throw DapProblem.dap(DapError.INVALID_MESSAGE, taskId, e.getMessage());
    }
  }

  private static HttpReply answer(TaskDefinition task, UploadService.Result result) {
    if (result.allAccepted()) {
      return new HttpReply(200, Map.of(), new byte[0]);
    }
    return new HttpReply(200, Map.of("Content-Type", DapMediaType.UPLOAD_ERRORS.contentType()),
        result.errors().encode(task.dapVersion()));
  }
}
