package org.priodp.aggregator.core;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;

/**
 * Hears what the pipeline of an aggregator does, one event per outcome an operator counts
 * (DAP-18 "Uploading Reports", "Aggregating Reports", "Collecting Results"): each uploaded
 * report, each aggregation job's end on either side, each exchange with the Helper, each
 * collection job's change of state and each first release of an aggregate share. The core calls
 * it after the outcome is committed (never for a transaction that rolled back, never for a
 * repeat answered from the store), and knows nothing of what listens: the server's metrics
 * implement it. Every method does nothing by default; {@link #NONE} does nothing at all.
 * Implementations must be thread-safe and must not throw.
 */
public interface PipelineObserver {
  /** The observer that does nothing. */
  PipelineObserver NONE = new PipelineObserver() { };

  /** How one step of a Leader aggregation job ended ({@link LeaderAggregationDriver}). */
  enum JobOutcome {
    /** Both sides' outcomes were committed; the job is finished. */
    FINISHED,
    /** The Helper failed retryably (or the job could not run now); it will be leased again. */
    RETRY,
    /** The job was given up. */
    ABANDONED,
    /** Another lessee owns the job now; this step's work was dropped. */
    LEASE_LOST;

    /** Returns the outcome's lower-case name, as metrics label it. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The Helper's resources the Leader calls (DAP-18 "HTTP Resources Reference"). */
  enum HelperResource {
    /** {@code tasks/{task-id}/aggregation_jobs}. */
    AGGREGATION_JOBS,
    /** {@code tasks/{task-id}/aggregate_shares}. */
    AGGREGATE_SHARES;

    /** Returns the resource's path segment, as metrics label it. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** How one HTTP exchange with the Helper ended. */
  enum CallOutcome {
    /** A 2xx answer (a resource, or "not ready yet"). */
    OK("ok"),
    /** A 4xx answer (429 included). */
    CLIENT_ERROR("4xx"),
    /** A 5xx answer, or another status outside 2xx and 4xx. */
    SERVER_ERROR("5xx"),
    /** No answer within the request timeout. */
    TIMEOUT("timeout"),
    /** The connection failed (refused, reset, TLS, DNS). */
    CONNECTION("connection");

    private final String label;

    CallOutcome(String label) {
      this.label = label;
    }

    /** Returns the outcome's name, as metrics label it. */
    public String label() {
      return label;
    }

    /** Returns the outcome of an HTTP status code. */
    public static CallOutcome ofStatus(int status) {
      return switch (status / 100) {
        case 2 -> OK;
        case 4 -> CLIENT_ERROR;
        default -> SERVER_ERROR;
      };
    }
  }

  /** A collection job's change of state ({@link CollectionJobService}). */
  enum CollectionState {
    /** A new job was created (not a repeat of a request that found its job). */
    CREATED,
    /** The job's CollectionJobResp was stored. */
    READY,
    /** The Collector deleted the job. */
    DELETED,
    /** The job failed. */
    FAILED;

    /** Returns the state's lower-case name, as metrics label it. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * A Leader decided one uploaded report (DAP-18 "Upload Request"): accepted (a repeat of a
   * stored report included) when {@code rejection} is empty, else refused with that error.
   */
  default void reportUploaded(TaskId task, Optional<ReportError> rejection) { }

  /**
   * One step of a Leader aggregation job ended with {@code outcome}; a finished job tells how many
   * reports it added to the buckets and how many were rejected (by the Leader or the Helper) by
   * report error; other outcomes have none (their reports are decided by a later step).
   */
  default void leaderJob(TaskId task, JobOutcome outcome, long aggregated,
      Map<ReportError, Integer> rejected) { }

  /**
   * A Helper committed a new aggregation job (DAP-18 "Helper Initialization"; never a repeat
   * answered from the stored job): how many reports it added to its buckets and how many it
   * rejected by report error.
   */
  default void helperJob(TaskId task, long aggregated, Map<ReportError, Integer> rejected) { }

  /** One HTTP exchange of the Leader with the task's Helper ended, after {@code latency}. */
  default void helperCall(TaskId task, HelperResource resource, CallOutcome outcome,
      Duration latency) { }

  /**
   * A collection job changed state; {@code timeToReady} is, for {@link CollectionState#READY},
   * the time from its creation to now.
   */
  default void collectionJob(TaskId task, CollectionState state,
      Optional<Duration> timeToReady) { }

  /**
   * This aggregator released a batch's aggregate share for the first time (DAP-18 "Obtaining
   * Aggregate Shares": the sealed share was stored); a repeat answered from the stored share is
   * not told.
   */
  default void shareReleased(TaskId task, Role role) { }

  /** Returns an observer that tells this one and then {@code next} of every event. */
  default PipelineObserver andThen(PipelineObserver next) {
    java.util.Objects.requireNonNull(next, "next");
    PipelineObserver first = this;
    return new PipelineObserver() {
      @Override
      public void reportUploaded(TaskId task, Optional<ReportError> rejection) {
        first.reportUploaded(task, rejection);
        next.reportUploaded(task, rejection);
      }

      @Override
      public void leaderJob(TaskId task, JobOutcome outcome, long aggregated,
          Map<ReportError, Integer> rejected) {
        first.leaderJob(task, outcome, aggregated, rejected);
        next.leaderJob(task, outcome, aggregated, rejected);
      }

      @Override
      public void helperJob(TaskId task, long aggregated, Map<ReportError, Integer> rejected) {
        first.helperJob(task, aggregated, rejected);
        next.helperJob(task, aggregated, rejected);
      }

      @Override
      public void helperCall(TaskId task, HelperResource resource, CallOutcome outcome,
          Duration latency) {
        first.helperCall(task, resource, outcome, latency);
        next.helperCall(task, resource, outcome, latency);
      }

      @Override
      public void collectionJob(TaskId task, CollectionState state,
          Optional<Duration> timeToReady) {
        first.collectionJob(task, state, timeToReady);
        next.collectionJob(task, state, timeToReady);
      }

      @Override
      public void shareReleased(TaskId task, Role role) {
        first.shareReleased(task, role);
        next.shareReleased(task, role);
      }
    };
  }
}
