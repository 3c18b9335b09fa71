package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.util.List;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.CounterRepository;
import org.priodp.aggregator.datastore.TaskCounter;

/**
 * The {@link CounterRepository} of a JDBC task transaction: rows of {@code task_counters}
 * (migration V013), each increment one upsert on the transaction's connection, so it commits or
 * rolls back with the event it counts.
 */
final class JdbcCounters extends TaskScoped implements CounterRepository {
  JdbcCounters(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  @Override
  public void add(String name, String reason, long delta) {
    CounterRepository.checkKey(name, "name", false);
    CounterRepository.checkKey(reason, "reason", true);
    if (delta < 0) {
      throw new IllegalArgumentException("a counter only grows: " + delta);
    }
    if (delta == 0) {
      return;
    }
    sql(c -> Sql.update(c, "INSERT INTO task_counters (task_id, name, reason, value)"
        + " VALUES (?, ?, ?, ?) ON CONFLICT (task_id, name, reason) DO UPDATE SET"
        + " value = task_counters.value + excluded.value", task(), name, reason, delta));
  }

  @Override
  public List<TaskCounter> all() {
    return sql(c -> Sql.query(c, "SELECT name, reason, value FROM task_counters"
        + " WHERE task_id = ? ORDER BY name, reason",
        rs -> new TaskCounter(rs.getString(1), rs.getString(2), rs.getLong(3)), (Object) task()));
  }
}
