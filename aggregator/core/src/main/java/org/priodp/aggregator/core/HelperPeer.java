package org.priodp.aggregator.core;

import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.AggregationJobResp;

/**
 * The Leader's requests to the Helper of a task (DAP-18 "Leader Initialization", "Obtaining
 * Aggregate Shares"), each returning the Helper's representation of the resource it creates. An
 * implementation follows DAP-18 "Asynchronous Request Handling" (polls the Location, honouring
 * Retry-After, until the resource is ready) and retries transport failures and 5xx answers with
 * backoff, always replaying the identical request bytes, within a bounded time. The domain core
 * uses it without knowing the transport; the HTTP implementation lives in the peer package.
 */
public interface HelperPeer {
  /**
   * Creates the aggregation job at {@code {helper}/tasks/{task-id}/aggregation_jobs} and returns
   * the Helper's AggregationJobResp; throws {@link HelperException}.
   */
  AggregationJobResp initializeAggregationJob(TaskDefinition task, AggregationJobInitReq req);

  /**
   * Creates the aggregate share at {@code {helper}/tasks/{task-id}/aggregate_shares} and returns
   * the Helper's AggregateShare; throws {@link HelperException}.
   */
  AggregateShare aggregateShare(TaskDefinition task, AggregateShareReq req);

  /**
   * Returns this peer telling {@code observer} of each exchange with a Helper ({@link
   * PipelineObserver#helperCall}); an implementation that cannot see its exchanges returns
   * itself (the default).
   */
  default HelperPeer observedBy(PipelineObserver observer) {
    return this;
  }

  /**
   * Asks the peer to tell {@code listener} the Helper's clock whenever an answer states it (the
   * HTTP {@code Date} header, RFC 9110 "Date"), so that a Leader can name a clock skew before the
   * Helper rejects reports as report_too_early (DAP-18 "Input Share Validation"). By default the
   * peer states no clock and does nothing.
   */
  default void addClockListener(ClockListener listener) {
    java.util.Objects.requireNonNull(listener, "listener");
  }

  /** Receives the Helper's clock as an answer of the task's Helper stated it. */
  @FunctionalInterface
  interface ClockListener {
    /** Called with the time the Helper's answer carried (whole seconds). */
    void helperClock(TaskDefinition task, java.time.Instant helperTime);
  }

  /**
   * The Helper did not answer with the resource: it refused with a problem document ({@code
   * error} is its DAP error type, if it named one, and the request must not be repeated as is)
   * or it stayed unreachable, kept answering 5xx or never became ready within the time the
   * implementation allows ({@link #retryable()}: the caller may try again later, with the same
   * bytes).
   */
  final class HelperException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient java.util.Optional<org.priodp.aggregator.dap.DapError> error;
    private final transient java.util.Optional<ProblemType.PrioDp> prioDp;
    private final boolean retryable;
    private final int status;

    /** Returns an exception; {@code error} may be null when the Helper named no DAP error. */
    public HelperException(String message, org.priodp.aggregator.dap.DapError error,
        boolean retryable, Throwable cause) {
      this(message, error, retryable, 0, cause);
    }

    /**
     * Returns an exception for an answer with HTTP status {@code status} (0: no answer, or not
     * HTTP); {@code error} may be null when the Helper named no DAP error.
     */
    public HelperException(String message, org.priodp.aggregator.dap.DapError error,
        boolean retryable, int status, Throwable cause) {
      this(message, error, null, retryable, status, cause);
    }

    /**
     * Returns an exception for an answer with HTTP status {@code status} whose problem document
     * names a prio-dp problem type this Leader knows (e.g. privacyBudgetExhausted; null: none).
     */
    public HelperException(String message, org.priodp.aggregator.dap.DapError error,
        ProblemType.PrioDp prioDp, boolean retryable, int status, Throwable cause) {
      super(message, cause);
      this.error = java.util.Optional.ofNullable(error);
      this.prioDp = java.util.Optional.ofNullable(prioDp);
      this.retryable = retryable;
      this.status = status;
    }

    /** Returns the prio-dp problem type of the Helper's problem document, if it named one. */
    public java.util.Optional<ProblemType.PrioDp> prioDpType() {
      return prioDp;
    }

    /** Returns the HTTP status of the Helper's answer, or 0 if there was none. */
    public int status() {
      return status;
    }

    /**
     * Returns whether the operator can fix the cause, so that the same request should be sent
     * again later rather than given up: a {@link #retryable()} failure (the Helper unreachable,
     * 5xx, a timeout), a refused bearer token (401, a 403 without a prio-dp problem type) or a task
     * the Helper does not know (404, unrecognizedTask). A problem with the request itself (such as
     * a spent privacy budget), or an undecodable answer, is not.
     */
    public boolean fixable() {
      return retryable || status == 401 || (status == 403 && prioDp.isEmpty()) || status == 404
          || error.filter(e -> e == org.priodp.aggregator.dap.DapError.UNRECOGNIZED_TASK)
              .isPresent();
    }

    /**
     * Returns whether the call stopped because this process is stopping (its thread was
     * interrupted): nothing is wrong with the Helper.
     */
    public boolean interrupted() {
      return getCause() instanceof InterruptedException;
    }

    /** Returns what an operator should check for a {@link #fixable()} failure, or "". */
    public String fix() {
      if (interrupted()) {
        return "";
      }
      if (status == 401 || (status == 403 && prioDp.isEmpty())) {
        return "check the task's leader auth token (the Helper must accept it)";
      }
      if (status == 404 || error.filter(
          e -> e == org.priodp.aggregator.dap.DapError.UNRECOGNIZED_TASK).isPresent()) {
        return "check that the Helper serves this task (task ID, helper_aggregator_endpoint)";
      }
      if (retryable) {
        return "check that the Helper is up and reachable";
      }
      return "";
    }

    /** Returns the DAP error type of the Helper's problem document, if it named one. */
    public java.util.Optional<org.priodp.aggregator.dap.DapError> error() {
      return error;
    }

    /** Returns whether the same request may be sent again later (transport, 5xx, timeout). */
    public boolean retryable() {
      return retryable;
    }
  }
}
