package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;

/**
 * A Helper aggregation job as stored (DAP-18 "Helper Initialization", "Recovering from
 * Aggregation Step Skew", "Asynchronous Request Handling"): the SHA-256 of the
 * AggregationJobInitReq that created it (its identity), its current step, the SHA-256 of the
 * request that produced that step, its state, the encoded AggregationJobResp once ready, and
 * for a failed job the DAP error type token and detail it fails with.
 */
public record AggregationJobRecord(TaskId taskId, AggregationJobId jobId,
    ByteString requestDigest, int step, ByteString stepDigest, State state,
    Optional<ByteString> response, Optional<String> errorType, Optional<String> errorDetail,
    Instant createdAt) {
  /** The life cycle of a job. */
  public enum State {
    /** Accepted, being processed in the background (asynchronous mode). */
    PENDING,
    /** The response of the current step is stored. */
    READY,
    /** Processing failed with a DAP error (errorType, errorDetail). */
    FAILED,
    /** Deleted by the Leader; its committed reports stay committed. */
    ABANDONED;

    /** Returns the lower-case name stored in the database. */
    public String dbName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Returns the state with this stored name. */
    public static State ofDbName(String s) {
      return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** Validates the fields. */
  public AggregationJobRecord {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(requestDigest, "requestDigest");
    Objects.requireNonNull(stepDigest, "stepDigest");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(response, "response");
    Objects.requireNonNull(errorType, "errorType");
    Objects.requireNonNull(errorDetail, "errorDetail");
    Objects.requireNonNull(createdAt, "createdAt");
    if (step < 0 || step > 0xffff) {
      throw new IllegalArgumentException("step out of uint16 range: " + step);
    }
    if (state == State.READY && response.isEmpty()) {
      throw new IllegalArgumentException("a ready job has a response");
    }
  }

  /** Returns a copy in another state with another response (and no error). */
  public AggregationJobRecord ready(ByteString resp) {
    return new AggregationJobRecord(taskId, jobId, requestDigest, step, stepDigest, State.READY,
        Optional.of(resp), Optional.empty(), Optional.empty(), createdAt);
  }

  /** Returns a copy that failed with a DAP error type token and detail. */
  public AggregationJobRecord failed(String type, String detail) {
    return new AggregationJobRecord(taskId, jobId, requestDigest, step, stepDigest, State.FAILED,
        Optional.empty(), Optional.of(type), Optional.of(detail), createdAt);
  }

  /** Returns a copy marked abandoned. */
  public AggregationJobRecord abandoned() {
    return new AggregationJobRecord(taskId, jobId, requestDigest, step, stepDigest,
        State.ABANDONED, response, errorType, errorDetail, createdAt);
  }
}
