package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.jdbc.internal.SqlWork;

/**
 * A repository of one task transaction (DESIGN.md non-negotiable 3): the transaction's connection
 * and task, and the rule that a record written through it belongs to that task.
 */
abstract class TaskScoped {
  final Connection connection;
  final TaskId taskId;

  TaskScoped(Connection connection, TaskId taskId) {
    this.connection = connection;
    this.taskId = taskId;
  }

  /** Runs SQL on the transaction's connection; a failure aborts the whole transaction. */
  final <T> T sql(SqlWork<T> work) {
    return TransactionTemplate.unchecked(connection, work);
  }

  /** Returns the task's id as stored. */
  final byte[] task() {
    return taskId.bytes();
  }

  /** Throws IllegalArgumentException if {@code owner} is not this transaction's task. */
  final void requireTask(TaskId owner, String what) {
    if (!owner.equals(taskId)) {
      throw new IllegalArgumentException(what + " of another task");
    }
  }
}
