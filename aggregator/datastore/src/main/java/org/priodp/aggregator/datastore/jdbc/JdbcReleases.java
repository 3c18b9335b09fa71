package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.ReleaseRepository;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;

/**
 * The {@link ReleaseRepository} of a JDBC task transaction (DAP-18 "Obtaining Aggregate Shares"):
 * {@code noised_aggregate_shares}, {@code released_aggregate_shares} (insert-if-absent) and
 * {@code collected_intervals}, whose ranges are stored sign-flipped.
 */
final class JdbcReleases extends TaskScoped implements ReleaseRepository {
  private static final String NOISED_COLUMNS = "task_id, batch_identifier, aggregation_parameter,"
      + " report_count, checksum, request_digest, noised_share, created_at_ms";
  private static final String RELEASED_COLUMNS =
      "task_id, batch_identifier, request_digest, aggregate_share, created_at_ms";

  JdbcReleases(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  private static NoisedAggregateShare noisedRow(ResultSet rs) throws SQLException {
    return new NoisedAggregateShare(new TaskId(rs.getBytes(1)),
        BatchIdentifier.of(rs.getBytes(2)), Sql.bytes(rs, 3), rs.getLong(4), Sql.bytes(rs, 5),
        Sql.bytes(rs, 6), Sql.bytes(rs, 7), Instant.ofEpochMilli(rs.getLong(8)));
  }

  private static ReleasedAggregateShare releasedRow(ResultSet rs) throws SQLException {
    return new ReleasedAggregateShare(new TaskId(rs.getBytes(1)),
        BatchIdentifier.of(rs.getBytes(2)), Sql.bytes(rs, 3), Sql.bytes(rs, 4),
        Instant.ofEpochMilli(rs.getLong(5)));
  }

  @Override
  public Optional<NoisedAggregateShare> noisedShare(BatchIdentifier batch) {
    return sql(c -> Sql.queryOne(c, "SELECT " + NOISED_COLUMNS
        + " FROM noised_aggregate_shares WHERE task_id = ? AND batch_identifier = ?",
        JdbcReleases::noisedRow, task(), batch.bytes()));
  }

  @Override
  public void insertNoisedShare(NoisedAggregateShare n, Optional<CollectedInterval> range) {
    requireTask(n.taskId(), "noised share");
    sql(c -> {
      Sql.update(c, "INSERT INTO noised_aggregate_shares (" + NOISED_COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)", n.taskId().bytes(), n.batch().bytes(),
          n.aggregationParameter().toByteArray(), n.reportCount(), n.checksum().toByteArray(),
          n.requestDigest().toByteArray(), n.noisedShare().toByteArray(),
          n.createdAt().toEpochMilli());
      if (range.isPresent()) {
        Sql.update(c, "INSERT INTO collected_intervals"
            + " (task_id, batch_identifier, range_start, range_end) VALUES (?, ?, ?, ?)",
            task(), n.batch().bytes(), Sql.flip(range.get().start()),
            Sql.flip(range.get().end()));
      }
      return null;
    });
  }

  @Override
  public Optional<ReleasedAggregateShare> releasedShare(BatchIdentifier batch) {
    return sql(c -> readReleased(c, batch));
  }

  private Optional<ReleasedAggregateShare> readReleased(Connection c, BatchIdentifier batch)
      throws SQLException {
    return Sql.queryOne(c, "SELECT " + RELEASED_COLUMNS
        + " FROM released_aggregate_shares WHERE task_id = ? AND batch_identifier = ?",
        JdbcReleases::releasedRow, task(), batch.bytes());
  }

  @Override
  public ReleasedAggregateShare putReleasedShareIfAbsent(ReleasedAggregateShare r) {
    requireTask(r.taskId(), "released share");
    return sql(c -> {
      Sql.update(c, "INSERT INTO released_aggregate_shares (" + RELEASED_COLUMNS
          + ") VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", r.taskId().bytes(),
          r.batch().bytes(), r.requestDigest().toByteArray(), r.aggregateShare().toByteArray(),
          r.createdAt().toEpochMilli());
      return readReleased(c, r.batch()).orElseThrow(() ->
          new SQLException("released share vanished after insert"));
    });
  }

  @Override
  public List<CollectedInterval> collectedIntervals() {
    return sql(c -> Sql.query(c, "SELECT range_start, range_end"
        + " FROM collected_intervals WHERE task_id = ? ORDER BY range_start",
        rs -> new CollectedInterval(Sql.flip(rs.getLong(1)), Sql.flip(rs.getLong(2))),
        task()));
  }

  @Override
  public boolean collectedIntervalOverlaps(CollectedInterval range) {
    return sql(c -> Sql.exists(c, "SELECT 1 FROM collected_intervals"
        + " WHERE task_id = ? AND range_start < ? AND range_end > ? LIMIT 1",
        task(), Sql.flip(range.end()), Sql.flip(range.start())));
  }
}
