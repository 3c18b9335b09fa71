package org.priodp.aggregator.datastore.jdbc;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Properties;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.HpkeKeyRepository;
import org.priodp.aggregator.datastore.JobLeaseRepository;
import org.priodp.aggregator.datastore.jdbc.internal.ConnectionSource;
import org.priodp.aggregator.datastore.jdbc.internal.Migrations;
import org.priodp.aggregator.datastore.jdbc.internal.SqlDialect;

/**
 * The {@link Datastore} over plain JDBC (DAP-18 "Distributed Systems and Synchronization
 * Concerns"), with the same SQL for SQLite (embedded default: WAL journal, synchronous=FULL, one
 * connection whose use is serialized, transactions begun IMMEDIATE so that they take the database
 * write lock first) and PostgreSQL (a HikariCP pool, {@link #DEFAULT_POOL_SIZE} connections unless
 * told otherwise; task transactions take a transaction-scoped advisory lock on the task); where
 * they differ, {@link SqlDialect} decides. The schema is migrated on open.
 */
public final class JdbcDatastore implements Datastore {
  /** The PostgreSQL pool size when none is given. */
  public static final int DEFAULT_POOL_SIZE = 10;

  private final SqlDialect dialect;
  private final String url;
  private final ConnectionSource connections;
  private final TransactionTemplate template;
  private final int schemaVersion;
  private final JdbcHpkeKeys hpkeKeys;
  private final JdbcJobLeases jobLeases;

  private JdbcDatastore(String url, Properties properties, int poolSize) {
    if (poolSize < 1) {
      throw new IllegalArgumentException("pool size must be >= 1, got " + poolSize);
    }
    this.dialect = SqlDialect.ofUrl(url);
    this.url = url;
    ConnectionSource c = null;
    try {
      c = dialect.connect(url, properties, poolSize);
      this.schemaVersion = c.withConnection(conn -> Migrations.migrate(conn, dialect,
          Migrations.all(dialect)));
    } catch (SQLException | RuntimeException e) {
      closeQuietly(c);
      throw new DatastoreException("cannot open store " + ConnectionSource.describe(url), e);
    }
    this.connections = c;
    this.template = new TransactionTemplate(c, dialect);
    this.hpkeKeys = new JdbcHpkeKeys(template);
    this.jobLeases = new JdbcJobLeases(template, dialect);
  }

  /** Opens (creating if needed) an SQLite database file and migrates it. */
  public static JdbcDatastore openSqlite(Path file) {
    return open("jdbc:sqlite:" + file.toAbsolutePath(), new Properties());
  }

  /** Opens a datastore from a {@code jdbc:sqlite:} or {@code jdbc:postgresql:} URL, migrated. */
  public static JdbcDatastore open(String jdbcUrl) {
    return open(jdbcUrl, new Properties());
  }

  /** Opens a datastore with driver properties (e.g. user and password) and migrates it. */
  public static JdbcDatastore open(String jdbcUrl, Properties properties) {
    return open(jdbcUrl, properties, DEFAULT_POOL_SIZE);
  }

  /**
   * Opens a datastore with driver properties and, for PostgreSQL, a pool of {@code poolSize}
   * connections (ignored for SQLite, which uses one), and migrates it.
   */
  public static JdbcDatastore open(String jdbcUrl, Properties properties, int poolSize) {
    return new JdbcDatastore(jdbcUrl, (Properties) properties.clone(), poolSize);
  }

  private static void closeQuietly(ConnectionSource c) {
    try {
      if (c != null) {
        c.close();
      }
    } catch (SQLException ignored) {
      // the open already failed; its cause is what the caller reports
    }
  }

  /** Returns the dialect in use. */
  public SqlDialect dialect() {
    return dialect;
  }

  @Override
  public <T> T inTaskTransaction(TaskId taskId, TaskWork<T> work) {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(work, "work");
    return template.inTransaction("task transaction", c -> {
      dialect.lockTask(c, taskId);
      return null;
    }, c -> work.run(new JdbcTaskTransaction(c, taskId)));
  }

  @Override
  public HpkeKeyRepository hpkeKeys() {
    return hpkeKeys;
  }

  @Override
  public JobLeaseRepository jobLeases() {
    return jobLeases;
  }

  @Override
  public int schemaVersion() {
    return schemaVersion;
  }

  @Override
  public void checkReady() {
    // A pooled PostgreSQL connection may have died with the server (a restart, a cut network);
    // the pool evicts it when it fails, so one more try tells whether the database answers now.
    DatastoreException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        template.autoCommit("checkReady", c -> {
          try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            return rs.next();
          }
        });
        return;
      } catch (DatastoreException e) {
        last = e;
        if (!connections.pooled()) {
          break;
        }
      }
    }
    throw last;
  }

  @Override
  public void close() {
    try {
      connections.close();
    } catch (SQLException e) {
      throw new DatastoreException("closing " + ConnectionSource.describe(url) + " failed", e);
    }
  }
}
