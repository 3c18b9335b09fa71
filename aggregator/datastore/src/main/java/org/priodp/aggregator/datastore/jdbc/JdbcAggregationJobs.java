package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.AggregationJobRepository;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.LeaderAggregationJob;

/**
 * The {@link AggregationJobRepository} of a JDBC task transaction (DAP-18 "Helper
 * Initialization", "Leader Initialization"): the Helper's {@code
 * aggregation_jobs} and the Leader's {@code leader_aggregation_jobs}, whose jobs claim rows of
 * {@code client_reports} (times stored sign-flipped; the lease columns are {@link
 * JdbcJobLeases}'s).
 */
final class JdbcAggregationJobs extends TaskScoped implements AggregationJobRepository {
  private static final String HELPER_COLUMNS = "task_id, job_id, request_digest, step,"
      + " step_digest, state, response, error_type, error_detail, created_at_ms";
  /** The columns of a Leader job, in the order {@link #leaderRow} reads them. */
  static final String LEADER_COLUMNS = "task_id, job_id, state, step,"
      + " min_report_time, max_report_time, report_count, lease_owner, lease_token,"
      + " lease_expires_ms, lease_attempts, error_detail, created_at_ms, batch_identifier";
  private static final String ACTIVE = LeaderAggregationJob.State.ACTIVE.dbName();

  JdbcAggregationJobs(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  private static AggregationJobRecord helperRow(ResultSet rs) throws SQLException {
    return new AggregationJobRecord(new TaskId(rs.getBytes(1)),
        new AggregationJobId(rs.getBytes(2)), Sql.bytes(rs, 3), rs.getInt(4), Sql.bytes(rs, 5),
        AggregationJobRecord.State.ofDbName(rs.getString(6)), Sql.optionalBytes(rs, 7),
        Optional.ofNullable(rs.getString(8)), Optional.ofNullable(rs.getString(9)),
        Instant.ofEpochMilli(rs.getLong(10)));
  }

  /** Reads a row of {@link #LEADER_COLUMNS}. */
  static LeaderAggregationJob leaderRow(ResultSet rs) throws SQLException {
    return new LeaderAggregationJob(new TaskId(rs.getBytes(1)),
        new AggregationJobId(rs.getBytes(2)),
        LeaderAggregationJob.State.ofDbName(rs.getString(3)), rs.getInt(4),
        Sql.flip(rs.getLong(5)), Sql.flip(rs.getLong(6)), rs.getInt(7),
        Optional.ofNullable(rs.getString(8)), Sql.optionalBytes(rs, 9),
        Instant.ofEpochMilli(rs.getLong(10)), rs.getInt(11),
        Optional.ofNullable(rs.getString(12)), Instant.ofEpochMilli(rs.getLong(13)),
        Optional.ofNullable(rs.getBytes(14)).map(BatchIdentifier::of));
  }

  /** Reads the Leader job (task, id) on any connection. */
  static Optional<LeaderAggregationJob> readLeader(Connection c, TaskId taskId,
      AggregationJobId jobId) throws SQLException {
    return Sql.queryOne(c, "SELECT " + LEADER_COLUMNS
        + " FROM leader_aggregation_jobs WHERE task_id = ? AND job_id = ?",
        JdbcAggregationJobs::leaderRow, taskId.bytes(), jobId.bytes());
  }

  @Override
  public Optional<AggregationJobRecord> get(AggregationJobId jobId) {
    return sql(c -> Sql.queryOne(c, "SELECT " + HELPER_COLUMNS
        + " FROM aggregation_jobs WHERE task_id = ? AND job_id = ?",
        JdbcAggregationJobs::helperRow, task(), jobId.bytes()));
  }

  @Override
  public void put(AggregationJobRecord job) {
    requireTask(job.taskId(), "aggregation job");
    sql(c -> {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO aggregation_jobs ("
          + HELPER_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " ON CONFLICT (task_id, job_id) DO UPDATE SET request_digest = excluded.request_digest,"
          + " step = excluded.step, step_digest = excluded.step_digest, state = excluded.state,"
          + " response = excluded.response, error_type = excluded.error_type,"
          + " error_detail = excluded.error_detail")) {
        p.setBytes(1, job.taskId().bytes());
        p.setBytes(2, job.jobId().bytes());
        p.setBytes(3, job.requestDigest().toByteArray());
        p.setInt(4, job.step());
        p.setBytes(5, job.stepDigest().toByteArray());
        p.setString(6, job.state().dbName());
        p.setBytes(7, job.response().map(ByteString::toByteArray).orElse(null));
        p.setString(8, job.errorType().orElse(null));
        p.setString(9, job.errorDetail().orElse(null));
        p.setLong(10, job.createdAt().toEpochMilli());
        return p.executeUpdate();
      }
    });
  }

