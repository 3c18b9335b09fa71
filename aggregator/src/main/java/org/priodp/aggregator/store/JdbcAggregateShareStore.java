package org.priodp.aggregator.store;

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
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.store.internal.Migrations;
import org.priodp.aggregator.store.internal.SqlDialect;

/**
 * The {@link AggregateShareStore} over plain JDBC, with the same SQL for SQLite (embedded default:
 * WAL journal, synchronous=FULL, one connection whose use is serialized) and PostgreSQL (one
 * connection per operation from the JDBC URL). The schema is migrated on open.
 */
public final class JdbcAggregateShareStore implements AggregateShareStore {
  private final SqlDialect dialect;
  private final String url;
  private final Properties properties;
  private final Connection shared;
  private final ReentrantLock lock = new ReentrantLock();
  private final int schemaVersion;
  private volatile boolean closed;

  private JdbcAggregateShareStore(String url, Properties properties) {
    this.dialect = SqlDialect.ofUrl(url);
    this.url = url;
    this.properties = properties;
    try {
      this.shared = dialect == SqlDialect.SQLITE ? openSqliteConnection() : null;
      this.schemaVersion = withConnection(c -> Migrations.migrate(c, dialect, Migrations.ALL));
    } catch (SQLException e) {
      throw new StoreException("cannot open store " + describe(), e);
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
    return new JdbcAggregateShareStore(jdbcUrl, (Properties) properties.clone());
  }

  private String describe() {
    return dialect + " " + url.replaceAll("password=[^&]*", "password=***");
  }

  private Connection openSqliteConnection() throws SQLException {
    Connection c = DriverManager.getConnection(url, properties);
    try (Statement s = c.createStatement()) {
      s.execute("PRAGMA busy_timeout = 10000");
      s.execute("PRAGMA journal_mode = WAL");
      s.execute("PRAGMA synchronous = FULL");
      s.execute("PRAGMA foreign_keys = ON");
    }
    return c;
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
    try (Connection c = DriverManager.getConnection(url, properties)) {
      return work.run(c);
    }
  }

  private <T> T run(String what, SqlWork<T> work) {
    try {
      return withConnection(work);
    } catch (SQLException e) {
      throw new StoreException(what + " failed on " + dialect, e);
    }
  }

  @Override
  public int schemaVersion() {
    return schemaVersion;
  }

  @Override
  public void putBatchAggregation(BatchAggregation a) {
    run("putBatchAggregation", c -> {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO batch_aggregations"
          + " (task_id, batch_identifier, aggregation_parameter, aggregate_share, report_count, checksum)"
          + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (task_id, batch_identifier) DO UPDATE SET"
          + " aggregation_parameter = excluded.aggregation_parameter,"
          + " aggregate_share = excluded.aggregate_share, report_count = excluded.report_count,"
          + " checksum = excluded.checksum")) {
        p.setBytes(1, a.taskId().bytes());
        p.setBytes(2, a.batchIdentifier());
        p.setBytes(3, a.aggregationParameter());
        p.setBytes(4, a.aggregateShare());
        p.setLong(5, a.reportCount());
        p.setBytes(6, a.checksum());
        return p.executeUpdate();
      }
    });
  }

  private static final String BATCH_COLUMNS =
      "task_id, batch_identifier, aggregation_parameter, aggregate_share, report_count, checksum";

  private static BatchAggregation batchRow(ResultSet rs) throws SQLException {
    return new BatchAggregation(new TaskId(rs.getBytes(1)), rs.getBytes(2), rs.getBytes(3),
        rs.getBytes(4), rs.getLong(5), rs.getBytes(6));
  }

  @Override
  public Optional<BatchAggregation> batchAggregation(TaskId taskId, byte[] batchIdentifier) {
    return run("batchAggregation", c -> {
      try (PreparedStatement p = c.prepareStatement("SELECT " + BATCH_COLUMNS
          + " FROM batch_aggregations WHERE task_id = ? AND batch_identifier = ?")) {
        p.setBytes(1, taskId.bytes());
        p.setBytes(2, batchIdentifier);
        try (ResultSet rs = p.executeQuery()) {
          return rs.next() ? Optional.of(batchRow(rs)) : Optional.empty();
        }
      }
    });
  }

  @Override
  public List<BatchAggregation> batchAggregations(TaskId taskId, byte[] fromInclusive,
      byte[] toExclusive) {
    return run("batchAggregations", c -> {
      try (PreparedStatement p = c.prepareStatement("SELECT " + BATCH_COLUMNS
          + " FROM batch_aggregations WHERE task_id = ? AND batch_identifier >= ?"
          + " AND batch_identifier < ? ORDER BY batch_identifier")) {
        p.setBytes(1, taskId.bytes());
        p.setBytes(2, fromInclusive);
        p.setBytes(3, toExclusive);
        List<BatchAggregation> out = new ArrayList<>();
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            out.add(batchRow(rs));
          }
        }
        return out;
      }
    });
  }

  private static final String NOISED_COLUMNS = "task_id, batch_identifier, aggregation_parameter,"
      + " report_count, checksum, request_digest, noised_share, created_at_ms";

  private static Optional<NoisedAggregateShare> readNoised(Connection c, TaskId taskId,
      byte[] batchIdentifier) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT " + NOISED_COLUMNS
        + " FROM noised_aggregate_shares WHERE task_id = ? AND batch_identifier = ?")) {
      p.setBytes(1, taskId.bytes());
      p.setBytes(2, batchIdentifier);
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(new NoisedAggregateShare(new TaskId(rs.getBytes(1)), rs.getBytes(2),
            rs.getBytes(3), rs.getLong(4), rs.getBytes(5), rs.getBytes(6), rs.getBytes(7),
            Instant.ofEpochMilli(rs.getLong(8))));
      }
    }
  }

  @Override
  public NoisedAggregateShare putNoisedShareIfAbsent(NoisedAggregateShare n) {
    return run("putNoisedShareIfAbsent", c -> {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO noised_aggregate_shares ("
          + NOISED_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
        p.setBytes(1, n.taskId().bytes());
        p.setBytes(2, n.batchIdentifier());
        p.setBytes(3, n.aggregationParameter());
        p.setLong(4, n.reportCount());
        p.setBytes(5, n.checksum());
        p.setBytes(6, n.requestDigest());
        p.setBytes(7, n.noisedShare());
        p.setLong(8, n.createdAt().toEpochMilli());
        p.executeUpdate();
      }
      return readNoised(c, n.taskId(), n.batchIdentifier()).orElseThrow(() ->
          new SQLException("noised share vanished after insert"));
    });
  }

  @Override
  public Optional<NoisedAggregateShare> noisedShare(TaskId taskId, byte[] batchIdentifier) {
    return run("noisedShare", c -> readNoised(c, taskId, batchIdentifier));
  }

  @Override
  public List<byte[]> noisedBatchIdentifiers(TaskId taskId) {
    return run("noisedBatchIdentifiers", c -> {
      try (PreparedStatement p = c.prepareStatement("SELECT batch_identifier"
          + " FROM noised_aggregate_shares WHERE task_id = ? ORDER BY batch_identifier")) {
        p.setBytes(1, taskId.bytes());
        List<byte[]> out = new ArrayList<>();
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            out.add(rs.getBytes(1));
          }
        }
        return out;
      }
    });
  }

  private static final String RELEASED_COLUMNS =
      "task_id, batch_identifier, request_digest, aggregate_share, created_at_ms";

  private static Optional<ReleasedAggregateShare> readReleased(Connection c, TaskId taskId,
      byte[] batchIdentifier) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT " + RELEASED_COLUMNS
        + " FROM released_aggregate_shares WHERE task_id = ? AND batch_identifier = ?")) {
      p.setBytes(1, taskId.bytes());
      p.setBytes(2, batchIdentifier);
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(new ReleasedAggregateShare(new TaskId(rs.getBytes(1)), rs.getBytes(2),
            rs.getBytes(3), rs.getBytes(4), Instant.ofEpochMilli(rs.getLong(5))));
      }
    }
  }

  @Override
  public ReleasedAggregateShare putReleasedShareIfAbsent(ReleasedAggregateShare r) {
    return run("putReleasedShareIfAbsent", c -> {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO released_aggregate_shares ("
          + RELEASED_COLUMNS + ") VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
        p.setBytes(1, r.taskId().bytes());
        p.setBytes(2, r.batchIdentifier());
        p.setBytes(3, r.requestDigest());
        p.setBytes(4, r.aggregateShare());
        p.setLong(5, r.createdAt().toEpochMilli());
        p.executeUpdate();
      }
      return readReleased(c, r.taskId(), r.batchIdentifier()).orElseThrow(() ->
          new SQLException("released share vanished after insert"));
    });
  }

  @Override
  public Optional<ReleasedAggregateShare> releasedShare(TaskId taskId, byte[] batchIdentifier) {
    return run("releasedShare", c -> readReleased(c, taskId, batchIdentifier));
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
            new AggregateShareId(rs.getBytes(2)), rs.getBytes(3), rs.getBytes(4),
            Instant.ofEpochMilli(rs.getLong(5))));
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
        p.setBytes(3, r.batchIdentifier());
        p.setBytes(4, r.requestDigest());
        p.setLong(5, r.createdAt().toEpochMilli());
        p.executeUpdate();
      }
      return readResource(c, "request_digest", r.taskId().bytes(), r.requestDigest())
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
    run("checkReady", c -> {
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
        return rs.next();
      }
    });
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
    } catch (SQLException e) {
      throw new StoreException("closing " + describe() + " failed", e);
    } finally {
      lock.unlock();
    }
  }
}
