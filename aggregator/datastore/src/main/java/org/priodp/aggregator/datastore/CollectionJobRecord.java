package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.TaskId;

/**
 * A Leader's collection job as stored in {@code collection_jobs} (DAP-18 "Collection Job
 * Initialization", "Collection Job Deletion", "Resource Creation"): the encoded CollectionJobReq
 * that created it (its identity), the identifier of the batch it collects (the encoding of the
 * batch's BatchSelector, {@code core.BatchBuckets}), its state, the encoded CollectionJobResp once
 * ready, and for a failed job the DAP error type token (absent when the Helper named none) and a
 * detail. Times are kept to the millisecond.
 */
public record CollectionJobRecord(TaskId taskId, CollectionJobId jobId, ByteString request,
    BatchIdentifier batch, State state, Optional<ByteString> response,
    Optional<String> errorType, Optional<String> errorDetail, Instant createdAt,
    Instant updatedAt) {
  /** The life cycle of a collection job. */
  public enum State {
    /** Accepted; the Leader waits for the batch or for the Helper. */
    PENDING,
    /** The CollectionJobResp is stored. */
    READY,
    /** The job failed with a DAP error (errorType, errorDetail). */
    FAILED,
    /** Deleted by the Collector; the released shares and collected intervals stay. */
    DELETED;

    /** Returns the lower-case name stored in the database. */
    public String dbName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Returns the state with this stored name. */
    public static State ofDbName(String s) {
      return valueOf(s.toUpperCase(Locale.ROOT));
    }
  }

  /** Validates the fields; a ready job has a response; times are truncated to milliseconds. */
  public CollectionJobRecord {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(jobId, "jobId");
    StoreValues.nonEmpty(request, "request");
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(response, "response");
    Objects.requireNonNull(errorType, "errorType");
    Objects.requireNonNull(errorDetail, "errorDetail");
    createdAt = StoreValues.millis(createdAt);
    updatedAt = StoreValues.millis(updatedAt);
    if (state == State.READY && response.isEmpty()) {
      throw new IllegalArgumentException("a ready collection job has a response");
    }
  }

  /** Returns a new pending job. */
  public static CollectionJobRecord pending(TaskId taskId, CollectionJobId jobId,
      ByteString request, BatchIdentifier batch, Instant now) {
    return new CollectionJobRecord(taskId, jobId, request, batch, State.PENDING,
        Optional.empty(), Optional.empty(), Optional.empty(), now, now);
  }
}
