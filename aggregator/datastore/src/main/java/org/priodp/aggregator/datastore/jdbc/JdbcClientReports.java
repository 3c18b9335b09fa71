package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.ClientReportRepository;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.LeaderJobReport;

/**
 * The {@link ClientReportRepository} of a JDBC task transaction (DAP-18 "Uploading Reports",
 * "Aggregation Job Execution"): {@code client_reports} and {@code aggregated_reports}, times
 * stored sign-flipped.
 */
final class JdbcClientReports extends TaskScoped implements ClientReportRepository {
  /** How many report IDs one replay query names. */
  private static final int IDS_PER_QUERY = 500;
  private static final String INSERT_AGGREGATED = "INSERT INTO aggregated_reports"
      + " (task_id, report_id, job_id, report_time) VALUES (?, ?, ?, ?)";

  JdbcClientReports(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  @Override
  public boolean insertIfAbsent(ReportId id, long reportTime, ByteString encodedReport) {
    return sql(c -> Sql.update(c, "INSERT INTO client_reports"
        + " (task_id, report_id, report_time, report, aggregation_job_id, created_at_ms)"
        + " VALUES (?, ?, ?, ?, NULL, ?) ON CONFLICT (task_id, report_id) DO NOTHING",
        task(), id.bytes(), Sql.flip(reportTime), encodedReport.toByteArray(),
        System.currentTimeMillis()) > 0);
  }

  @Override
  public Optional<ByteString> get(ReportId id) {
    return sql(c -> Sql.queryOne(c, "SELECT report FROM client_reports"
        + " WHERE task_id = ? AND report_id = ?", rs -> Sql.bytes(rs, 1), task(), id.bytes()));
  }

  @Override
  public List<LeaderJobReport> claimedBy(AggregationJobId jobId) {
    return sql(c -> Sql.query(c, "SELECT report_id, report_time, report"
        + " FROM client_reports WHERE task_id = ? AND aggregation_job_id = ?"
        + " ORDER BY report_time, report_id",
        rs -> new LeaderJobReport(new ReportId(rs.getBytes(1)), Sql.flip(rs.getLong(2)),
            Sql.bytes(rs, 3)), task(), jobId.bytes()));
  }

  @Override
  public boolean outstanding(long fromInclusive, long toExclusive) {
    return sql(c -> {
      // unclaimed reports of the interval (index client_reports_by_job: task, NULL job, time)
      if (Sql.exists(c, "SELECT 1 FROM client_reports"
          + " WHERE task_id = ? AND aggregation_job_id IS NULL AND report_time >= ?"
          + " AND report_time < ? LIMIT 1", task(), Sql.flip(fromInclusive),
          Sql.flip(toExclusive))) {
        return true;
      }
      // an active Leader aggregation job whose reports' times [min, max] meet the interval
      return Sql.exists(c, "SELECT 1 FROM leader_aggregation_jobs"
          + " WHERE task_id = ? AND state = ? AND min_report_time < ? AND max_report_time >= ?"
          + " LIMIT 1", task(), LeaderAggregationJob.State.ACTIVE.dbName(),
          Sql.flip(toExclusive), Sql.flip(fromInclusive));
    });
  }

  @Override
  public boolean aggregated(ReportId reportId) {
    return sql(c -> Sql.exists(c, "SELECT 1 FROM aggregated_reports"
        + " WHERE task_id = ? AND report_id = ?", task(), reportId.bytes()));
  }

  @Override
  public Set<ReportId> aggregatedAmong(Collection<ReportId> ids) {
    return sql(c -> {
      Set<ReportId> out = new HashSet<>();
      List<ReportId> all = new ArrayList<>(ids);
      for (int from = 0; from < all.size(); from += IDS_PER_QUERY) {
        List<ReportId> chunk = all.subList(from, Math.min(all.size(), from + IDS_PER_QUERY));
        Object[] params = new Object[chunk.size() + 1];
        params[0] = task();
        for (int i = 0; i < chunk.size(); i++) {
          params[i + 1] = chunk.get(i).bytes();
        }
        out.addAll(Sql.query(c, "SELECT report_id FROM aggregated_reports"
            + " WHERE task_id = ? AND report_id IN (" + Sql.marks(chunk.size()) + ")",
            rs -> new ReportId(rs.getBytes(1)), params));
      }
      return out;
    });
  }

  @Override
  public void insertAggregated(ReportId reportId, AggregationJobId jobId) {
    sql(c -> Sql.update(c, "INSERT INTO aggregated_reports (task_id, report_id, job_id)"
        + " VALUES (?, ?, ?)", task(), reportId.bytes(), jobId.bytes()));
  }

  @Override
  public void insertAggregated(ReportId reportId, AggregationJobId jobId, long reportTime) {
    sql(c -> Sql.update(c, INSERT_AGGREGATED, task(), reportId.bytes(), jobId.bytes(),
        Sql.flip(reportTime)));
  }

  @Override
  public void insertAggregated(AggregationJobId jobId, Map<ReportId, Long> reportTimes) {
    if (reportTimes.isEmpty()) {
      return;
    }
    sql(c -> {
      try (PreparedStatement p = c.prepareStatement(INSERT_AGGREGATED)) {
        for (Map.Entry<ReportId, Long> e : reportTimes.entrySet()) {
          Sql.bind(p, task(), e.getKey().bytes(), jobId.bytes(), Sql.flip(e.getValue()));
          p.addBatch();
        }
        return p.executeBatch();
      }
    });
  }

  @Override
  public int unclaim(AggregationJobId jobId, Collection<ReportId> reportIds,
      java.time.Instant retryAfter) {
    return unclaim(jobId, reportIds, retryAfter, 0);
  }

  @Override
  public int unclaimUnsent(AggregationJobId jobId, Collection<ReportId> reportIds,
      java.time.Instant retryAfter) {
    return unclaim(jobId, reportIds, retryAfter, 1);
  }

  @Override
  public Map<ReportId, Integer> placements(AggregationJobId jobId) {
    return sql(c -> {
      Map<ReportId, Integer> out = new java.util.LinkedHashMap<>();
      for (Object[] row : Sql.query(c, "SELECT report_id, placements FROM client_reports"
          + " WHERE task_id = ? AND aggregation_job_id = ?",
          rs -> new Object[] {new ReportId(rs.getBytes(1)), rs.getInt(2)}, task(),
          jobId.bytes())) {
        out.put((ReportId) row[0], (Integer) row[1]);
      }
      return out;
    });
  }

  /** Unclaims the reports, taking {@code unplace} (0 or 1) from their placements. */
  private int unclaim(AggregationJobId jobId, Collection<ReportId> reportIds,
      java.time.Instant retryAfter, int unplace) {
    if (reportIds.isEmpty()) {
      return 0;
    }
    return sql(c -> {
      try (PreparedStatement p = c.prepareStatement("UPDATE client_reports"
          + " SET aggregation_job_id = NULL, retry_after_ms = ?, placements = placements - ?"
          + " WHERE task_id = ? AND aggregation_job_id = ? AND report_id = ?")) {
        for (ReportId id : reportIds) {
          Sql.bind(p, retryAfter.toEpochMilli(), unplace, task(), jobId.bytes(), id.bytes());
          p.addBatch();
        }
        int n = 0;
        for (int u : p.executeBatch()) {
          n += Math.max(u, 0);
        }
        // the job no longer holds them: a leader-selected batch's fill counts them no more
        Sql.update(c, "UPDATE leader_aggregation_jobs SET report_count = report_count - ?"
            + " WHERE task_id = ? AND job_id = ?", n, task(), jobId.bytes());
        return n;
      }
    });
  }

  @Override
  public long aggregatedCount() {
    return sql(c -> {
      try (PreparedStatement p = c.prepareStatement(
          "SELECT COUNT(*) FROM aggregated_reports WHERE task_id = ?")) {
        p.setBytes(1, task());
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    });
  }
}
