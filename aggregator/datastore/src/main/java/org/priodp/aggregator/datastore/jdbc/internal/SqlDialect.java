package org.priodp.aggregator.datastore.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.priodp.aggregator.dap.TaskId;

/**
 * The one place where the datastore's two SQL dialects differ: how connections are held (SQLite:
 * one connection in WAL mode whose transactions take the database write lock when they begin;
 * PostgreSQL: a pool), how a task transaction is serialized with every other of the same task
 * across processes (DESIGN.md non-negotiable 3), how a lease passes over rows another lease is
 * taking, how concurrent migrations wait for each other, where the dialect's SQL migration files
 * are and the binary column type. Everything else is the same SQL on both: {@code BIGINT},
 * {@code INSERT ... ON CONFLICT DO NOTHING} (insert-if-absent) and {@code ON CONFLICT (...) DO
 * UPDATE} (upsert) are accepted by both.
 */
public enum SqlDialect {
  /** SQLite 3 (the embedded default). */
  SQLITE("BLOB", "sqlite") {
    @Override
    public ConnectionSource connect(String url, Properties properties, int poolSize)
        throws SQLException {
      return ConnectionSource.sqlite(url, properties);
    }

    @Override
    public void lockTask(Connection c, TaskId taskId) throws SQLException {
      // the IMMEDIATE transaction mode makes the first statement take the database write lock,
      // which serializes every transaction, of any task, across processes
      try (Statement s = c.createStatement()) {
        s.executeQuery("SELECT 1").close();
      }
    }

    @Override
    public String skipLocked(String select) {
      return select; // the transaction already holds the database write lock
    }

    @Override
    public void lockMigrations(Connection c) {
      // BEGIN IMMEDIATE of each migration's transaction is the lock
    }

    @Override
    public void unlockMigrations(Connection c) {
      // nothing was taken
    }
  },

  /** PostgreSQL (several replicas sharing one database). */
  POSTGRESQL("BYTEA", "postgresql") {
    @Override
    public ConnectionSource connect(String url, Properties properties, int poolSize) {
      return ConnectionSource.pooled(url, properties, poolSize);
    }

    @Override
    public void lockTask(Connection c, TaskId taskId) throws SQLException {
      try (PreparedStatement p = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
        p.setLong(1, advisoryKey(taskId));
        p.executeQuery().close();
      }
    }

    @Override
    public String skipLocked(String select) {
      return select + " FOR UPDATE SKIP LOCKED";
    }

    @Override
    public void lockMigrations(Connection c) throws SQLException {
      // several replicas may start together: one migrates, the others wait and find it done
      try (Statement s = c.createStatement()) {
        s.executeQuery("SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")").close();
      }
    }

    @Override
    public void unlockMigrations(Connection c) throws SQLException {
      try (Statement s = c.createStatement()) {
        s.executeQuery("SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")").close();
      }
    }
  };

  /** The PostgreSQL session advisory lock key held while migrating ("priodp-m"). */
  static final long MIGRATION_LOCK = 0x7072696f64702d6dL;

  private final String bytesType;
  private final String migrationFolder;

  SqlDialect(String bytesType, String migrationFolder) {
    this.bytesType = bytesType;
    this.migrationFolder = migrationFolder;
  }

  /** Returns the column type for byte strings. */
  public String bytesType() {
    return bytesType;
  }

  /** Returns the name of the resource folder that holds this dialect's migration files. */
  public String migrationFolder() {
    return migrationFolder;
  }

  /** Replaces {@code ${bytes}} in a schema statement with this dialect's binary type. */
  public String render(String sql) {
    return sql.replace("${bytes}", bytesType);
  }

  /**
   * Opens the connections of a datastore at {@code url}: SQLite one (WAL journal, synchronous
   * FULL, transactions begun IMMEDIATE), PostgreSQL a pool of {@code poolSize}.
   */
  public abstract ConnectionSource connect(String url, Properties properties, int poolSize)
      throws SQLException;

  /**
   * Called first in a task transaction: blocks until no other transaction of the task, in any
   * process sharing the database, holds it (PostgreSQL: a transaction-scoped advisory lock on the
   * task; SQLite: the database write lock), and keeps it until the transaction ends.
   */
  public abstract void lockTask(Connection c, TaskId taskId) throws SQLException;

  /**
   * Returns the SELECT that picks a row to lease such that concurrent leases pick different rows
   * (PostgreSQL: {@code FOR UPDATE SKIP LOCKED} appended; SQLite: unchanged, as its transaction
   * holds the database write lock).
   */
  public abstract String skipLocked(String select);

  /** Waits until no other process migrates the database (PostgreSQL: a session advisory lock). */
  public abstract void lockMigrations(Connection c) throws SQLException;

  /** Releases what {@link #lockMigrations} took. */
  public abstract void unlockMigrations(Connection c) throws SQLException;

  /** The advisory lock key of a task: its first 8 bytes with a fixed tag mixed in. */
  static long advisoryKey(TaskId taskId) {
    byte[] b = taskId.bytes();
    long k = 0;
    for (int i = 0; i < 8; i++) {
      k = (k << 8) | (b[i] & 0xff);
    }
    return k ^ 0x7072696f64702d31L; // "priodp-1": keeps clear of other users' small keys
  }

  /** Returns the dialect of a JDBC URL ({@code jdbc:sqlite:} or {@code jdbc:postgresql:}). */
  public static SqlDialect ofUrl(String jdbcUrl) {
    if (jdbcUrl.startsWith("jdbc:sqlite:")) {
      return SQLITE;
    }
    if (jdbcUrl.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    throw new IllegalArgumentException("unsupported JDBC URL (expected jdbc:sqlite: or"
        + " jdbc:postgresql:): " + ConnectionSource.describe(jdbcUrl));
  }
}
