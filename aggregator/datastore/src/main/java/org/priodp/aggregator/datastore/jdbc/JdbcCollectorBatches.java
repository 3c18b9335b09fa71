package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.time.Instant;
import java.util.Optional;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectorBatch;
import org.priodp.aggregator.datastore.CollectorBatchRepository;
import org.priodp.aggregator.datastore.LeaderAggregationJob;

/**
 * The {@link CollectorBatchRepository} of a JDBC task transaction (draft-ietf-ppm-dap-attribution-00
 * section 4; migration V015): {@code collector_batches} and the {@code batch_identifier} column of
 * {@code client_reports}, times stored sign-flipped.
 */
final class JdbcCollectorBatches extends TaskScoped implements CollectorBatchRepository {
  JdbcCollectorBatches(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  @Override
  public void create(CollectionJobId jobId, BatchIdentifier batch, Instant now) {
    sql(c -> Sql.update(c, "INSERT INTO collector_batches (task_id, job_id, batch_identifier,"
        + " uploaded, closed_at_ms, created_at_ms) VALUES (?, ?, ?, 0, NULL, ?)", task(),
        jobId.bytes(), batch.bytes(), now.toEpochMilli()));
  }

  @Override
  public Optional<CollectorBatch> get(CollectionJobId jobId) {
    return sql(c -> Sql.queryOne(c, "SELECT batch_identifier, uploaded, closed_at_ms"
        + " FROM collector_batches WHERE task_id = ? AND job_id = ?",
        rs -> {
          long closed = rs.getLong(3);
          Optional<Instant> closedAt = rs.wasNull() ? Optional.empty()
              : Optional.of(Instant.ofEpochMilli(closed));
          return new CollectorBatch(jobId, BatchIdentifier.of(rs.getBytes(1)), rs.getLong(2),
              closedAt);
        }, task(), jobId.bytes()));
  }

  @Override
  public boolean close(CollectionJobId jobId, Instant now) {
    return sql(c -> Sql.update(c, "UPDATE collector_batches SET closed_at_ms = ?"
        + " WHERE task_id = ? AND job_id = ? AND closed_at_ms IS NULL", now.toEpochMilli(),
        task(), jobId.bytes()) > 0);
  }

  @Override
  public boolean insertIfAbsent(CollectionJobId jobId, BatchIdentifier batch, ReportId id,
      long reportTime, ByteString encodedReport) {
    return sql(c -> {
      boolean inserted = Sql.update(c, "INSERT INTO client_reports (task_id, report_id,"
          + " report_time, report, aggregation_job_id, created_at_ms, batch_identifier)"
          + " VALUES (?, ?, ?, ?, NULL, ?, ?) ON CONFLICT (task_id, report_id) DO NOTHING",
          task(), id.bytes(), Sql.flip(reportTime), encodedReport.toByteArray(),
          System.currentTimeMillis(), batch.bytes()) > 0;
      if (inserted) {
        Sql.update(c, "UPDATE collector_batches SET uploaded = uploaded + 1"
            + " WHERE task_id = ? AND job_id = ?", task(), jobId.bytes());
      }
      return inserted;
    });
  }

  @Override
  public Optional<BatchIdentifier> batchOf(ReportId id) {
    return sql(c -> Sql.queryOne(c, "SELECT batch_identifier FROM client_reports"
        + " WHERE task_id = ? AND report_id = ? AND batch_identifier IS NOT NULL",
        rs -> BatchIdentifier.of(rs.getBytes(1)), task(), id.bytes()));
  }

  @Override
  public boolean outstanding(BatchIdentifier batch) {
    return sql(c -> Sql.exists(c, "SELECT 1 FROM client_reports WHERE task_id = ?"
        + " AND batch_identifier = ? AND aggregation_job_id IS NULL LIMIT 1", task(),
        batch.bytes())
        || Sql.exists(c, "SELECT 1 FROM leader_aggregation_jobs WHERE task_id = ?"
        + " AND batch_identifier = ? AND state = ? LIMIT 1", task(), batch.bytes(),
        LeaderAggregationJob.State.ACTIVE.dbName()));
  }
}
