package org.priodp.aggregator.server;

import java.util.Map;
import java.util.Objects;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.core.UploadService;
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

  @Override
  public HttpReply handle(String method, TaskDefinition task, String resourceId, String query,
      String contentType, byte[] body) {
    throw DapProblem.http(404, "Not Found", "a report has no resource of its own",
        task.taskId());
  }

  @Override
  public HttpReply create(TaskDefinition task, String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    RequestChecks.messageType(contentType, DapMediaType.UPLOAD_REQ, taskId);
    byte[] b = body == null ? new byte[0] : body;
    RequestChecks.bodySize(b, MAX_BODY, taskId);
    UploadRequest req;
    try {
      req = UploadRequest.decode(b);
    } catch (DapDecodeException e) {
      throw DapProblem.dap(DapError.INVALID_MESSAGE, taskId, e.getMessage());
    }
    UploadService.Result result = service.upload(task, req);
    if (result.allAccepted()) {
      return new HttpReply(200, Map.of(), new byte[0]);
    }
    return new HttpReply(200, Map.of("Content-Type", DapMediaType.UPLOAD_ERRORS.contentType()),
        result.errors().encode(task.dapVersion()));
  }
}
