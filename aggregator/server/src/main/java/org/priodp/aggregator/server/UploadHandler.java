package org.priodp.aggregator.server;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.core.UploadService;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.datastore.Datastore;

/**
 * The Leader's reports resource {@code POST {leader}tasks/{task-id}/reports} (DAP-18 "Upload
 * Request", "Leader Behavior", "HTTP Resources Reference"), which {@link AggregateShareHandler}
 * routes here for Leader tasks without authentication. Only POST (else 405 with {@code Allow:
 * POST}); the Content-Type must name {@code upload-req} (else 415, parsed as for every DAP
 * message); a body that is not a sequence of whole Reports is invalidMessage (400); bodies are
 * limited to {@link AggregateShareHandler#MAX_UPLOAD_BODY} (413). The reports are decided by
 * {@link UploadService}: 200 with an empty body when every report is accepted, else 200 with
 * {@code application/ppm-dap;message=upload-errors} listing the refused reports in request
 * order. Blocking: call it off the event loop. Thread-safe.
 */
public final class UploadHandler implements TaskResource {
  private final UploadService service;

  /** Creates the handler over the core service. */
  public UploadHandler(UploadService service) {
    this.service = Objects.requireNonNull(service, "service");
  }

  /**
   * Returns the handler over a store with the system clock, the default clock skew and the
   * store's HPKE keys (the keys the Helper side of the same store uses).
   */
  public static UploadHandler of(Datastore store) {
    return new UploadHandler(new UploadService(store,
        new HelperHpkeKeys(store, new SecureRandom(), Clock.systemUTC()), Clock.systemUTC(),
        UploadService.DEFAULT_CLOCK_SKEW));
  }

  /** Returns the core service. */
  public UploadService service() {
    return service;
  }

  @Override
  public HttpReply handle(String method, TaskDefinition task, String resourceId, String query,
      String contentType, byte[] body) {
    TaskId taskId = task.taskId();
    if (resourceId != null) {
      throw DapProblem.http(404, "Not Found", "a report has no resource of its own", taskId);
    }
    if (!"POST".equals(method)) {
      return AggregateShareHandler.notAllowed("POST", taskId);
    }
    AggregateShareHandler.checkMessageType(contentType, DapMediaType.UPLOAD_REQ, taskId);
    byte[] b = body == null ? new byte[0] : body;
    if (b.length > AggregateShareHandler.MAX_UPLOAD_BODY) {
      throw DapProblem.http(413, "Content Too Large", "the body exceeds "
          + AggregateShareHandler.MAX_UPLOAD_BODY + " bytes", taskId);
    }
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
        result.errors().encode());
  }
}
