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
import org.priodp.aggregator.datastore.BucketBudgets;
import org.priodp.aggregator.datastore.ReportTimes;
import org.priodp.aggregator.task.MicroEpsilon;

/**
 * The {@link BatchBucketRepository} of a JDBC task transaction (DAP-18 "Batch Buckets"): rows of
 * {@code batch_aggregations}, upserted whole (with the reports' privacy budgets, version 16).
 */
final class JdbcBatchBuckets extends TaskScoped implements BatchBucketRepository {
  private static final String COLUMNS =
      "task_id, batch_identifier, aggregation_parameter, aggregate_share, report_count, checksum,"
      + " min_privacy_budget, budget_missing";

  JdbcBatchBuckets(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  private static BatchAggregation row(ResultSet rs) throws SQLException {
    long min = rs.getLong(7);
    Optional<MicroEpsilon> minimum = rs.wasNull() ? Optional.empty()
        : Optional.of(new MicroEpsilon(min));
    long missing = rs.getLong(8);
    boolean unknown = rs.wasNull(); // written before version 16
    return new BatchAggregation(new TaskId(rs.getBytes(1)), BatchIdentifier.of(rs.getBytes(2)),
        Sql.bytes(rs, 3), Sql.bytes(rs, 4), rs.getLong(5), Sql.bytes(rs, 6),
        new BucketBudgets(minimum, unknown || missing != 0));
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
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (task_id, batch_identifier) DO UPDATE SET"
        + " aggregation_parameter = excluded.aggregation_parameter,"
        + " aggregate_share = excluded.aggregate_share, report_count = excluded.report_count,"
        + " checksum = excluded.checksum, min_privacy_budget = excluded.min_privacy_budget,"
        + " budget_missing = excluded.budget_missing",
        a.taskId().bytes(), a.batch().bytes(), a.aggregationParameter().toByteArray(),
        a.aggregateShare().toByteArray(), a.reportCount(), a.checksum().toByteArray(),
        a.budgets().minimum().<Object>map(MicroEpsilon::micros).orElse(Sql.NULL_BIGINT),
        a.budgets().missing() ? 1 : 0));
  }

  @Override
  public void widenReportTimes(BatchIdentifier batch, ReportTimes t) {
    sql(c -> Sql.update(c, "UPDATE batch_aggregations SET"
        + " min_report_time = CASE WHEN min_report_time IS NULL OR min_report_time > ? THEN ?"
        + " ELSE min_report_time END,"
        + " max_report_time = CASE WHEN max_report_time IS NULL OR max_report_time < ? THEN ?"
        + " ELSE max_report_time END WHERE task_id = ? AND batch_identifier = ?",
        t.earliest(), t.earliest(), t.latest(), t.latest(), task(), batch.bytes()));
  }

  @Override
  public Optional<ReportTimes> reportTimes(BatchIdentifier fromInclusive, BatchIdentifier toExclusive) {
    return sql(c -> Sql.queryOne(c, "SELECT MIN(min_report_time), MAX(max_report_time)"
        + " FROM batch_aggregations WHERE task_id = ? AND batch_identifier >= ?"
        + " AND batch_identifier < ? AND min_report_time IS NOT NULL",
        rs -> {
          long min = rs.getLong(1);
          return rs.wasNull() ? Optional.<ReportTimes>empty() : Optional.of(new ReportTimes(min, rs.getLong(2)));
        }, task(), fromInclusive.bytes(), toExclusive.bytes())).flatMap(t -> t);
  }

  @Override
  public int deleteRange(BatchIdentifier fromInclusive, BatchIdentifier toExclusive) {
    return sql(c -> Sql.update(c, "DELETE FROM batch_aggregations"
        + " WHERE task_id = ? AND batch_identifier >= ? AND batch_identifier < ?",
        task(), fromInclusive.bytes(), toExclusive.bytes()));
  }
}
