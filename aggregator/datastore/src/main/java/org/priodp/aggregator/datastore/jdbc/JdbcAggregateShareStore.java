package org.priodp.aggregator.datastore.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregateShareRequest;
import org.priodp.aggregator.datastore.AggregateShareResource;
import org.priodp.aggregator.datastore.AggregateShareStore;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.CollectionJobLease;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.LeaderJobReport;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;
import org.priodp.aggregator.datastore.StoreException;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.aggregator.datastore.jdbc.internal.Migrations;
import org.priodp.aggregator.datastore.jdbc.internal.SqlDialect;

/**
 * The {@link AggregateShareStore} over plain JDBC, with the same SQL for SQLite (embedded default:
 * WAL journal, synchronous=FULL, one connection whose use is serialized, transactions begun
 * IMMEDIATE so that they take the database write lock first) and PostgreSQL (a HikariCP pool,
 * {@link #DEFAULT_POOL_SIZE} connections unless told otherwise; task transactions take a
 * transaction-scoped advisory lock on the task). The schema is migrated on open.
 */
public final class JdbcAggregateShareStore implements AggregateShareStore {
  /** The PostgreSQL pool size when none is given. */
  public static final int DEFAULT_POOL_SIZE = 10;
  /** How long a request waits for a pooled PostgreSQL connection before it fails. */
  private static final long CONNECTION_TIMEOUT_MS = 5_000;

  private final SqlDialect dialect;
  private final String url;
  private final Connection shared;
  private final HikariDataSource pool;
  private final ReentrantLock lock = new ReentrantLock();
  private final int schemaVersion;
  private volatile boolean closed;

  private JdbcAggregateShareStore(String url, Properties properties, int poolSize) {
    if (poolSize < 1) {
      throw new IllegalArgumentException("pool size must be >= 1, got " + poolSize);
    }
    this.dialect = SqlDialect.ofUrl(url);
    this.url = url;
    Connection c = null;
    HikariDataSource p = null;
    try {
      if (dialect == SqlDialect.SQLITE) {
        c = openSqliteConnection(url, properties);
      } else {
        p = openPool(url, properties, poolSize);
      }
      this.shared = c;
      this.pool = p;
      this.schemaVersion = withConnection(conn -> Migrations.migrate(conn, dialect,
          Migrations.ALL));
    } catch (SQLException | RuntimeException e) {
      closeQuietly(c, p);
      throw new StoreException("cannot open store " + describe(url), e);
    }
  }

  /** Opens (creating if needed) an SQLite database file and migrates it. */
  public static JdbcAggregateShareStore openSqlite(Path file) {
    return open("jdbc:sqlite:" + file.toAbsolutePath(), new Properties());
  }

  /** Opens a store from a {@code jdbc:sqlite:} or {@code jdbc:postgresql:} URL and migrates it. */
  public static JdbcAggregateShareStore open(String jdbcUrl) {
    return open(jdbcUrl, new Properties());
  }

  /** Opens a store with driver properties (e.g. user and password) and migrates it. */
  public static JdbcAggregateShareStore open(String jdbcUrl, Properties properties) {
    return open(jdbcUrl, properties, DEFAULT_POOL_SIZE);
  }

  /**
   * Opens a store with driver properties and, for PostgreSQL, a pool of {@code poolSize}
   * connections (ignored for SQLite, which uses one), and migrates it.
   */
  public static JdbcAggregateShareStore open(String jdbcUrl, Properties properties, int poolSize) {
    return new JdbcAggregateShareStore(jdbcUrl, (Properties) properties.clone(), poolSize);
  }

  private static String describe(String url) {
    return url.replaceAll("password=[^&]*", "password=***");
  }

  private static Connection openSqliteConnection(String url, Properties properties)
      throws SQLException {
    Properties p = (Properties) properties.clone();
    // BEGIN IMMEDIATE: a transaction takes the write lock when it starts, so two processes'
    // check-then-insert transactions cannot interleave (the second waits up to busy_timeout).
    p.setProperty("transaction_mode", "IMMEDIATE");
    Connection c = DriverManager.getConnection(url, p);
    try (Statement s = c.createStatement()) {
      s.execute("PRAGMA busy_timeout = 10000");
      s.execute("PRAGMA journal_mode = WAL");
      s.execute("PRAGMA synchronous = FULL");
      s.execute("PRAGMA foreign_keys = ON");
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  private static HikariDataSource openPool(String url, Properties properties, int poolSize) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setDataSourceProperties(properties);
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(Math.min(2, poolSize));
    config.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
    config.setPoolName("priodp-store");
    config.setAutoCommit(true);
    return new HikariDataSource(config); // fails fast (with the driver's reason) if unreachable
  }

  private static void closeQuietly(Connection c, HikariDataSource p) {
    try {
      if (c != null) {
        c.close();
      }
    } catch (SQLException ignored) {
      // the open already failed; its cause is what the caller reports
    }
    if (p != null) {
      p.close();
    }
  }

  /** Returns the dialect in use. */
  public SqlDialect dialect() {
    return dialect;
  }

  @FunctionalInterface
  private interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  private <T> T withConnection(SqlWork<T> work) throws SQLException {
    if (closed) {
      throw new IllegalStateException("store is closed");
    }
    if (shared != null) {
      lock.lock();
      try {
        return work.run(shared);
      } finally {
        lock.unlock();
      }
    }
    try (Connection c = pool.getConnection()) {
      return work.run(c);
    }
  }

  private <T> T run(String what, SqlWork<T> work) {
    try {
      return withConnection(work);
    } catch (SQLException e) {
      throw new StoreException(what + " failed on " + dialect + ": " + e.getMessage(), e);
    }
  }

  @Override
  public <T> T inTaskTransaction(TaskId taskId, TaskWork<T> work) {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(work, "work");
    try {
      return withConnection(c -> {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        boolean committed = false;
        try {
          if (dialect == SqlDialect.POSTGRESQL) {
            try (PreparedStatement p = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
              p.setLong(1, advisoryKey(taskId));
              p.executeQuery().close();
            }
          } else {
            // the IMMEDIATE transaction mode makes the first statement take the write lock
            try (Statement s = c.createStatement()) {
              s.executeQuery("SELECT 1").close();
            }
          }
          T result = work.run(new JdbcTaskTransaction(c, taskId));
          c.commit();
          committed = true;
          return result;
        } catch (WrappedSql e) {
          throw e.getCause();
        } finally {
          if (!committed) {
            try {
              c.rollback();
            } catch (SQLException ignored) {
              // the connection is broken; the pool discards it and the work's failure stands
            }
          }
          c.setAutoCommit(auto);
        }
      });
    } catch (SQLException e) {
      throw new StoreException("task transaction failed on " + dialect + ": " + e.getMessage(), e);
    }
  }

  /** The advisory lock key of a task: its first 8 bytes with a fixed tag mixed in. */
  static long advisoryKey(TaskId taskId) {
    byte[] b = taskId.bytes();
    long k = 0;
    for (int i = 0; i < 8; i++) {
      k = (k << 8) | (b[i] & 0xff);
    }
    return k ^ 0x7072696f64702d31L; // "priodp-1": keeps clear of other users' small keys
  }

  /** Carries a checked SQLException out of a {@link TaskTransaction} method. */
  private static final class WrappedSql extends RuntimeException {
    WrappedSql(SQLException e) {
      super(e);
    }

    @Override
    public synchronized SQLException getCause() {
      return (SQLException) super.getCause();
    }
  }

  private static ByteString bytes(ResultSet rs, int column) throws SQLException {
    return ByteString.copyOf(rs.getBytes(column));
  }

  /** Maps unsigned time units to a signed column whose signed order is their unsigned order. */
  static long flip(long unsigned) {
    return unsigned ^ Long.MIN_VALUE;
  }

  private final class JdbcTaskTransaction implements TaskTransaction {
    private final Connection c;
    private final TaskId taskId;

    JdbcTaskTransaction(Connection c, TaskId taskId) {
      this.c = c;
      this.taskId = taskId;
    }

    private <T> T sql(SqlWork<T> w) {
      try {
        return w.run(c);
      } catch (SQLException e) {
        throw new WrappedSql(e);
      }
    }

    @Override
    public TaskId taskId() {
      return taskId;
    }

    @Override
    public Optional<NoisedAggregateShare> noisedShare(BatchIdentifier batch) {
      return sql(conn -> readNoised(conn, taskId, batch));
    }

    @Override
    public Optional<BatchAggregation> batchAggregation(BatchIdentifier batch) {
      return sql(conn -> readBatch(conn, taskId, batch));
    }

    @Override
    public List<BatchAggregation> batchAggregations(BatchIdentifier fromInclusive,
    BatchIdentifier toExclusive) {
      return sql(conn -> readBatches(conn, taskId, fromInclusive, toExclusive));
    }

    @Override
    public boolean collectedIntervalOverlaps(CollectedInterval range) {
      return sql(conn -> exists(conn, "SELECT 1 FROM collected_intervals"
            + " WHERE task_id = ? AND range_start < ? AND range_end > ? LIMIT 1",
            taskId.bytes(), flip(range.end()), flip(range.start())));
    }

    @Override
    public void putBatchAggregation(BatchAggregation a) {
      if (!a.taskId().equals(taskId)) {
        throw new IllegalArgumentException("batch aggregation of another task");
      }
      sql(conn -> upsertBatch(conn, a));
    }

    @Override
    public boolean reportAggregated(org.priodp.aggregator.dap.ReportId reportId) {
      return sql(conn -> exists(conn, "SELECT 1 FROM aggregated_reports"
            + " WHERE task_id = ? AND report_id = ?",
            taskId.bytes(), reportId.bytes()));
    }

    @Override
    public void insertAggregatedReport(org.priodp.aggregator.dap.ReportId reportId,
        org.priodp.aggregator.dap.AggregationJobId jobId) {
      sql(conn -> {
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO aggregated_reports"
            + " (task_id, report_id, job_id) VALUES (?, ?, ?)")) {
          p.setBytes(1, taskId.bytes());
          p.setBytes(2, reportId.bytes());
          p.setBytes(3, jobId.bytes());
          return p.executeUpdate();
        }
      });
    }

