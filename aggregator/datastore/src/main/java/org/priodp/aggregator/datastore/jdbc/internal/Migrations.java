package org.priodp.aggregator.datastore.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The forward-only schema migrations of the aggregate-share store and the {@code schema_version}
 * table that records which have run. Each migration runs in one transaction together with its
 * version row, so running {@link #migrate} again is a no-op.
 */
public final class Migrations {
  /**
   * One schema step: its version, statements ({@code ${bytes}} is the binary type) and a data
   * step run after them in the same transaction (or null).
   */
  public record Migration(int version, List<String> statements, DataStep data) {
    /** A migration of statements only. */
    public Migration(int version, List<String> statements) {
      this(version, statements, null);
    }
  }

  /** Rewrites rows in Java where SQL cannot (e.g. decoding DAP structures). */
  @FunctionalInterface
  public interface DataStep {
    /** Runs inside the migration's transaction. */
    void run(Connection c) throws SQLException;
  }

  /** All migrations in order. */
  public static final List<Migration> ALL = List.of(
      new Migration(1, List.of(
          "CREATE TABLE IF NOT EXISTS batch_aggregations ("
              + " task_id ${bytes} NOT NULL,"
              + " batch_identifier ${bytes} NOT NULL,"
              + " aggregation_parameter ${bytes} NOT NULL,"
              + " aggregate_share ${bytes} NOT NULL,"
              + " report_count BIGINT NOT NULL,"
              + " checksum ${bytes} NOT NULL,"
              + " PRIMARY KEY (task_id, batch_identifier))",
          "CREATE TABLE IF NOT EXISTS noised_aggregate_shares ("
              + " task_id ${bytes} NOT NULL,"
              + " batch_identifier ${bytes} NOT NULL,"
              + " aggregation_parameter ${bytes} NOT NULL,"
              + " report_count BIGINT NOT NULL,"
              + " checksum ${bytes} NOT NULL,"
              + " request_digest ${bytes} NOT NULL,"
              + " noised_share ${bytes} NOT NULL,"
              + " created_at_ms BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id, batch_identifier))",
          "CREATE TABLE IF NOT EXISTS aggregate_share_resources ("
              + " task_id ${bytes} NOT NULL,"
              + " share_id ${bytes} NOT NULL,"
              + " batch_identifier ${bytes} NOT NULL,"
              + " request_digest ${bytes} NOT NULL,"
              + " created_at_ms BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id, share_id),"
              + " UNIQUE (task_id, request_digest))")),
      // The encoded AggregateShare (HPKE ciphertext) released for a batch. HPKE sealing is
      // randomized, so the bytes are stored once and every repeat returns them.
      new Migration(2, List.of(
          "CREATE TABLE IF NOT EXISTS released_aggregate_shares ("
              + " task_id ${bytes} NOT NULL,"
              + " batch_identifier ${bytes} NOT NULL,"
              + " request_digest ${bytes} NOT NULL,"
              + " aggregate_share ${bytes} NOT NULL,"
              + " created_at_ms BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id, batch_identifier))")),
      // Version 3: DAP-18 time units and the atomic batchOverlap rule. Each released time-interval
      // batch records the range it covers (time_precision units, stored sign-flipped so that SQL's
      // signed order is the unsigned order); the overlap check and the insert run in one
      // transaction serialized per task. Buckets written by version 2 (keyed by an interval in
      // seconds whose duration was the time precision) are rekeyed to {start, duration: 1}.
      new Migration(3, List.of(
          "CREATE TABLE IF NOT EXISTS collected_intervals ("
              + " task_id ${bytes} NOT NULL,"
              + " batch_identifier ${bytes} NOT NULL,"
              + " range_start BIGINT NOT NULL,"
              + " range_end BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id, batch_identifier))",
          "CREATE INDEX IF NOT EXISTS collected_intervals_by_start"
              + " ON collected_intervals (task_id, range_start)"),
          LegacyTimeUnits::migrate),
      // Version 4: the Helper's aggregation (DAP-18 "Helper Initialization", "Batch Buckets",
      // "HPKE Configuration Request"). hpke_keys: this aggregator's HPKE key pairs (state active
      // or retired; a retired key still decrypts). aggregation_jobs: each job's request digest,
      // step and stored response, so a repeat gets identical bytes. aggregated_reports: the
      // report IDs committed to batch buckets, for replay checks.
      new Migration(4, List.of(
          "CREATE TABLE IF NOT EXISTS hpke_keys ("
              + " config_id INTEGER PRIMARY KEY,"
              + " kem_id INTEGER NOT NULL,"
              + " kdf_id INTEGER NOT NULL,"
              + " aead_id INTEGER NOT NULL,"
              + " public_key ${bytes} NOT NULL,"
              + " private_key ${bytes} NOT NULL,"
              + " state VARCHAR(16) NOT NULL,"
              + " created_at_ms BIGINT NOT NULL)",
          "CREATE TABLE IF NOT EXISTS aggregation_jobs ("
              + " task_id ${bytes} NOT NULL,"
              + " job_id ${bytes} NOT NULL,"
              + " request_digest ${bytes} NOT NULL,"
              + " step INTEGER NOT NULL,"
              + " step_digest ${bytes} NOT NULL,"
              + " state VARCHAR(16) NOT NULL,"
              + " response ${bytes},"
              + " error_type VARCHAR(64),"
              + " error_detail VARCHAR(1024),"
              + " created_at_ms BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id, job_id))",
          "CREATE TABLE IF NOT EXISTS aggregated_reports ("
              + " task_id ${bytes} NOT NULL,"
              + " report_id ${bytes} NOT NULL,"
              + " job_id ${bytes} NOT NULL,"
              + " PRIMARY KEY (task_id, report_id))")),
      // Version 5: retention (DAP-18 "Reducing Storage Requirements"). aggregated_reports gains
      // the report's time (time_precision units, sign-flipped like collected_intervals; NULL for
      // rows written before, which are never collected). retention_cutoffs: per task, the report
      // time (sign-flipped) below which report IDs may have been deleted; a report older than it
      // is rejected with report_dropped, so a collected ID can never be replayed.
      new Migration(5, List.of(
          "ALTER TABLE aggregated_reports ADD COLUMN report_time BIGINT",
          "CREATE INDEX IF NOT EXISTS aggregated_reports_by_time"
              + " ON aggregated_reports (task_id, report_time)",
          "CREATE TABLE IF NOT EXISTS retention_cutoffs ("
              + " task_id ${bytes} NOT NULL,"
              + " cutoff BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id))")),
      // Version 6: the Leader (DAP-18 "Uploading Reports", "Leader Initialization", "Collecting
      // Results", "Distributed Systems and Synchronization Concerns"). Times are time_precision
      // units stored sign-flipped (Long.MIN_VALUE ^ t) so that SQL's signed order is unsigned.
      // client_reports: each uploaded report (the encoded Report as received), claimed by at
      // most one Leader aggregation job (aggregation_job_id NULL until then).
      // leader_aggregation_jobs: the Leader's jobs; a job is leased (lease_owner, lease_token,
      // lease_expires_ms in epoch ms; 0 means free) by one driver at a time, on PostgreSQL with
      // SELECT ... FOR UPDATE SKIP LOCKED, and taken over when the lease expires.
      // collection_jobs: the Collector's jobs, id derived from the request, with the batch they
      // select, their state, the encoded CollectionJobResp once ready, and a lease like above.
      new Migration(6, List.of(
          "CREATE TABLE IF NOT EXISTS client_reports ("
              + " task_id ${bytes} NOT NULL,"
              + " report_id ${bytes} NOT NULL,"
              + " report_time BIGINT NOT NULL,"
              + " report ${bytes} NOT NULL,"
              + " aggregation_job_id ${bytes},"
              + " created_at_ms BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id, report_id))",
          "CREATE INDEX IF NOT EXISTS client_reports_by_job"
              + " ON client_reports (task_id, aggregation_job_id, report_time)",
          "CREATE TABLE IF NOT EXISTS leader_aggregation_jobs ("
              + " task_id ${bytes} NOT NULL,"
              + " job_id ${bytes} NOT NULL,"
              + " state VARCHAR(16) NOT NULL,"
              + " step INTEGER NOT NULL,"
              + " batch_identifier ${bytes},"
              + " min_report_time BIGINT NOT NULL,"
              + " max_report_time BIGINT NOT NULL,"
              + " report_count INTEGER NOT NULL,"
              + " lease_owner VARCHAR(128),"
              + " lease_token ${bytes},"
              + " lease_expires_ms BIGINT NOT NULL,"
              + " lease_attempts INTEGER NOT NULL,"
              + " error_detail VARCHAR(1024),"
              + " created_at_ms BIGINT NOT NULL,"
              + " updated_at_ms BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id, job_id))",
          "CREATE INDEX IF NOT EXISTS leader_aggregation_jobs_by_lease"
              + " ON leader_aggregation_jobs (state, lease_expires_ms)",
          "CREATE TABLE IF NOT EXISTS collection_jobs ("
              + " task_id ${bytes} NOT NULL,"
              + " job_id ${bytes} NOT NULL,"
              + " request ${bytes} NOT NULL,"
              + " batch_identifier ${bytes} NOT NULL,"
              + " state VARCHAR(16) NOT NULL,"
              + " response ${bytes},"
              + " error_type VARCHAR(64),"
              + " error_detail VARCHAR(1024),"
              + " lease_owner VARCHAR(128),"
              + " lease_token ${bytes},"
              + " lease_expires_ms BIGINT NOT NULL,"
              + " lease_attempts INTEGER NOT NULL,"
              + " created_at_ms BIGINT NOT NULL,"
              + " updated_at_ms BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id, job_id))",
          "CREATE INDEX IF NOT EXISTS collection_jobs_by_lease"
              + " ON collection_jobs (state, lease_expires_ms)")),
      // Version 7: the Helper's asynchronous aggregate shares (DAP-18 "Asynchronous Request
      // Handling"): the AggregateShareReq of an aggregate-share resource that is answered later,
      // so that any process can (re)start its release from a GET, and the DAP error it failed
      // with, if it did. The noised and released shares stay where they are.
      new Migration(7, List.of(
          "CREATE TABLE IF NOT EXISTS aggregate_share_requests ("
              + " task_id ${bytes} NOT NULL,"
              + " share_id ${bytes} NOT NULL,"
              + " request ${bytes} NOT NULL,"
              + " error_type VARCHAR(64),"
              + " error_detail VARCHAR(1024),"
              + " created_at_ms BIGINT NOT NULL,"
              + " PRIMARY KEY (task_id, share_id))")));

  private Migrations() {
  }

  /** Returns the latest version known to this code. */
  public static int latest() {
    return ALL.get(ALL.size() - 1).version();
  }

  /** Creates schema_version if needed, applies every missing migration and returns the version. */
  public static int migrate(Connection c, SqlDialect dialect, List<Migration> migrations)
      throws SQLException {
    boolean auto = c.getAutoCommit();
    if (dialect == SqlDialect.POSTGRESQL) {
      // several replicas may start together: one migrates, the others wait and find it done
      try (Statement s = c.createStatement()) {
        s.executeQuery("SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")").close();
      }
    }
    try {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS schema_version ("
            + " version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)");
      }
      c.commit();
      int current = current(c);
      int known = migrations.isEmpty() ? 0 : migrations.get(migrations.size() - 1).version();
      if (current > known) {
        // a newer prio-dp migrated this database: its tables may mean things this code does not
        // know (e.g. a once-only rule), so an older version must not run on it
        throw new SQLException("the database is at schema version " + current + ", newer than"
            + " this prio-dp knows (" + known + "); a newer version migrated it and there is no"
            + " downgrade: run that version or restore a backup");
      }
      for (Migration m : migrations) {
        if (m.version() <= current) {
          continue;
        }
        try (Statement s = c.createStatement()) {
          for (String sql : m.statements()) {
            s.execute(dialect.render(sql));
          }
        }
        if (m.data() != null) {
          m.data().run(c);
        }
        try (PreparedStatement p = c.prepareStatement(
            "INSERT INTO schema_version (version, applied_at_ms) VALUES (?, ?)")) {
          p.setInt(1, m.version());
          p.setLong(2, System.currentTimeMillis());
          p.executeUpdate();
        }
        c.commit();
        current = m.version();
      }
      c.commit();
      return current;
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(auto);
      if (dialect == SqlDialect.POSTGRESQL) {
        try (Statement s = c.createStatement()) {
          s.executeQuery("SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")").close();
        }
      }
    }
  }

  /** The PostgreSQL session advisory lock key held while migrating ("priodp-m"). */
  static final long MIGRATION_LOCK = 0x7072696f64702d6dL;

  /** Returns the highest applied version, or 0 if none. */
  public static int current(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT MAX(version) FROM schema_version")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
