package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;

/**
 * A Leader aggregation job as stored in {@code leader_aggregation_jobs} (DAP-18 "Leader
 * Initialization", "Distributed Systems and Synchronization Concerns"): its state, the range of
 * its reports' times (time_precision units), how many reports it claimed, and its lease (owner,
 * token, expiry; an expiry at or before now means anyone may take it) with the number of times
 * it was leased; in leader-selected mode, the batch (bucket identifier) its reports go to.
 */
public record LeaderAggregationJob(TaskId taskId, AggregationJobId jobId, State state, int step,
    long minReportTime, long maxReportTime, int reportCount, Optional<String> leaseOwner,
    Optional<ByteString> leaseToken, Instant leaseExpires, int leaseAttempts,
    Optional<String> errorDetail, Instant createdAt, Optional<BatchIdentifier> batch) {
  /** The life cycle of a Leader job. */
  public enum State {
    /** Claimed reports, not committed yet. */
    ACTIVE,
    /** Both sides' outcomes committed. */
    FINISHED,
    /** Given up (error_detail says why); its reports are not aggregated. */
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
  public LeaderAggregationJob {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(leaseOwner, "leaseOwner");
    Objects.requireNonNull(leaseToken, "leaseToken");
    Objects.requireNonNull(leaseExpires, "leaseExpires");
    Objects.requireNonNull(errorDetail, "errorDetail");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(batch, "batch");
    if (reportCount < 0 || leaseAttempts < 0) {
      throw new IllegalArgumentException("negative count");
    }
  }

  /** Returns whether the lease is held with this token. */
  public boolean leasedWith(ByteString token) {
    return leaseToken.isPresent() && leaseToken.get().equals(token);
  }
}