    @Override
    public void insertAggregatedReport(org.priodp.aggregator.dap.ReportId reportId,
        org.priodp.aggregator.dap.AggregationJobId jobId, long reportTime) {
      sql(conn -> {
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO aggregated_reports"
            + " (task_id, report_id, job_id, report_time) VALUES (?, ?, ?, ?)")) {
          p.setBytes(1, taskId.bytes());
          p.setBytes(2, reportId.bytes());
          p.setBytes(3, jobId.bytes());
          p.setLong(4, flip(reportTime));
          return p.executeUpdate();
        }
      });
    }

    @Override
    public Optional<Long> retentionCutoff() {
      return sql(conn -> readCutoff(conn, taskId));
    }

    @Override
    public List<CollectedInterval> collectedIntervals() {
      return sql(conn -> readCollected(conn, taskId));
    }

    @Override
    public int deleteBatchAggregations(BatchIdentifier fromInclusive,
        BatchIdentifier toExclusive) {
      return sql(conn -> {
        try (PreparedStatement p = conn.prepareStatement("DELETE FROM batch_aggregations"
            + " WHERE task_id = ? AND batch_identifier >= ? AND batch_identifier < ?")) {
          p.setBytes(1, taskId.bytes());
          p.setBytes(2, fromInclusive.bytes());
          p.setBytes(3, toExclusive.bytes());
          return p.executeUpdate();
        }
      });
    }

    @Override
    public RetentionCounts collectExpired(long cutoff, java.time.Instant jobsCreatedBefore) {
      return sql(conn -> {
        Optional<Long> stored = readCutoff(conn, taskId);
        long effective = stored.isPresent() && Long.compareUnsigned(stored.get(), cutoff) > 0
            ? stored.get() : cutoff;
        if (stored.isEmpty() || stored.get() != effective) {
          try (PreparedStatement p = conn.prepareStatement(stored.isEmpty()
              ? "INSERT INTO retention_cutoffs (cutoff, task_id) VALUES (?, ?)"
              : "UPDATE retention_cutoffs SET cutoff = ? WHERE task_id = ?")) {
            p.setLong(1, flip(effective));
            p.setBytes(2, taskId.bytes());
            p.executeUpdate();
          }
        }
        int reports;
        try (PreparedStatement p = conn.prepareStatement("DELETE FROM aggregated_reports"
            + " WHERE task_id = ? AND report_time < ?")) {
          p.setBytes(1, taskId.bytes());
          p.setLong(2, flip(effective));
          reports = p.executeUpdate();
        }
        // the Leader's uploaded reports below the cutoff that no active job still needs: the
        // driver never sends a report below the cutoff (report_dropped), so they are dead rows
        try (PreparedStatement p = conn.prepareStatement("DELETE FROM client_reports"
            + " WHERE task_id = ? AND report_time < ? AND (aggregation_job_id IS NULL"
            + " OR aggregation_job_id NOT IN (SELECT job_id FROM leader_aggregation_jobs"
            + " WHERE task_id = ? AND state = 'active'))")) {
          p.setBytes(1, taskId.bytes());
          p.setLong(2, flip(effective));
          p.setBytes(3, taskId.bytes());
          reports += p.executeUpdate();
        }
        int jobs;
        try (PreparedStatement p = conn.prepareStatement("DELETE FROM aggregation_jobs"
            + " WHERE task_id = ? AND created_at_ms < ? AND state IN (?, ?, ?)")) {
          p.setBytes(1, taskId.bytes());
          p.setLong(2, jobsCreatedBefore.toEpochMilli());
          p.setString(3, AggregationJobRecord.State.READY.dbName());
          p.setString(4, AggregationJobRecord.State.FAILED.dbName());
          p.setString(5, AggregationJobRecord.State.ABANDONED.dbName());
          jobs = p.executeUpdate();
        }
        return new RetentionCounts(effective, reports, jobs);
      });
    }

    @Override
    public Optional<AggregationJobRecord> aggregationJob(
        org.priodp.aggregator.dap.AggregationJobId jobId) {
      return sql(conn -> readJob(conn, taskId, jobId));
    }

    @Override
    public void putAggregationJob(AggregationJobRecord job) {
      if (!job.taskId().equals(taskId)) {
        throw new IllegalArgumentException("aggregation job of another task");
      }
      sql(conn -> {
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO aggregation_jobs ("
            + JOB_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
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

    @Override
    public void insertNoisedShare(NoisedAggregateShare share, Optional<CollectedInterval> range) {
      if (!share.taskId().equals(taskId)) {
        throw new IllegalArgumentException("noised share of another task");
      }
      sql(conn -> {
        insertNoised(conn, share);
        if (range.isPresent()) {
          insertCollected(conn, taskId, share.batch(), range.get());
        }
        return null;
      });
    }

    // ---- issue 17, the Leader's report upload (client_reports, migration 6) ----

    @Override
    public boolean insertClientReport(org.priodp.aggregator.dap.ReportId id, long reportTime,
        ByteString encodedReport) {
      return sql(conn -> update(conn, "INSERT INTO client_reports"
            + " (task_id, report_id, report_time, report, aggregation_job_id, created_at_ms)"
            + " VALUES (?, ?, ?, ?, NULL, ?) ON CONFLICT (task_id, report_id) DO NOTHING",
            taskId.bytes(), id.bytes(), flip(reportTime), encodedReport.toByteArray(),
            System.currentTimeMillis()) > 0);
    }

    @Override
    public Optional<ByteString> clientReport(org.priodp.aggregator.dap.ReportId id) {
      return sql(conn -> {
        try (PreparedStatement p = conn.prepareStatement("SELECT report FROM client_reports"
            + " WHERE task_id = ? AND report_id = ?")) {
          p.setBytes(1, taskId.bytes());
          p.setBytes(2, id.bytes());
          try (ResultSet rs = p.executeQuery()) {
            return rs.next() ? Optional.of(bytes(rs, 1)) : Optional.empty();
          }
        }
      });
    }

    // --- The Leader's collection jobs (issue 17, collection part) ---

    @Override
    public Optional<CollectionJobRecord> collectionJob(
        org.priodp.aggregator.dap.CollectionJobId jobId) {
      return sql(conn -> readCollectionJob(conn, taskId, jobId));
    }

    @Override
    public List<CollectionJobRecord> collectionJobs(
        java.util.Set<CollectionJobRecord.State> states) {
      return sql(conn -> readCollectionJobs(conn, taskId, states));
    }

    @Override
    public void insertCollectionJob(CollectionJobRecord job) {
      if (!job.taskId().equals(taskId)) {
        throw new IllegalArgumentException("collection job of another task");
      }
      sql(conn -> insertCollectionJobRow(conn, job));
    }

    @Override
    public boolean setCollectionJobBatch(org.priodp.aggregator.dap.CollectionJobId jobId,
        BatchIdentifier batch, Instant now) {
      return sql(conn -> update(conn, "UPDATE collection_jobs SET"
            + " batch_identifier = ?, updated_at_ms = ? WHERE task_id = ? AND job_id = ?",
            batch.bytes(), now.toEpochMilli(), taskId.bytes(), jobId.bytes()) > 0);
    }

    @Override
    public boolean clientReportsOutstanding(long fromInclusive, long toExclusive) {
      return sql(conn -> outstanding(conn, taskId, fromInclusive, toExclusive));
    }

    @Override
    public boolean leaderAggregationActive(BatchIdentifier batch) {
      return sql(conn -> exists(conn, "SELECT 1 FROM leader_aggregation_jobs"
            + " WHERE task_id = ? AND batch_identifier = ? AND state = ? LIMIT 1",
            taskId.bytes(), batch.bytes(), "active"));
    }

    @Override
    public boolean setCollectionJobState(org.priodp.aggregator.dap.CollectionJobId jobId,
        CollectionJobRecord.State state, Instant now) {
      return sql(conn -> update(conn, "UPDATE collection_jobs SET state = ?,"
            + " updated_at_ms = ? WHERE task_id = ? AND job_id = ?",
            state.dbName(), now.toEpochMilli(), taskId.bytes(), jobId.bytes()) > 0);
    }

    // ---- Leader aggregation (issue 17): delegates to the block at the end of the file ----

    @Override
    public Optional<LeaderAggregationJob> createLeaderAggregationJob(
        org.priodp.aggregator.dap.AggregationJobId jobId, int maxReports, int minReports,
        Optional<BatchIdentifier> batch, Instant now) {
      return sql(conn -> createLeaderJob(conn, taskId, jobId, maxReports, minReports, batch,
          now));
    }

    @Override
    public Optional<LeaderBatchFill> openLeaderBatch(long target) {
      return sql(conn -> {
        try (PreparedStatement p = conn.prepareStatement("SELECT batch_identifier,"
            + " SUM(report_count) FROM leader_aggregation_jobs WHERE task_id = ?"
            + " AND batch_identifier IS NOT NULL AND state <> ? GROUP BY batch_identifier"
            + " HAVING SUM(report_count) < ? ORDER BY MIN(created_at_ms) LIMIT 1")) {
          p.setBytes(1, taskId.bytes());
          p.setString(2, LeaderAggregationJob.State.ABANDONED.dbName());
          p.setLong(3, target);
          try (ResultSet rs = p.executeQuery()) {
            return rs.next() ? Optional.of(new LeaderBatchFill(BatchIdentifier.of(rs.getBytes(1)),
                rs.getLong(2))) : Optional.<LeaderBatchFill>empty();
          }
        }
      });
    }

    @Override
    public Optional<LeaderAggregationJob> leaderAggregationJob(
        org.priodp.aggregator.dap.AggregationJobId jobId) {
      return sql(conn -> readLeaderJob(conn, taskId, jobId));
    }

    @Override
    public java.util.Set<org.priodp.aggregator.dap.ReportId> aggregatedAmong(
        java.util.Collection<org.priodp.aggregator.dap.ReportId> ids) {
      return sql(conn -> readAggregatedAmong(conn, taskId, ids));
    }

    @Override
    public void insertAggregatedReports(org.priodp.aggregator.dap.AggregationJobId jobId,
        java.util.Map<org.priodp.aggregator.dap.ReportId, Long> reportTimes) {
      sql(conn -> {
        try (PreparedStatement p = conn.prepareStatement("INSERT INTO aggregated_reports"
            + " (task_id, report_id, job_id, report_time) VALUES (?, ?, ?, ?)")) {
          for (java.util.Map.Entry<org.priodp.aggregator.dap.ReportId, Long> e
              : reportTimes.entrySet()) {
            p.setBytes(1, taskId.bytes());
            p.setBytes(2, e.getKey().bytes());
            p.setBytes(3, jobId.bytes());
            p.setLong(4, flip(e.getValue()));
            p.addBatch();
          }
          if (!reportTimes.isEmpty()) {
            p.executeBatch();
          }
          return null;
        }
      });
    }

    @Override
    public void finishLeaderAggregationJob(org.priodp.aggregator.dap.AggregationJobId jobId,
        Instant now) {
      sql(conn -> {
        try (PreparedStatement p = conn.prepareStatement("UPDATE leader_aggregation_jobs SET"
            + " state = ?, lease_owner = NULL, lease_token = NULL, lease_expires_ms = 0,"
            + " updated_at_ms = ? WHERE task_id = ? AND job_id = ?")) {
          p.setString(1, LeaderAggregationJob.State.FINISHED.dbName());
          p.setLong(2, now.toEpochMilli());
          p.setBytes(3, taskId.bytes());
          p.setBytes(4, jobId.bytes());
          return p.executeUpdate();
        }
      });
    }
  }

  /**
   * Runs one INSERT, UPDATE or DELETE with its parameters bound in order (byte[], Long, Integer
   * or String) and returns the row count.
   */
  private static int update(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      bind(p, params);
      return p.executeUpdate();
    }
  }

  /** Runs one query with its parameters bound in order; returns whether it has a row. */
  private static boolean exists(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      bind(p, params);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** Reads one row of a row mapper's shape. */
  @FunctionalInterface
  private interface Row<T> {
    T read(ResultSet rs) throws SQLException;
  }

  /** Runs one query with its parameters bound in order; returns its first row, if any. */
  private static <T> Optional<T> queryOne(Connection c, String sql, Row<T> row, Object... params)
      throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      bind(p, params);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? Optional.of(row.read(rs)) : Optional.empty();
      }
    }
  }

  private static void bind(PreparedStatement p, Object... params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      Object v = params[i];
      if (v instanceof byte[] b) {
        p.setBytes(i + 1, b);
      } else if (v instanceof Long l) {
        p.setLong(i + 1, l);
      } else if (v instanceof Integer n) {
        p.setInt(i + 1, n);
      } else if (v instanceof String t) {
        p.setString(i + 1, t);
      } else {
        throw new IllegalArgumentException("parameter " + (i + 1) + ": unsupported "
            + (v == null ? "null" : v.getClass().getSimpleName()));
      }
    }
  }

  private static Optional<Long> readCutoff(Connection c, TaskId taskId) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(
        "SELECT cutoff FROM retention_cutoffs WHERE task_id = ?")) {
      p.setBytes(1, taskId.bytes());
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? Optional.of(flip(rs.getLong(1))) : Optional.empty();
      }
    }
  }

  static void insertCollected(Connection c, TaskId taskId, BatchIdentifier batch,
      CollectedInterval range) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO collected_intervals"
        + " (task_id, batch_identifier, range_start, range_end) VALUES (?, ?, ?, ?)")) {
      p.setBytes(1, taskId.bytes());
      p.setBytes(2, batch.bytes());
      p.setLong(3, flip(range.start()));
      p.setLong(4, flip(range.end()));
      p.executeUpdate();
    }
  }

  @Override
  public int schemaVersion() {
    return schemaVersion;
  }

  @Override
  public void putBatchAggregation(BatchAggregation a) {
    run("putBatchAggregation", c -> upsertBatch(c, a));
  }

  private static final String JOB_COLUMNS = "task_id, job_id, request_digest, step, step_digest,"
      + " state, response, error_type, error_detail, created_at_ms";

  private static Optional<AggregationJobRecord> readJob(Connection c, TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT " + JOB_COLUMNS
        + " FROM aggregation_jobs WHERE task_id = ? AND job_id = ?")) {
      p.setBytes(1, taskId.bytes());
      p.setBytes(2, jobId.bytes());
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        byte[] resp = rs.getBytes(7);
        return Optional.of(new AggregationJobRecord(new TaskId(rs.getBytes(1)),
            new org.priodp.aggregator.dap.AggregationJobId(rs.getBytes(2)), bytes(rs, 3),
            rs.getInt(4), bytes(rs, 5), AggregationJobRecord.State.ofDbName(rs.getString(6)),
            Optional.ofNullable(resp).map(ByteString::copyOf),
            Optional.ofNullable(rs.getString(8)), Optional.ofNullable(rs.getString(9)),
            Instant.ofEpochMilli(rs.getLong(10))));
      }
    }
  }

  @Override
  public Optional<AggregationJobRecord> aggregationJob(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId) {
    return run("aggregationJob", c -> readJob(c, taskId, jobId));
  }

  @Override
  public List<HelperHpkeKey> hpkeKeys() {
    return run("hpkeKeys", c -> {
      try (PreparedStatement p = c.prepareStatement("SELECT config_id, kem_id, kdf_id, aead_id,"
          + " public_key, private_key, state, created_at_ms FROM hpke_keys ORDER BY config_id");
          ResultSet rs = p.executeQuery()) {
        List<HelperHpkeKey> out = new ArrayList<>();
        while (rs.next()) {
          org.priodp.aggregator.dap.HpkeConfig config = new org.priodp.aggregator.dap.HpkeConfig(
              new org.priodp.aggregator.dap.HpkeConfigId(rs.getInt(1)),
              org.priodp.aggregator.hpke.HpkeKemId.fromCode(rs.getInt(2)),
              org.priodp.aggregator.hpke.HpkeKdfId.fromCode(rs.getInt(3)),
              org.priodp.aggregator.hpke.HpkeAeadId.fromCode(rs.getInt(4)), rs.getBytes(5));
          out.add(new HelperHpkeKey(config, bytes(rs, 6),
              HelperHpkeKey.State.ofDbName(rs.getString(7)), Instant.ofEpochMilli(rs.getLong(8))));
        }
        return out;
      }
    });
  }

  @Override
  public boolean insertHpkeKey(HelperHpkeKey k) {
    return run("insertHpkeKey", c -> {
      return update(c, "INSERT INTO hpke_keys (config_id, kem_id,"
          + " kdf_id, aead_id, public_key, private_key, state, created_at_ms)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
          k.config().id().value(), k.config().kemId(), k.config().kdfId(),
          k.config().aeadId(), k.config().publicKey().toByteArray(),
          k.privateKey().toByteArray(), k.state().dbName(), k.createdAt().toEpochMilli()) > 0;
    });
  }

  @Override
  public boolean setHpkeKeyState(int configId, HelperHpkeKey.State state) {
    return run("setHpkeKeyState", c -> {
      try (PreparedStatement p = c.prepareStatement(
          "UPDATE hpke_keys SET state = ? WHERE config_id = ?")) {
        p.setString(1, state.dbName());
        p.setInt(2, configId);
        return p.executeUpdate() > 0;
      }
    });
  }

  private static int upsertBatch(Connection c, BatchAggregation a) throws SQLException {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO batch_aggregations"
          + " (task_id, batch_identifier, aggregation_parameter, aggregate_share, report_count, checksum)"
          + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (task_id, batch_identifier) DO UPDATE SET"
          + " aggregation_parameter = excluded.aggregation_parameter,"
          + " aggregate_share = excluded.aggregate_share, report_count = excluded.report_count,"
          + " checksum = excluded.checksum")) {
        p.setBytes(1, a.taskId().bytes());
        p.setBytes(2, a.batch().bytes());
        p.setBytes(3, a.aggregationParameter().toByteArray());
        p.setBytes(4, a.aggregateShare().toByteArray());
        p.setLong(5, a.reportCount());
        p.setBytes(6, a.checksum().toByteArray());
        return p.executeUpdate();
      }
  }

  private static final String BATCH_COLUMNS =
      "task_id, batch_identifier, aggregation_parameter, aggregate_share, report_count, checksum";

  private static BatchAggregation batchRow(ResultSet rs) throws SQLException {
    return new BatchAggregation(new TaskId(rs.getBytes(1)), BatchIdentifier.of(rs.getBytes(2)),
        bytes(rs, 3), bytes(rs, 4), rs.getLong(5), bytes(rs, 6));
  }

  @Override
  public Optional<BatchAggregation> batchAggregation(TaskId taskId, BatchIdentifier batch) {
    return run("batchAggregation", c -> readBatch(c, taskId, batch));
  }

  private static Optional<BatchAggregation> readBatch(Connection c, TaskId taskId,
      BatchIdentifier batch) throws SQLException {
    return queryOne(c, "SELECT " + BATCH_COLUMNS
        + " FROM batch_aggregations WHERE task_id = ? AND batch_identifier = ?",
        JdbcAggregateShareStore::batchRow, taskId.bytes(), batch.bytes());
  }

  @Override
  public List<BatchAggregation> batchAggregations(TaskId taskId, BatchIdentifier fromInclusive,
      BatchIdentifier toExclusive) {
    return run("batchAggregations", c -> readBatches(c, taskId, fromInclusive, toExclusive));
  }

  private static List<BatchAggregation> readBatches(Connection c, TaskId taskId,
      BatchIdentifier fromInclusive, BatchIdentifier toExclusive) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT " + BATCH_COLUMNS
        + " FROM batch_aggregations WHERE task_id = ? AND batch_identifier >= ?"
        + " AND batch_identifier < ? ORDER BY batch_identifier")) {
      p.setBytes(1, taskId.bytes());
      p.setBytes(2, fromInclusive.bytes());
      p.setBytes(3, toExclusive.bytes());
      List<BatchAggregation> out = new ArrayList<>();
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(batchRow(rs));
        }
      }
      return out;
    }
  }

  private static final String NOISED_COLUMNS = "task_id, batch_identifier, aggregation_parameter,"
      + " report_count, checksum, request_digest, noised_share, created_at_ms";

  private static Optional<NoisedAggregateShare> readNoised(Connection c, TaskId taskId,
      BatchIdentifier batch) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT " + NOISED_COLUMNS
        + " FROM noised_aggregate_shares WHERE task_id = ? AND batch_identifier = ?")) {
      p.setBytes(1, taskId.bytes());
      p.setBytes(2, batch.bytes());
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(new NoisedAggregateShare(new TaskId(rs.getBytes(1)),
            BatchIdentifier.of(rs.getBytes(2)), bytes(rs, 3), rs.getLong(4), bytes(rs, 5),
            bytes(rs, 6), bytes(rs, 7), Instant.ofEpochMilli(rs.getLong(8))));
      }
    }
  }

  private static void insertNoised(Connection c, NoisedAggregateShare n) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO noised_aggregate_shares ("
        + NOISED_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      p.setBytes(1, n.taskId().bytes());
      p.setBytes(2, n.batch().bytes());
      p.setBytes(3, n.aggregationParameter().toByteArray());
      p.setLong(4, n.reportCount());
      p.setBytes(5, n.checksum().toByteArray());
      p.setBytes(6, n.requestDigest().toByteArray());
      p.setBytes(7, n.noisedShare().toByteArray());
      p.setLong(8, n.createdAt().toEpochMilli());
      p.executeUpdate();
    }
  }

  @Override
  public Optional<NoisedAggregateShare> noisedShare(TaskId taskId, BatchIdentifier batch) {
    return run("noisedShare", c -> readNoised(c, taskId, batch));
  }

  @Override
  public List<CollectedInterval> collectedIntervals(TaskId taskId) {
    return run("collectedIntervals", c -> readCollected(c, taskId));
  }

  private static List<CollectedInterval> readCollected(Connection c, TaskId taskId)
      throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT range_start, range_end"
        + " FROM collected_intervals WHERE task_id = ? ORDER BY range_start")) {
      p.setBytes(1, taskId.bytes());
      List<CollectedInterval> out = new ArrayList<>();
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(new CollectedInterval(flip(rs.getLong(1)), flip(rs.getLong(2))));
        }
      }
      return out;
    }
  }

  private static final String RELEASED_COLUMNS =
      "task_id, batch_identifier, request_digest, aggregate_share, created_at_ms";

  private static Optional<ReleasedAggregateShare> readReleased(Connection c, TaskId taskId,
      BatchIdentifier batch) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT " + RELEASED_COLUMNS
        + " FROM released_aggregate_shares WHERE task_id = ? AND batch_identifier = ?")) {
      p.setBytes(1, taskId.bytes());
      p.setBytes(2, batch.bytes());
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(new ReleasedAggregateShare(new TaskId(rs.getBytes(1)),
            BatchIdentifier.of(rs.getBytes(2)), bytes(rs, 3), bytes(rs, 4),
            Instant.ofEpochMilli(rs.getLong(5))));
      }
    }
  }

  @Override
  public ReleasedAggregateShare putReleasedShareIfAbsent(ReleasedAggregateShare r) {
    return run("putReleasedShareIfAbsent", c -> {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO released_aggregate_shares ("
          + RELEASED_COLUMNS + ") VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
        p.setBytes(1, r.taskId().bytes());
        p.setBytes(2, r.batch().bytes());
        p.setBytes(3, r.requestDigest().toByteArray());
        p.setBytes(4, r.aggregateShare().toByteArray());
        p.setLong(5, r.createdAt().toEpochMilli());
        p.executeUpdate();
      }
      return readReleased(c, r.taskId(), r.batch()).orElseThrow(() ->
          new SQLException("released share vanished after insert"));
    });
  }

  @Override
  public Optional<ReleasedAggregateShare> releasedShare(TaskId taskId, BatchIdentifier batch) {
    return run("releasedShare", c -> readReleased(c, taskId, batch));
  }

  private static final String RESOURCE_COLUMNS =
      "task_id, share_id, batch_identifier, request_digest, created_at_ms";

  private static Optional<AggregateShareResource> readResource(Connection c, String where,
      byte[] taskId, byte[] key) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT " + RESOURCE_COLUMNS
        + " FROM aggregate_share_resources WHERE task_id = ? AND " + where + " = ?")) {
      p.setBytes(1, taskId);
      p.setBytes(2, key);
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(new AggregateShareResource(new TaskId(rs.getBytes(1)),
            new AggregateShareId(rs.getBytes(2)), BatchIdentifier.of(rs.getBytes(3)),
            bytes(rs, 4), Instant.ofEpochMilli(rs.getLong(5))));
      }
    }
  }

  @Override
  public AggregateShareResource createResourceIfAbsent(AggregateShareResource r) {
    return run("createResourceIfAbsent", c -> {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO aggregate_share_resources ("
          + RESOURCE_COLUMNS + ") VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
        p.setBytes(1, r.taskId().bytes());
        p.setBytes(2, r.id().bytes());
        p.setBytes(3, r.batch().bytes());
        p.setBytes(4, r.requestDigest().toByteArray());
        p.setLong(5, r.createdAt().toEpochMilli());
        p.executeUpdate();
      }
      return readResource(c, "request_digest", r.taskId().bytes(), r.requestDigest().toByteArray())
          .orElseThrow(() -> new SQLException("aggregate share id " + r.id().toBase64Url()
              + " is already used by a different request"));
    });
  }

  @Override
  public Optional<AggregateShareResource> resource(TaskId taskId, AggregateShareId id) {
    return run("resource", c -> readResource(c, "share_id", taskId.bytes(), id.bytes()));
  }

  @Override
  public boolean deleteResource(TaskId taskId, AggregateShareId id) {
    return run("deleteResource", c -> {
      try (PreparedStatement p = c.prepareStatement(
          "DELETE FROM aggregate_share_resources WHERE task_id = ? AND share_id = ?")) {
        p.setBytes(1, taskId.bytes());
        p.setBytes(2, id.bytes());
        return p.executeUpdate() > 0;
      }
    });
  }

  @Override
  public void checkReady() {
    // A pooled PostgreSQL connection may have died with the server (a restart, a cut network);
    // the pool evicts it when it fails, so one more try tells whether the database answers now.
    StoreException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        run("checkReady", c -> {
          try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            return rs.next();
          }
        });
        return;
      } catch (StoreException e) {
        last = e;
        if (shared != null) {
          break;
        }
      }
    }
    throw last;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    lock.lock();
    try {
      closed = true;
      if (shared != null) {
        shared.close();
      }
      if (pool != null) {
        pool.close();
      }
    } catch (SQLException e) {
      throw new StoreException("closing " + describe(url) + " failed", e);
    } finally {
      lock.unlock();
    }
  }

  // --- The Leader's collection jobs (issue 17, collection part) ---

  private static final String COLLECTION_JOB_COLUMNS = "task_id, job_id, request,"
      + " batch_identifier, state, response, error_type, error_detail, created_at_ms,"
      + " updated_at_ms, lease_owner, lease_token, lease_expires_ms, lease_attempts";
  private static final int MAX_ERROR_DETAIL = 1024;

  private static CollectionJobRecord collectionJobRow(ResultSet rs) throws SQLException {
    byte[] resp = rs.getBytes(6);
    return new CollectionJobRecord(new TaskId(rs.getBytes(1)),
        new org.priodp.aggregator.dap.CollectionJobId(rs.getBytes(2)), bytes(rs, 3),
        BatchIdentifier.of(rs.getBytes(4)), CollectionJobRecord.State.ofDbName(rs.getString(5)),
        Optional.ofNullable(resp).map(ByteString::copyOf), Optional.ofNullable(rs.getString(7)),
        Optional.ofNullable(rs.getString(8)), Instant.ofEpochMilli(rs.getLong(9)),
        Instant.ofEpochMilli(rs.getLong(10)));
  }

  private static Optional<CollectionJobRecord> readCollectionJob(Connection c, TaskId taskId,
      org.priodp.aggregator.dap.CollectionJobId jobId) throws SQLException {
    return queryOne(c, "SELECT " + COLLECTION_JOB_COLUMNS
        + " FROM collection_jobs WHERE task_id = ? AND job_id = ?",
        JdbcAggregateShareStore::collectionJobRow, taskId.bytes(), jobId.bytes());
  }

  private static List<CollectionJobRecord> readCollectionJobs(Connection c, TaskId taskId,
      java.util.Set<CollectionJobRecord.State> states) throws SQLException {
    List<CollectionJobRecord> out = new ArrayList<>();
    if (states.isEmpty()) {
      return out;
    }
    String marks = String.join(", ", java.util.Collections.nCopies(states.size(), "?"));
    try (PreparedStatement p = c.prepareStatement("SELECT " + COLLECTION_JOB_COLUMNS
        + " FROM collection_jobs WHERE task_id = ? AND state IN (" + marks + ")"
        + " ORDER BY created_at_ms, job_id")) {
      p.setBytes(1, taskId.bytes());
      int k = 2;
      for (CollectionJobRecord.State st : new java.util.TreeSet<>(states)) {
        p.setString(k++, st.dbName());
      }
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(collectionJobRow(rs));
        }
      }
    }
    return out;
  }

  private static int insertCollectionJobRow(Connection c, CollectionJobRecord j)
      throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO collection_jobs ("
        + COLLECTION_JOB_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 0, 0)")) {
      p.setBytes(1, j.taskId().bytes());
      p.setBytes(2, j.jobId().bytes());
      p.setBytes(3, j.request().toByteArray());
      p.setBytes(4, j.batch().bytes());
      p.setString(5, j.state().dbName());
      p.setBytes(6, j.response().map(ByteString::toByteArray).orElse(null));
      p.setString(7, j.errorType().orElse(null));
      p.setString(8, j.errorDetail().map(JdbcAggregateShareStore::detail).orElse(null));
      p.setLong(9, j.createdAt().toEpochMilli());
      p.setLong(10, j.updatedAt().toEpochMilli());
      return p.executeUpdate();
    }
  }

  private static String detail(String d) {
    return d.length() <= MAX_ERROR_DETAIL ? d : d.substring(0, MAX_ERROR_DETAIL);
  }

  /** Runs {@code work} in one plain transaction (SQLite: BEGIN IMMEDIATE, the write lock). */
  private <T> T transaction(String what, SqlWork<T> work) {
    return run(what, c -> {
      boolean auto = c.getAutoCommit();
      c.setAutoCommit(false);
      boolean committed = false;
      try {
        T result = work.run(c);
        c.commit();
        committed = true;
        return result;
      } finally {
        if (!committed) {
          try {
            c.rollback();
          } catch (SQLException ignored) {
            // the connection is broken; the work's failure stands
          }
        }
        c.setAutoCommit(auto);
      }
    });
  }

  @Override
  public Optional<CollectionJobRecord> collectionJob(TaskId taskId,
      org.priodp.aggregator.dap.CollectionJobId jobId) {
    return run("collectionJob", c -> readCollectionJob(c, taskId, jobId));
  }

  @Override
  public boolean deleteCollectionJob(TaskId taskId,
      org.priodp.aggregator.dap.CollectionJobId jobId, Instant now) {
    return run("deleteCollectionJob", c -> {
      return update(c, "UPDATE collection_jobs SET state = ?,"
          + " updated_at_ms = ? WHERE task_id = ? AND job_id = ? AND state <> ?",
          CollectionJobRecord.State.DELETED.dbName(), now.toEpochMilli(), taskId.bytes(),
          jobId.bytes(), CollectionJobRecord.State.DELETED.dbName()) > 0;
    });
  }

  @Override
  public Optional<CollectionJobLease> leaseCollectionJob(TaskId taskId, String owner,
      Instant now, java.time.Duration leaseFor) {
    Objects.requireNonNull(owner, "owner");
    byte[] token = new byte[16];
    LEASE_TOKENS.nextBytes(token);
    long expires = now.plus(leaseFor).toEpochMilli();
    return transaction("leaseCollectionJob", c -> {
      byte[] jobId;
      try (PreparedStatement p = c.prepareStatement("SELECT job_id FROM collection_jobs"
          + " WHERE task_id = ? AND state = ? AND lease_expires_ms <= ?"
          + " ORDER BY lease_expires_ms, created_at_ms LIMIT 1"
          + (dialect == SqlDialect.POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : ""))) {
        p.setBytes(1, taskId.bytes());
        p.setString(2, CollectionJobRecord.State.PENDING.dbName());
        p.setLong(3, now.toEpochMilli());
        try (ResultSet rs = p.executeQuery()) {
          if (!rs.next()) {
            return Optional.<CollectionJobLease>empty();
          }
          jobId = rs.getBytes(1);
        }
      }
      try (PreparedStatement p = c.prepareStatement("UPDATE collection_jobs SET lease_owner = ?,"
          + " lease_token = ?, lease_expires_ms = ?, lease_attempts = lease_attempts + 1,"
          + " updated_at_ms = ? WHERE task_id = ? AND job_id = ?")) {
        p.setString(1, owner.length() <= 128 ? owner : owner.substring(0, 128));
        p.setBytes(2, token);
        p.setLong(3, expires);
        p.setLong(4, now.toEpochMilli());
        p.setBytes(5, taskId.bytes());
        p.setBytes(6, jobId);
        p.executeUpdate();
      }
      try (PreparedStatement p = c.prepareStatement("SELECT " + COLLECTION_JOB_COLUMNS
          + " FROM collection_jobs WHERE task_id = ? AND job_id = ?")) {
        p.setBytes(1, taskId.bytes());
        p.setBytes(2, jobId);
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
          return Optional.of(new CollectionJobLease(collectionJobRow(rs), rs.getString(11),
              bytes(rs, 12), Instant.ofEpochMilli(rs.getLong(13)), rs.getInt(14)));
        }
      }
    });
  }

  private static final java.security.SecureRandom LEASE_TOKENS = new java.security.SecureRandom();

  @Override
  public boolean finishCollectionJob(CollectionJobLease lease, CollectionJobRecord.State state,
      ByteString response, String errorType, String errorDetail, Instant now) {
    if (state != CollectionJobRecord.State.READY && state != CollectionJobRecord.State.FAILED) {
      throw new IllegalArgumentException("a collection job finishes ready or failed, not " + state);
    }
    if (state == CollectionJobRecord.State.READY && response == null) {
      throw new IllegalArgumentException("a ready collection job has a response");
    }
    return run("finishCollectionJob", c -> {
      try (PreparedStatement p = c.prepareStatement("UPDATE collection_jobs SET state = ?,"
          + " response = ?, error_type = ?, error_detail = ?, lease_owner = NULL,"
          + " lease_token = NULL, lease_expires_ms = 0, updated_at_ms = ?"
          + " WHERE task_id = ? AND job_id = ? AND state = ? AND lease_token = ?")) {
        p.setString(1, state.dbName());
        p.setBytes(2, response == null ? null : response.toByteArray());
        p.setString(3, errorType);
        p.setString(4, errorDetail == null ? null : detail(errorDetail));
        p.setLong(5, now.toEpochMilli());
        p.setBytes(6, lease.job().taskId().bytes());
        p.setBytes(7, lease.job().jobId().bytes());
        p.setString(8, CollectionJobRecord.State.PENDING.dbName());
        p.setBytes(9, lease.token().toByteArray());
        return p.executeUpdate() > 0;
      }
    });
  }

  @Override
  public boolean postponeCollectionJob(CollectionJobLease lease, Instant retryAt, Instant now) {
    return run("postponeCollectionJob", c -> {
      return update(c, "UPDATE collection_jobs SET"
          + " lease_owner = NULL, lease_token = NULL, lease_expires_ms = ?, updated_at_ms = ?"
          + " WHERE task_id = ? AND job_id = ? AND state = ? AND lease_token = ?",
          retryAt.toEpochMilli(), now.toEpochMilli(), lease.job().taskId().bytes(),
          lease.job().jobId().bytes(), CollectionJobRecord.State.PENDING.dbName(),
          lease.token().toByteArray()) > 0;
    });
  }

  @Override
  public boolean clientReportsOutstanding(TaskId taskId, long fromInclusive, long toExclusive) {
    return run("clientReportsOutstanding",
        c -> outstanding(c, taskId, fromInclusive, toExclusive));
  }

  /**
   * Whether the task has, in [fromInclusive, toExclusive) (time_precision units), an unclaimed
   * client report or an active Leader aggregation job whose report times meet the interval.
   */
  private static boolean outstanding(Connection c, TaskId taskId, long fromInclusive,
      long toExclusive) throws SQLException {
    // unclaimed reports of the interval (index client_reports_by_job: task, NULL job, time)
    try (PreparedStatement p = c.prepareStatement("SELECT 1 FROM client_reports"
        + " WHERE task_id = ? AND aggregation_job_id IS NULL AND report_time >= ?"
        + " AND report_time < ? LIMIT 1")) {
      p.setBytes(1, taskId.bytes());
      p.setLong(2, flip(fromInclusive));
      p.setLong(3, flip(toExclusive));
      try (ResultSet rs = p.executeQuery()) {
        if (rs.next()) {
          return true;
        }
      }
    }
    // an active Leader aggregation job whose reports' times [min, max] meet the interval
    return exists(c, "SELECT 1 FROM leader_aggregation_jobs"
        + " WHERE task_id = ? AND state = ? AND min_report_time < ? AND max_report_time >= ?"
        + " LIMIT 1",
        taskId.bytes(), "active", flip(toExclusive), flip(fromInclusive));
  }

  @Override
  public Optional<long[]> leaderBatchReportSpan(TaskId taskId, BatchIdentifier batch) {
    return run("leaderBatchReportSpan", c -> {
      try (PreparedStatement p = c.prepareStatement("SELECT MIN(min_report_time),"
          + " MAX(max_report_time), COUNT(*) FROM leader_aggregation_jobs"
          + " WHERE task_id = ? AND batch_identifier = ? AND state = ?")) {
        p.setBytes(1, taskId.bytes());
        p.setBytes(2, batch.bytes());
        p.setString(3, "finished");
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
          if (rs.getLong(3) == 0) {
            return Optional.<long[]>empty();
          }
          return Optional.of(new long[] {flip(rs.getLong(1)), flip(rs.getLong(2))});
        }
      }
    });
  }

  // --- The Helper's asynchronous aggregate shares (issue 17, collection part) ---

  private static Optional<AggregateShareRequest> readShareRequest(Connection c, TaskId taskId,
      AggregateShareId id) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT task_id, share_id, request, error_type,"
        + " error_detail, created_at_ms FROM aggregate_share_requests"
        + " WHERE task_id = ? AND share_id = ?")) {
      p.setBytes(1, taskId.bytes());
      p.setBytes(2, id.bytes());
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(new AggregateShareRequest(new TaskId(rs.getBytes(1)),
            new AggregateShareId(rs.getBytes(2)), bytes(rs, 3),
            Optional.ofNullable(rs.getString(4)), Optional.ofNullable(rs.getString(5)),
            Instant.ofEpochMilli(rs.getLong(6))));
      }
    }
  }

  @Override
  public AggregateShareRequest putShareRequestIfAbsent(AggregateShareRequest r) {
    return run("putShareRequestIfAbsent", c -> {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO aggregate_share_requests"
          + " (task_id, share_id, request, error_type, error_detail, created_at_ms)"
          + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
        p.setBytes(1, r.taskId().bytes());
        p.setBytes(2, r.id().bytes());
        p.setBytes(3, r.request().toByteArray());
        p.setString(4, r.errorType().orElse(null));
        p.setString(5, r.errorDetail().map(JdbcAggregateShareStore::detail).orElse(null));
        p.setLong(6, r.createdAt().toEpochMilli());
        p.executeUpdate();
      }
      return readShareRequest(c, r.taskId(), r.id()).orElseThrow(() ->
          new SQLException("aggregate share request vanished after insert"));
    });
  }

  @Override
  public Optional<AggregateShareRequest> shareRequest(TaskId taskId, AggregateShareId id) {
    return run("shareRequest", c -> readShareRequest(c, taskId, id));
  }

  @Override
  public boolean failShareRequest(TaskId taskId, AggregateShareId id, String errorType,
      String errorDetail) {
    return run("failShareRequest", c -> {
      try (PreparedStatement p = c.prepareStatement("UPDATE aggregate_share_requests"
          + " SET error_type = ?, error_detail = ? WHERE task_id = ? AND share_id = ?")) {
        p.setString(1, errorType);
        p.setString(2, errorDetail == null ? null : detail(errorDetail));
        p.setBytes(3, taskId.bytes());
        p.setBytes(4, id.bytes());
        return p.executeUpdate() > 0;
      }
    });
  }

  // ---- Leader aggregation (issue 17, the Leader's aggregation driver) ----

  private static final String LEADER_JOB_COLUMNS = "task_id, job_id, state, step,"
      + " min_report_time, max_report_time, report_count, lease_owner, lease_token,"
      + " lease_expires_ms, lease_attempts, error_detail, created_at_ms, batch_identifier";

  private static LeaderAggregationJob leaderJobRow(ResultSet rs) throws SQLException {
    byte[] token = rs.getBytes(9);
    return new LeaderAggregationJob(new TaskId(rs.getBytes(1)),
        new org.priodp.aggregator.dap.AggregationJobId(rs.getBytes(2)),
        LeaderAggregationJob.State.ofDbName(rs.getString(3)), rs.getInt(4),
        flip(rs.getLong(5)), flip(rs.getLong(6)), rs.getInt(7),
        Optional.ofNullable(rs.getString(8)), Optional.ofNullable(token).map(ByteString::copyOf),
        Instant.ofEpochMilli(rs.getLong(10)), rs.getInt(11),
        Optional.ofNullable(rs.getString(12)), Instant.ofEpochMilli(rs.getLong(13)),
        Optional.ofNullable(rs.getBytes(14)).map(BatchIdentifier::of));
  }

  private static Optional<LeaderAggregationJob> readLeaderJob(Connection c, TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId) throws SQLException {
    return queryOne(c, "SELECT " + LEADER_JOB_COLUMNS
        + " FROM leader_aggregation_jobs WHERE task_id = ? AND job_id = ?",
        JdbcAggregateShareStore::leaderJobRow, taskId.bytes(), jobId.bytes());
  }

  private static Optional<LeaderAggregationJob> createLeaderJob(Connection c, TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId, int maxReports, int minReports,
      Optional<BatchIdentifier> batch, Instant now) throws SQLException {
    if (maxReports < 1 || minReports < 1 || minReports > maxReports) {
      throw new IllegalArgumentException("need 1 <= minReports <= maxReports, got " + minReports
          + ", " + maxReports);
    }
    List<byte[]> ids = new ArrayList<>();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    try (PreparedStatement p = c.prepareStatement("SELECT report_id, report_time FROM"
        + " client_reports WHERE task_id = ? AND aggregation_job_id IS NULL"
        + " ORDER BY report_time, report_id LIMIT ?")) {
      p.setBytes(1, taskId.bytes());
      p.setInt(2, maxReports);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getBytes(1));
          long stored = rs.getLong(2); // flipped: signed order is time order
          min = Math.min(min, stored);
          max = Math.max(max, stored);
        }
      }
    }
    if (ids.size() < minReports) {
      return Optional.empty();
    }
    // one set-based statement claims the same rows the SELECT saw (the task transaction keeps
    // them unclaimed in between); a statement per report made PostgreSQL job creation hold the
    // task's lock long enough to stall uploads
    int claimed = update(c, "UPDATE client_reports SET aggregation_job_id = ? WHERE task_id = ?"
        + " AND aggregation_job_id IS NULL AND report_id IN (SELECT report_id FROM client_reports"
        + " WHERE task_id = ? AND aggregation_job_id IS NULL ORDER BY report_time, report_id"
        + " LIMIT ?)", jobId.bytes(), taskId.bytes(), taskId.bytes(), maxReports);
    if (claimed != ids.size()) {
      throw new SQLException("claimed " + claimed + " client reports, selected " + ids.size()
          + "; the task transaction should have kept them unclaimed");
    }
    try (PreparedStatement p = c.prepareStatement("INSERT INTO leader_aggregation_jobs ("
        + LEADER_JOB_COLUMNS + ", updated_at_ms)"
        + " VALUES (?, ?, ?, 0, ?, ?, ?, NULL, NULL, 0, 0, NULL, ?, ?, ?)")) {
      p.setBytes(1, taskId.bytes());
      p.setBytes(2, jobId.bytes());
      p.setString(3, LeaderAggregationJob.State.ACTIVE.dbName());
      p.setLong(4, min);
      p.setLong(5, max);
      p.setInt(6, ids.size());
      p.setLong(7, now.toEpochMilli());
      p.setBytes(8, batch.map(BatchIdentifier::bytes).orElse(null));
      p.setLong(9, now.toEpochMilli());
      p.executeUpdate();
    }
    return readLeaderJob(c, taskId, jobId);
  }

  @Override
  public Optional<LeaderAggregationJob> leaseLeaderAggregationJob(
      java.util.Collection<TaskId> tasks, String owner, ByteString token, Instant now,
      java.time.Duration lease) {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(token, "token");
    if (tasks.isEmpty()) {
      return Optional.empty();
    }
    String placeholders = String.join(", ", java.util.Collections.nCopies(tasks.size(), "?"));
    String select = "SELECT " + LEADER_JOB_COLUMNS + " FROM leader_aggregation_jobs"
        + " WHERE state = ? AND lease_expires_ms <= ? AND task_id IN (" + placeholders + ")"
        + " ORDER BY created_at_ms, job_id LIMIT 1"
        + (dialect == SqlDialect.POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : "");
    try {
      return withConnection(c -> {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false); // SQLite: IMMEDIATE, the first statement takes the write lock
        boolean committed = false;
        try {
          LeaderAggregationJob found;
          try (PreparedStatement p = c.prepareStatement(select)) {
            p.setString(1, LeaderAggregationJob.State.ACTIVE.dbName());
            p.setLong(2, now.toEpochMilli());
            int i = 3;
            for (TaskId t : tasks) {
              p.setBytes(i++, t.bytes());
            }
            try (ResultSet rs = p.executeQuery()) {
              found = rs.next() ? leaderJobRow(rs) : null;
            }
          }
          if (found == null) {
            c.commit();
            committed = true;
            return Optional.<LeaderAggregationJob>empty();
          }
          long expires = now.plus(lease).toEpochMilli();
          try (PreparedStatement p = c.prepareStatement("UPDATE leader_aggregation_jobs SET"
              + " lease_owner = ?, lease_token = ?, lease_expires_ms = ?,"
              + " lease_attempts = lease_attempts + 1, updated_at_ms = ?"
              + " WHERE task_id = ? AND job_id = ?")) {
            p.setString(1, owner);
            p.setBytes(2, token.toByteArray());
            p.setLong(3, expires);
            p.setLong(4, now.toEpochMilli());
            p.setBytes(5, found.taskId().bytes());
            p.setBytes(6, found.jobId().bytes());
            p.executeUpdate();
          }
          c.commit();
          committed = true;
          return Optional.of(new LeaderAggregationJob(found.taskId(), found.jobId(),
              found.state(), found.step(), found.minReportTime(), found.maxReportTime(),
              found.reportCount(), Optional.of(owner), Optional.of(token),
              Instant.ofEpochMilli(expires), found.leaseAttempts() + 1, found.errorDetail(),
              found.createdAt(), found.batch()));
        } finally {
          if (!committed) {
            try {
              c.rollback();
            } catch (SQLException ignored) {
              // broken connection: the pool discards it and the failure stands
            }
          }
          c.setAutoCommit(auto);
        }
      });
    } catch (SQLException e) {
      throw new StoreException("leaseLeaderAggregationJob failed on " + dialect + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public List<LeaderJobReport> leaderJobReports(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId) {
    return run("leaderJobReports", c -> {
      try (PreparedStatement p = c.prepareStatement("SELECT report_id, report_time, report"
          + " FROM client_reports WHERE task_id = ? AND aggregation_job_id = ?"
          + " ORDER BY report_time, report_id")) {
        p.setBytes(1, taskId.bytes());
        p.setBytes(2, jobId.bytes());
        List<LeaderJobReport> out = new ArrayList<>();
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            out.add(new LeaderJobReport(new org.priodp.aggregator.dap.ReportId(rs.getBytes(1)),
                flip(rs.getLong(2)), bytes(rs, 3)));
          }
        }
        return out;
      }
    });
  }

  @Override
  public boolean releaseLeaderAggregationJob(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId, ByteString token, Instant retryAt,
      String detail) {
    return run("releaseLeaderAggregationJob", c -> {
      return update(c, "UPDATE leader_aggregation_jobs SET"
          + " lease_owner = NULL, lease_token = NULL, lease_expires_ms = ?, error_detail = ?,"
          + " updated_at_ms = ? WHERE task_id = ? AND job_id = ? AND state = ?"
          + " AND lease_token = ?",
          retryAt.toEpochMilli(), truncate(detail), System.currentTimeMillis(), taskId.bytes(),
          jobId.bytes(), LeaderAggregationJob.State.ACTIVE.dbName(), token.toByteArray()) > 0;
    });
  }

  @Override
  public boolean abandonLeaderAggregationJob(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId, ByteString token, String detail,
      Instant now) {
    return run("abandonLeaderAggregationJob", c -> {
      return update(c, "UPDATE leader_aggregation_jobs SET"
          + " state = ?, lease_owner = NULL, lease_token = NULL, lease_expires_ms = 0,"
          + " error_detail = ?, updated_at_ms = ? WHERE task_id = ? AND job_id = ?"
          + " AND state = ? AND lease_token = ?",
          LeaderAggregationJob.State.ABANDONED.dbName(), truncate(detail), now.toEpochMilli(),
          taskId.bytes(), jobId.bytes(), LeaderAggregationJob.State.ACTIVE.dbName(),
          token.toByteArray()) > 0;
    });
  }

  @Override
  public Optional<LeaderAggregationJob> leaderAggregationJob(TaskId taskId,
      org.priodp.aggregator.dap.AggregationJobId jobId) {
    return run("leaderAggregationJob", c -> readLeaderJob(c, taskId, jobId));
  }

  private static String truncate(String detail) {
    return detail == null || detail.length() <= 1024 ? detail : detail.substring(0, 1024);
  }

  private static java.util.Set<org.priodp.aggregator.dap.ReportId> readAggregatedAmong(
      Connection c, TaskId taskId, java.util.Collection<org.priodp.aggregator.dap.ReportId> ids)
      throws SQLException {
    java.util.Set<org.priodp.aggregator.dap.ReportId> out = new java.util.HashSet<>();
    List<org.priodp.aggregator.dap.ReportId> all = new ArrayList<>(ids);
    for (int from = 0; from < all.size(); from += 500) {
      List<org.priodp.aggregator.dap.ReportId> chunk =
          all.subList(from, Math.min(all.size(), from + 500));
      try (PreparedStatement p = c.prepareStatement("SELECT report_id FROM aggregated_reports"
          + " WHERE task_id = ? AND report_id IN ("
          + String.join(", ", java.util.Collections.nCopies(chunk.size(), "?")) + ")")) {
        p.setBytes(1, taskId.bytes());
        for (int i = 0; i < chunk.size(); i++) {
          p.setBytes(i + 2, chunk.get(i).bytes());
        }
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            out.add(new org.priodp.aggregator.dap.ReportId(rs.getBytes(1)));
          }
        }
      }
    }
    return out;
  }

  // ---- the demo's progress (issue 17, demo part) ----

  @Override
  public long aggregatedReportCount(TaskId taskId) {
    return run("aggregatedReportCount", c -> {
      try (PreparedStatement p = c.prepareStatement(
          "SELECT COUNT(*) FROM aggregated_reports WHERE task_id = ?")) {
        p.setBytes(1, taskId.bytes());
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    });
  }
}