  /** A report no earlier job sent back to the pool with a delay that has not passed. */
  private static final String CLAIMABLE =
      " AND (retry_after_ms IS NULL OR retry_after_ms <= ?)";

  @Override
  public Optional<LeaderAggregationJob> createLeader(AggregationJobId jobId, int maxReports,
      int minReports, Optional<BatchIdentifier> batch, Instant now) {
    return createLeader(jobId, maxReports, minReports, batch, now, "");
  }

  @Override
  public Optional<LeaderAggregationJob> createLeaderOfUploadedBatch(AggregationJobId jobId,
      int maxReports, Instant now) {
    Optional<byte[]> batch = sql(c -> Sql.queryOne(c, "SELECT batch_identifier FROM"
        + " client_reports WHERE task_id = ? AND aggregation_job_id IS NULL"
        + " AND batch_identifier IS NOT NULL" + CLAIMABLE + " LIMIT 1", rs -> rs.getBytes(1),
        task(), now.toEpochMilli()));
    if (batch.isEmpty()) {
      return Optional.empty();
    }
    return createLeader(jobId, maxReports, 1, Optional.of(BatchIdentifier.of(batch.get())), now,
        " AND batch_identifier = ?");
  }

  /**
   * Claims reports as {@link #createLeader}; with {@code ofBatch} (" AND batch_identifier = ?")
   * only the reports uploaded to {@code batch}.
   */
  private Optional<LeaderAggregationJob> createLeader(AggregationJobId jobId, int maxReports,
      int minReports, Optional<BatchIdentifier> batch, Instant now, String ofBatch) {
    if (maxReports < 1 || minReports < 1 || minReports > maxReports) {
      throw new IllegalArgumentException("need 1 <= minReports <= maxReports, got " + minReports
          + ", " + maxReports);
    }
    return sql(c -> {
      int selected = 0;
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      byte[] reportBatch = ofBatch.isEmpty() ? null : batch.orElseThrow().bytes();
      try (PreparedStatement p = c.prepareStatement("SELECT report_time FROM client_reports"
          + " WHERE task_id = ? AND aggregation_job_id IS NULL" + CLAIMABLE + ofBatch
          + " ORDER BY report_time, report_id LIMIT ?")) {
        if (reportBatch == null) {
          Sql.bind(p, task(), now.toEpochMilli(), maxReports);
        } else {
          Sql.bind(p, task(), now.toEpochMilli(), reportBatch, maxReports);
        }
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            selected++;
            long stored = rs.getLong(1); // flipped: signed order is time order
            min = Math.min(min, stored);
            max = Math.max(max, stored);
          }
        }
      }
      if (selected < minReports) {
        return Optional.<LeaderAggregationJob>empty();
      }
      // one set-based statement claims the same rows the SELECT saw (the task transaction keeps
      // them unclaimed in between); a statement per report made PostgreSQL job creation hold the
      // task's lock long enough to stall uploads
      String claim = "UPDATE client_reports SET aggregation_job_id = ?,"
          + " placements = placements + 1"
          + " WHERE task_id = ? AND aggregation_job_id IS NULL AND report_id IN (SELECT report_id"
          + " FROM client_reports WHERE task_id = ? AND aggregation_job_id IS NULL" + CLAIMABLE
          + ofBatch + " ORDER BY report_time, report_id LIMIT ?)";
      int claimed = reportBatch == null
          ? Sql.update(c, claim, jobId.bytes(), task(), task(), now.toEpochMilli(), maxReports)
          : Sql.update(c, claim, jobId.bytes(), task(), task(), now.toEpochMilli(), reportBatch,
              maxReports);
      if (claimed != selected) {
        throw new SQLException("claimed " + claimed + " client reports, selected " + selected
            + "; the task transaction should have kept them unclaimed");
      }
      try (PreparedStatement p = c.prepareStatement("INSERT INTO leader_aggregation_jobs ("
          + LEADER_COLUMNS + ", updated_at_ms)"
          + " VALUES (?, ?, ?, 0, ?, ?, ?, NULL, NULL, 0, 0, NULL, ?, ?, ?)")) {
        p.setBytes(1, task());
        p.setBytes(2, jobId.bytes());
        p.setString(3, ACTIVE);
        p.setLong(4, min);
        p.setLong(5, max);
        p.setInt(6, selected);
        p.setLong(7, now.toEpochMilli());
        p.setBytes(8, batch.map(BatchIdentifier::bytes).orElse(null));
        p.setLong(9, now.toEpochMilli());
        p.executeUpdate();
      }
      return readLeader(c, taskId, jobId);
    });
  }

  @Override
  public Optional<LeaderAggregationJob> leader(AggregationJobId jobId) {
    return sql(c -> readLeader(c, taskId, jobId));
  }

  @Override
  public Optional<Integer> leaderVerificationKeyId(AggregationJobId jobId) {
    return sql(c -> Sql.queryOne(c, "SELECT verification_key_id FROM leader_aggregation_jobs"
        + " WHERE task_id = ? AND job_id = ? AND verification_key_id IS NOT NULL",
        rs -> rs.getInt(1), task(), jobId.bytes()));
  }

  @Override
  public void setLeaderVerificationKeyId(AggregationJobId jobId, int verificationKeyId) {
    sql(c -> Sql.update(c, "UPDATE leader_aggregation_jobs SET verification_key_id = ?"
        + " WHERE task_id = ? AND job_id = ?", verificationKeyId, task(), jobId.bytes()));
  }

  @Override
  public Optional<LeaderRequest> leaderRequest(AggregationJobId jobId) {
    return sql(c -> Sql.queryOne(c, "SELECT order_salt, request_digest FROM"
        + " leader_aggregation_jobs WHERE task_id = ? AND job_id = ?"
        + " AND order_salt IS NOT NULL",
        rs -> new LeaderRequest(rs.getInt(1), Sql.optionalBytes(rs, 2).orElse(ByteString.EMPTY)),
        task(), jobId.bytes()));
  }

  @Override
  public boolean leaderRequestSent(ByteString digest) {
    return sql(c -> Sql.exists(c, "SELECT 1 FROM leader_aggregation_jobs"
        + " WHERE task_id = ? AND request_digest = ?", task(), digest.toByteArray()));
  }

  @Override
  public void setLeaderRequest(AggregationJobId jobId, LeaderRequest request) {
    sql(c -> Sql.update(c, "UPDATE leader_aggregation_jobs SET order_salt = ?,"
        + " request_digest = ? WHERE task_id = ? AND job_id = ?", request.orderSalt(),
        request.digest().toByteArray(), task(), jobId.bytes()));
  }

  @Override
  public int leaderHelperFailures(AggregationJobId jobId) {
    return sql(c -> Sql.queryOne(c, "SELECT helper_failures FROM leader_aggregation_jobs"
        + " WHERE task_id = ? AND job_id = ?", rs -> rs.getInt(1), task(), jobId.bytes()))
        .orElse(0);
  }

  @Override
  public java.util.List<LeaderAggregationJob> leaderJobs(
      java.util.Collection<LeaderAggregationJob.State> states) {
    if (states.isEmpty()) {
      return java.util.List.of();
    }
    java.util.List<Object> params = new java.util.ArrayList<>();
    params.add(task());
    for (LeaderAggregationJob.State st : states) {
      params.add(st.dbName());
    }
    return sql(c -> Sql.query(c, "SELECT " + LEADER_COLUMNS + " FROM leader_aggregation_jobs"
        + " WHERE task_id = ? AND state IN (" + Sql.marks(states.size()) + ")"
        + " ORDER BY created_at_ms, job_id", JdbcAggregationJobs::leaderRow, params.toArray()));
  }

  @Override
  public Optional<Integer> requeueAbandonedLeader(AggregationJobId jobId, String note,
      Instant now) {
    return sql(c -> {
      Optional<LeaderAggregationJob> job = readLeader(c, taskId, jobId);
      if (job.isEmpty() || job.get().state() != LeaderAggregationJob.State.ABANDONED) {
        return Optional.<Integer>empty();
      }
      // a report some other job committed stays where it is: it is counted already
      int n = Sql.update(c, "UPDATE client_reports SET aggregation_job_id = NULL,"
          + " retry_after_ms = NULL WHERE task_id = ? AND aggregation_job_id = ?"
          + " AND report_id NOT IN (SELECT report_id FROM aggregated_reports WHERE task_id = ?)",
          task(), jobId.bytes(), task());
      String detail = job.get().errorDetail().map(d -> d + "; ").orElse("") + note;
      Sql.update(c, "UPDATE leader_aggregation_jobs SET report_count = 0, error_detail = ?,"
          + " updated_at_ms = ? WHERE task_id = ? AND job_id = ?", Sql.detail(detail),
          now.toEpochMilli(), task(), jobId.bytes());
      return Optional.of(n);
    });
  }

  @Override
  public void finishLeader(AggregationJobId jobId, Instant now) {
    sql(c -> Sql.update(c, "UPDATE leader_aggregation_jobs SET"
        + " state = ?, lease_owner = NULL, lease_token = NULL, lease_expires_ms = 0,"
        + " updated_at_ms = ? WHERE task_id = ? AND job_id = ?",
        LeaderAggregationJob.State.FINISHED.dbName(), now.toEpochMilli(), task(),
        jobId.bytes()));
  }

  @Override
  public Optional<LeaderBatchFill> openLeaderBatch(long target) {
    return sql(c -> Sql.queryOne(c, "SELECT batch_identifier,"
        + " SUM(report_count) FROM leader_aggregation_jobs WHERE task_id = ?"
        + " AND batch_identifier IS NOT NULL AND state <> ? GROUP BY batch_identifier"
        + " HAVING SUM(report_count) < ? ORDER BY MIN(created_at_ms) LIMIT 1",
        rs -> new LeaderBatchFill(BatchIdentifier.of(rs.getBytes(1)), rs.getLong(2)), task(),
        LeaderAggregationJob.State.ABANDONED.dbName(), target));
  }

  @Override
  public boolean leaderActive(BatchIdentifier batch) {
    return sql(c -> Sql.exists(c, "SELECT 1 FROM leader_aggregation_jobs"
        + " WHERE task_id = ? AND batch_identifier = ? AND state = ? LIMIT 1",
        task(), batch.bytes(), ACTIVE));
  }

  @Override
  public Optional<long[]> leaderReportSpan(BatchIdentifier batch) {
    return sql(c -> {
      try (PreparedStatement p = c.prepareStatement("SELECT MIN(min_report_time),"
          + " MAX(max_report_time), COUNT(*) FROM leader_aggregation_jobs"
          + " WHERE task_id = ? AND batch_identifier = ? AND state = ?")) {
        Sql.bind(p, task(), batch.bytes(), LeaderAggregationJob.State.FINISHED.dbName());
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
          if (rs.getLong(3) == 0) {
            return Optional.<long[]>empty();
          }
          return Optional.of(new long[] {Sql.flip(rs.getLong(1)), Sql.flip(rs.getLong(2))});
        }
      }
    });
  }
}
