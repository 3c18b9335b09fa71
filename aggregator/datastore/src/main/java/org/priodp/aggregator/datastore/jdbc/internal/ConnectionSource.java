package org.priodp.aggregator.datastore.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lends the datastore's JDBC connections, one per unit of work: SQLite's single connection, whose
 * use is serialized in the process, or a connection from PostgreSQL's HikariCP pool. After {@link
 * #close} every loan fails with IllegalStateException.
 */
public abstract class ConnectionSource implements AutoCloseable {
  /** How long a request waits for a pooled PostgreSQL connection before it fails. */
  private static final long CONNECTION_TIMEOUT_MS = 5_000;

  private volatile boolean closed;

  private ConnectionSource() {
  }

  /** Runs {@code work} on a connection lent for its duration. */
  public final <T> T withConnection(SqlWork<T> work) throws SQLException {
    if (closed) {
      throw new IllegalStateException("datastore is closed");
    }
    return lend(work);
  }

  abstract <T> T lend(SqlWork<T> work) throws SQLException;

  /** Returns whether a failed connection is replaced on the next loan (a pool evicts it). */
  public abstract boolean pooled();

  /** Closes the connections; a second call does nothing. */
  @Override
  public final void close() throws SQLException {
    if (!closed) {
      closed = true;
      release();
    }
  }

  abstract void release() throws SQLException;

  /** Returns the URL with any password replaced by {@code ***}, for messages. */
  public static String describe(String url) {
    return url.replaceAll("password=[^&]*", "password=***");
  }

  /**
   * Opens an SQLite database: WAL journal, synchronous=FULL, foreign keys on, a 10 s busy
   * timeout, and transactions begun IMMEDIATE so that they take the database write lock first.
   */
  static ConnectionSource sqlite(String url, Properties properties) throws SQLException {
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
    return new Shared(c);
  }

  /** Opens a HikariCP pool; fails fast, with the driver's reason, if the server is unreachable. */
  static ConnectionSource pooled(String url, Properties properties, int poolSize) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setDataSourceProperties(properties);
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(Math.min(2, poolSize));
    config.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
    config.setPoolName("priodp-store");
    config.setAutoCommit(true);
    return new Pooled(new HikariDataSource(config));
  }

  /** One connection whose use is serialized (reentrant, as a task's work may read more). */
  private static final class Shared extends ConnectionSource {
    private final Connection connection;
    private final ReentrantLock lock = new ReentrantLock();

    Shared(Connection connection) {
      this.connection = connection;
    }

    @Override
    <T> T lend(SqlWork<T> work) throws SQLException {
      lock.lock();
      try {
        return work.run(connection);
      } finally {
        lock.unlock();
      }
    }

    @Override
    public boolean pooled() {
      return false;
    }

    @Override
    void release() throws SQLException {
      lock.lock();
      try {
        connection.close();
      } finally {
        lock.unlock();
      }
    }
  }

  /** A pool: each loan borrows a connection and gives it back. */
  private static final class Pooled extends ConnectionSource {
    private final HikariDataSource pool;

    Pooled(HikariDataSource pool) {
      this.pool = pool;
    }

    @Override
    <T> T lend(SqlWork<T> work) throws SQLException {
      try (Connection c = pool.getConnection()) {
        return work.run(c);
      }
    }

    @Override
    public boolean pooled() {
      return true;
    }

    @Override
    void release() {
      pool.close();
    }
  }
}
