package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.StatusRepository;

/**
 * The {@link StatusRepository} of a JDBC task transaction: aggregate reads of {@code
 * client_reports}, {@code leader_aggregation_jobs}, {@code aggregation_jobs}, {@code
 * collection_jobs} and {@code released_aggregate_shares}; times of reports stored sign-flipped.
 */
final class JdbcStatus extends TaskScoped implements StatusRepository {
  JdbcStatus(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  @Override
  public Backlog backlog(Instant now) {
    return sql(c -> Sql.queryOne(c, "SELECT COUNT(*), MIN(report_time),"
        + " SUM(CASE WHEN retry_after_ms > ? THEN 1 ELSE 0 END),"
        + " MIN(CASE WHEN retry_after_ms > ? THEN retry_after_ms END)"
        + " FROM client_reports WHERE task_id = ? AND aggregation_job_id IS NULL",
        rs -> new Backlog(rs.getLong(1), optionalLong(rs, 2).map(Sql::flip), rs.getLong(3),
            optionalLong(rs, 4).map(Instant::ofEpochMilli)),
        now.toEpochMilli(), now.toEpochMilli(), task()).orElseThrow());
  }

  private static Optional<Long> optionalLong(ResultSet rs, int column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? Optional.empty() : Optional.of(v);
  }

  @Override
  public Outstanding outstanding(long fromInclusive, long toExclusive) {
    return sql(c -> {
      long unclaimed = Sql.queryOne(c, "SELECT COUNT(*) FROM client_reports"
          + " WHERE task_id = ? AND aggregation_job_id IS NULL AND report_time >= ?"
          + " AND report_time < ?", rs -> rs.getLong(1), task(), Sql.flip(fromInclusive),
          Sql.flip(toExclusive)).orElseThrow();
      return Sql.queryOne(c, "SELECT COUNT(*), SUM(report_count) FROM leader_aggregation_jobs"
          + " WHERE task_id = ? AND state = ? AND min_report_time < ? AND max_report_time >= ?",
          rs -> new Outstanding(unclaimed, rs.getLong(1), rs.getLong(2)), task(),
          LeaderAggregationJob.State.ACTIVE.dbName(), Sql.flip(toExclusive),
          Sql.flip(fromInclusive)).orElseThrow();
    });
  }

  @Override
  public List<JobGroup> leaderJobs() {
    return groups("leader_aggregation_jobs", "error_detail");
  }

  @Override
  public List<JobGroup> helperJobs() {
    return groups("aggregation_jobs", "error_type");
  }

  private List<JobGroup> groups(String table, String error) {
    return sql(c -> Sql.query(c, "SELECT state, " + error + ", COUNT(*) FROM " + table
        + " WHERE task_id = ? GROUP BY state, " + error + " ORDER BY state, " + error,
        rs -> new JobGroup(rs.getString(1), Optional.ofNullable(rs.getString(2)), rs.getLong(3)),
        (Object) task()));
  }

  @Override
  public List<Lease> leases(Instant now) {
    List<Lease> out = new ArrayList<>();
    out.addAll(leases("aggregation", "leader_aggregation_jobs",
        LeaderAggregationJob.State.ACTIVE.dbName(), now));
    out.addAll(leases("collection", "collection_jobs",
        CollectionJobRecord.State.PENDING.dbName(), now));
    return out;
  }

  private List<Lease> leases(String kind, String table, String state, Instant now) {
    return sql(c -> Sql.query(c, "SELECT job_id, lease_owner, lease_expires_ms, lease_attempts"
        + " FROM " + table + " WHERE task_id = ? AND state = ? AND lease_token IS NOT NULL"
        + " AND lease_expires_ms > ? ORDER BY lease_expires_ms, job_id",
        rs -> new Lease(kind, Base64.getUrlEncoder().withoutPadding()
            .encodeToString(rs.getBytes(1)), String.valueOf(rs.getString(2)),
            Instant.ofEpochMilli(rs.getLong(3)), rs.getInt(4)),
        task(), state, now.toEpochMilli()));
  }

  @Override
  public Releases releases() {
    return sql(c -> Sql.queryOne(c, "SELECT COUNT(*), MAX(created_at_ms)"
        + " FROM released_aggregate_shares WHERE task_id = ?",
        rs -> new Releases(rs.getLong(1), optionalLong(rs, 2).map(Instant::ofEpochMilli)),
        (Object) task()).orElseThrow());
  }
}
