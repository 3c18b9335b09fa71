package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.time.Instant;
import java.util.Optional;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.RetentionCounts;
import org.priodp.aggregator.datastore.RetentionRepository;

/**
 * The {@link RetentionRepository} of a JDBC task transaction (DAP-18 "Reducing Storage
 * Requirements"): {@code retention_cutoffs}, and the deletions from {@code aggregated_reports},
 * {@code client_reports} and {@code aggregation_jobs}; times stored sign-flipped.
 */
final class JdbcRetention extends TaskScoped implements RetentionRepository {
  JdbcRetention(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  @Override
  public Optional<Long> cutoff() {
    return sql(this::readCutoff);
  }

  private Optional<Long> readCutoff(Connection c) throws java.sql.SQLException {
    return Sql.queryOne(c, "SELECT cutoff FROM retention_cutoffs WHERE task_id = ?",
        rs -> Sql.flip(rs.getLong(1)), task());
  }

  @Override
  public RetentionCounts collectExpired(long cutoff, Instant jobsCreatedBefore) {
    return sql(c -> {
      Optional<Long> stored = readCutoff(c);
      long effective = stored.isPresent() && Long.compareUnsigned(stored.get(), cutoff) > 0
          ? stored.get() : cutoff;
      if (stored.isEmpty()) {
        Sql.update(c, "INSERT INTO retention_cutoffs (cutoff, task_id) VALUES (?, ?)",
            Sql.flip(effective), task());
      } else if (stored.get() != effective) {
        Sql.update(c, "UPDATE retention_cutoffs SET cutoff = ? WHERE task_id = ?",
            Sql.flip(effective), task());
      }
      int reports = Sql.update(c, "DELETE FROM aggregated_reports"
          + " WHERE task_id = ? AND report_time < ?", task(), Sql.flip(effective));
      // the Leader's uploaded reports below the cutoff that no active job still needs: the
      // driver never sends a report below the cutoff (report_dropped), so they are dead rows
      reports += Sql.update(c, "DELETE FROM client_reports"
          + " WHERE task_id = ? AND report_time < ? AND (aggregation_job_id IS NULL"
          + " OR aggregation_job_id NOT IN (SELECT job_id FROM leader_aggregation_jobs"
          + " WHERE task_id = ? AND state = '" + LeaderAggregationJob.State.ACTIVE.dbName()
          + "'))", task(), Sql.flip(effective), task());
      int jobs = Sql.update(c, "DELETE FROM aggregation_jobs"
          + " WHERE task_id = ? AND created_at_ms < ? AND state IN (?, ?, ?)",
          task(), jobsCreatedBefore.toEpochMilli(), AggregationJobRecord.State.READY.dbName(),
          AggregationJobRecord.State.FAILED.dbName(),
          AggregationJobRecord.State.ABANDONED.dbName());
      return new RetentionCounts(effective, reports, jobs);
    });
  }
}
