package org.priodp.aggregator.core;

import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.TaskId;

/**
 * Refuses a request as the protocol says to (DAP-18 "Errors": an abort with a DAP error type) or
 * for a reason of prio-dp's own that DAP does not define, raised by the domain rules: the {@link
 * ProblemType}, the task when known, and a detail for people that never holds a secret, a share,
 * a noise value or a count of an unreleased batch. How it reaches the peer (an HTTP problem
 * document) is the server's business.
 */
public final class Refusal extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient ProblemType type;
  private final transient TaskId taskId;

  private Refusal(ProblemType type, TaskId taskId, String detail) {
    super(Objects.requireNonNull(detail, "detail"), null, false, false);
    this.type = Objects.requireNonNull(type, "type");
    this.taskId = taskId;
  }

  /** Returns the refusal of problem type {@code type} for the task (null if unknown). */
  public static Refusal of(ProblemType type, TaskId taskId, String detail) {
    return new Refusal(type, taskId, detail);
  }

  /** Returns the refusal with the DAP error type {@code error} for the task (null if unknown). */
  public static Refusal of(DapError error, TaskId taskId, String detail) {
    return new Refusal(ProblemType.of(error), taskId, detail);
  }

  /** Returns the problem type: a DAP error or a prio-dp type. */
  public ProblemType error() {
    return type;
  }

  /** Returns the DAP error type, if the problem type is one. */
  public Optional<DapError> dapError() {
    return type.dapError();
  }

  /** Returns whether the problem type is the DAP error {@code error}. */
  public boolean is(DapError error) {
    return type.dapError().filter(error::equals).isPresent();
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
