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
   * The Helper did not answer with the resource: it refused with a problem document ({@code
   * error} is its DAP error type, if it named one, and the request must not be repeated as is)
   * or it stayed unreachable, kept answering 5xx or never became ready within the time the
   * implementation allows ({@link #retryable()}: the caller may try again later, with the same
   * bytes).
   */
  final class HelperException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient java.util.Optional<org.priodp.aggregator.dap.DapError> error;
    private final boolean retryable;

    /** Returns an exception; {@code error} may be null when the Helper named no DAP error. */
    public HelperException(String message, org.priodp.aggregator.dap.DapError error,
        boolean retryable, Throwable cause) {
      super(message, cause);
      this.error = java.util.Optional.ofNullable(error);
      this.retryable = retryable;
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
