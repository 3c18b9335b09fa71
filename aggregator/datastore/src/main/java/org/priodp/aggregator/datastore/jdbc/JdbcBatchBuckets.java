package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchBucketRepository;
import org.priodp.aggregator.datastore.BatchIdentifier;

/**
 * The {@link BatchBucketRepository} of a JDBC task transaction (DAP-18 "Batch Buckets"): rows of
 * {@code batch_aggregations}, upserted whole.
 */
final class JdbcBatchBuckets extends TaskScoped implements BatchBucketRepository {
  private static final String COLUMNS =
      "task_id, batch_identifier, aggregation_parameter, aggregate_share, report_count, checksum";

  JdbcBatchBuckets(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  private static BatchAggregation row(ResultSet rs) throws SQLException {
    return new BatchAggregation(new TaskId(rs.getBytes(1)), BatchIdentifier.of(rs.getBytes(2)),
        Sql.bytes(rs, 3), Sql.bytes(rs, 4), rs.getLong(5), Sql.bytes(rs, 6));
  }

  @Override
  public Optional<BatchAggregation> get(BatchIdentifier batch) {
    return sql(c -> Sql.queryOne(c, "SELECT " + COLUMNS
        + " FROM batch_aggregations WHERE task_id = ? AND batch_identifier = ?",
        JdbcBatchBuckets::row, task(), batch.bytes()));
  }

  @Override
  public List<BatchAggregation> range(BatchIdentifier fromInclusive,
      BatchIdentifier toExclusive) {
    return sql(c -> Sql.query(c, "SELECT " + COLUMNS
        + " FROM batch_aggregations WHERE task_id = ? AND batch_identifier >= ?"
        + " AND batch_identifier < ? ORDER BY batch_identifier",
        JdbcBatchBuckets::row, task(), fromInclusive.bytes(), toExclusive.bytes()));
  }

  @Override
  public void put(BatchAggregation a) {
    requireTask(a.taskId(), "batch aggregation");
    sql(c -> Sql.update(c, "INSERT INTO batch_aggregations (" + COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (task_id, batch_identifier) DO UPDATE SET"
        + " aggregation_parameter = excluded.aggregation_parameter,"
        + " aggregate_share = excluded.aggregate_share, report_count = excluded.report_count,"
        + " checksum = excluded.checksum",
        a.taskId().bytes(), a.batch().bytes(), a.aggregationParameter().toByteArray(),
        a.aggregateShare().toByteArray(), a.reportCount(), a.checksum().toByteArray()));
  }

  @Override
  public int deleteRange(BatchIdentifier fromInclusive, BatchIdentifier toExclusive) {
    return sql(c -> Sql.update(c, "DELETE FROM batch_aggregations"
        + " WHERE task_id = ? AND batch_identifier >= ? AND batch_identifier < ?",
        task(), fromInclusive.bytes(), toExclusive.bytes()));
  }
}
