package org.priodp.aggregator.core;

import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.TaskId;

/**
 * A request the protocol says to refuse (DAP-18 "Errors": an abort with a DAP error type), raised
 * by the domain rules: the error type, the task when known, and a detail for people that never
 * holds a secret, a share, a noise value or a count of an unreleased batch. How it reaches the
 * peer (an HTTP problem document) is the service layer's business.
 */
public final class DapRefusal extends RuntimeException {
  private final DapError error;
  private final TaskId taskId;

  private DapRefusal(DapError error, TaskId taskId, String detail) {
    super(Objects.requireNonNull(detail, "detail"), null, false, false);
    this.error = Objects.requireNonNull(error, "error");
    this.taskId = taskId;
  }

  /** Returns the refusal of type {@code error} for the task (null if unknown). */
  public static DapRefusal of(DapError error, TaskId taskId, String detail) {
    return new DapRefusal(error, taskId, detail);
  }

  /** Returns the DAP error type. */
  public DapError error() {
    return error;
  }

  /** Returns the task, if known. */
  public Optional<TaskId> taskId() {
    return Optional.ofNullable(taskId);
  }

  /** Returns the detail for people. */
  public String detail() {
    return getMessage();
  }
}
