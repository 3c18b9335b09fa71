package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;

/**
 * The encoded AggregateShareReq of a Helper aggregate-share resource that is answered
 * asynchronously (DAP-18 "Asynchronous Request Handling", "Obtaining Aggregate Shares"), kept so
 * that any process can start its release again from a GET, and the DAP error type token and
 * detail it failed with, if it did. The creation time is kept to the millisecond.
 */
public record AggregateShareRequest(TaskId taskId, AggregateShareId id, ByteString request,
    Optional<String> errorType, Optional<String> errorDetail, Instant createdAt) {
  /** Validates the fields. */
  public AggregateShareRequest {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(id, "id");
    StoreValues.nonEmpty(request, "request");
    Objects.requireNonNull(errorType, "errorType");
    Objects.requireNonNull(errorDetail, "errorDetail");
    createdAt = StoreValues.millis(createdAt);
  }
}
