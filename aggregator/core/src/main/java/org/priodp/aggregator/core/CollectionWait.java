package org.priodp.aggregator.core;

import java.time.Instant;
import java.util.Objects;

/**
 * Why a pending collection job of the Leader is not ready yet (DAP-18 "Collection Job
 * Initialization": the Leader waits until the batch can be collected), in the terms an operator
 * and a Collector act on; {@link CollectionJobService#whyWaiting} decides it by the same rules
 * as the job's step. {@link #describe} gives one line.
 */
public sealed interface CollectionWait {
  /** Returns a one-line description, e.g. {@code 37 of 100 reports (min_batch_size)}. */
  String describe();

  /** Returns a stable short name of the reason, e.g. {@code min_batch_size}. */
  String kind();

  /** The batch interval has not ended by the Leader's clock; it ends at {@code until}. */
  record IntervalNotOver(Instant until) implements CollectionWait {
    /** Rejects null. */
    public IntervalNotOver {
      Objects.requireNonNull(until, "until");
    }

    @Override
    public String describe() {
      return "the batch interval is not over until " + until;
    }

    @Override
    public String kind() {
      return "interval_not_over";
    }
  }

  /**
   * Reports of the batch are not aggregated yet: {@code unclaimed} wait for an aggregation job,
   * {@code inJobs} are in {@code activeJobs} active jobs.
   */
  record NotYetAggregated(long unclaimed, long activeJobs, long inJobs)
      implements CollectionWait {
    @Override
    public String describe() {
      return "reports not yet aggregated: " + unclaimed + " waiting for a job, " + inJobs
          + " in " + activeJobs + " active aggregation job" + (activeJobs == 1 ? "" : "s");
    }

    @Override
    public String kind() {
      return "not_yet_aggregated";
    }
  }

  /** The batch holds {@code reports} aggregated reports, fewer than {@code minBatchSize}. */
  record TooFewReports(long reports, long minBatchSize) implements CollectionWait {
    @Override
    public String describe() {
      return reports + " of " + minBatchSize + " reports (min_batch_size)";
    }

    @Override
    public String kind() {
      return "min_batch_size";
    }
  }

  /**
   * A leader-selected job has no batch yet: no leader-selected batch free for it holds
   * min_batch_size aggregated reports.
   */
  record NoBatchYet(long minBatchSize) implements CollectionWait {
    @Override
    public String describe() {
      return "no batch with " + minBatchSize + " aggregated reports (min_batch_size) is free yet";
    }

    @Override
    public String kind() {
      return "no_batch_yet";
    }
  }

  /**
   * A collector-selected job's batch is still open (draft-ietf-ppm-dap-attribution-00 section
   * 4): {@code uploaded} reports were uploaded to it; it closes at the Collector's first GET.
   */
  record BatchOpen(long uploaded) implements CollectionWait {
    @Override
    public String describe() {
      return "the collector-selected batch is open (" + uploaded + " reports uploaded); it"
          + " closes at the Collector's first GET of the job";
    }

    @Override
    public String kind() {
      return "batch_open";
    }
  }

  /** The Leader's share is released; the Helper's aggregate share has not come yet. */
  record WaitingForHelper() implements CollectionWait {
    @Override
    public String describe() {
      return "the Leader's share is released; waiting for the Helper's aggregate share";
    }

    @Override
    public String kind() {
      return "waiting_for_helper";
    }
  }

  /** Nothing holds the batch back: the next step of the job releases it. */
  record Due() implements CollectionWait {
    @Override
    public String describe() {
      return "ready to be released at the job's next step";
    }

    @Override
    public String kind() {
      return "due";
    }
  }
}
