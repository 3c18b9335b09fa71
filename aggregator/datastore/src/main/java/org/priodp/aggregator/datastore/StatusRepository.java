package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What an operator reads about a task's pipeline (issue 24 "See the pipeline"), without
 * changing it: the Leader's unaggregated backlog, both roles' aggregation jobs grouped by state
 * and error, the current leases and the released batches (DAP-18 "Leader Initialization",
 * "Helper Initialization", "Collection Job Initialization", "Obtaining Aggregate Shares").
 */
public interface StatusRepository {
  /** The Leader's uploaded reports no aggregation job holds. */
  record Backlog(long unclaimed, Optional<Long> oldestTime, long waitingForRetry,
      Optional<Instant> nextRetry) {
    /** Validates the counts; the oldest time is in time_precision units. */
    public Backlog {
      Objects.requireNonNull(oldestTime, "oldestTime");
      Objects.requireNonNull(nextRetry, "nextRetry");
      if (unclaimed < 0 || waitingForRetry < 0 || waitingForRetry > unclaimed) {
        throw new IllegalArgumentException("bad backlog counts");
      }
    }
  }

  /** How many jobs are in one state with one error (empty: none). */
  record JobGroup(String state, Optional<String> error, long count) {
    /** Validates the fields. */
    public JobGroup {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(error, "error");
      if (count < 1) {
        throw new IllegalArgumentException("a group holds at least one job");
      }
    }
  }

  /**
   * A lease a driver holds now on a Leader aggregation job ({@code aggregation}) or a collection
   * job ({@code collection}); the job id in base64url.
   */
  record Lease(String kind, String jobId, String owner, Instant expires, int attempts) {
    /** Validates the fields. */
    public Lease {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(jobId, "jobId");
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(expires, "expires");
    }
  }

  /** The released aggregate shares: how many batches and the last release. */
  record Releases(long batches, Optional<Instant> last) {
    /** Validates the fields. */
    public Releases {
      Objects.requireNonNull(last, "last");
      if (batches < 0) {
        throw new IllegalArgumentException("negative count");
      }
    }
  }

  /**
   * What of a batch interval the Leader has not aggregated yet: its unclaimed reports, and the
   * active aggregation jobs whose reports' times meet it with how many reports they hold.
   */
  record Outstanding(long unclaimed, long activeJobs, long reportsInActiveJobs) {
    /** Validates the counts. */
    public Outstanding {
      if (unclaimed < 0 || activeJobs < 0 || reportsInActiveJobs < 0) {
        throw new IllegalArgumentException("negative count");
      }
    }

    /** Returns whether anything is outstanding. */
    public boolean any() {
      return unclaimed > 0 || activeJobs > 0;
    }
  }

  /**
   * Returns what of the interval [from, to) (time_precision units) is not aggregated yet, by
   * the rule of {@link ClientReportRepository#outstanding}.
   */
  Outstanding outstanding(long fromInclusive, long toExclusive);

  /** Returns the unclaimed reports, the oldest one's time and those waiting for a retry at now. */
  Backlog backlog(Instant now);

  /** Returns the Leader's aggregation jobs by state and error detail. */
  List<JobGroup> leaderJobs();

  /** Returns the Helper's aggregation jobs by state and error type. */
  List<JobGroup> helperJobs();

  /** Returns the leases that have not expired at now, aggregation jobs first. */
  List<Lease> leases(Instant now);

  /** Returns the released batches of the task. */
  Releases releases();
}
