package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.jdbc.internal.ConnectionSource;
import org.priodp.aggregator.datastore.jdbc.internal.SqlDialect;
import org.priodp.aggregator.datastore.jdbc.internal.SqlWork;

/**
 * How every unit of work of the JDBC datastore reaches the database (DAP-18 "Distributed Systems
 * and Synchronization Concerns"): a connection is borrowed for the work, a transaction begins,
 * an optional lock step runs first (the task lock of a task transaction), the work runs, and the
 * transaction commits, or rolls back if anything failed; SQL failures become {@link
 * DatastoreException} naming the work and the dialect, other exceptions pass unchanged.
 * Transactions do not nest on a thread. There is no retry: a failed transaction is reported.
 */
final class TransactionTemplate {
  private final ConnectionSource connections;
  private final SqlDialect dialect;
  private final ThreadLocal<Boolean> open = ThreadLocal.withInitial(() -> Boolean.FALSE);

  TransactionTemplate(ConnectionSource connections, SqlDialect dialect) {
    this.connections = connections;
    this.dialect = dialect;
  }

  /** Carries an {@link SQLException} out of work that cannot throw it (a repository method). */
  static final class SqlFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SqlFailure(SQLException e) {
      super(e);
    }

    @Override
    public synchronized SQLException getCause() {
      return (SQLException) super.getCause();
    }
  }

  /** Runs {@code work}, turning an SQLException into a {@link SqlFailure}. */
  static <T> T unchecked(Connection c, SqlWork<T> work) {
    try {
      return work.run(c);
    } catch (SQLException e) {
      throw new SqlFailure(e);
    }
  }

  /** Runs reads or one statement without a transaction (auto-commit). */
  <T> T autoCommit(String what, SqlWork<T> work) {
    try {
      return connections.withConnection(work);
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  /**
   * Runs {@code work} in one transaction: begins, runs {@code lock} (or nothing if null) and then
   * {@code work}, and commits; rolls back if either throws, and rethrows.
   */
  <T> T inTransaction(String what, SqlWork<?> lock, SqlWork<T> work) {
    if (open.get()) {
      throw new IllegalStateException(what + ": this thread already has a transaction of this"
          + " datastore open; transactions do not nest");
    }
    open.set(Boolean.TRUE);
    try {
      return connections.withConnection(c -> {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false); // SQLite: IMMEDIATE, the first statement takes the write lock
        boolean committed = false;
        try {
          if (lock != null) {
            lock.run(c);
          }
          T result = work.run(c);
          c.commit();
          committed = true;
          return result;
        } catch (SqlFailure e) {
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
      throw failure(what, e);
    } finally {
      open.remove();
    }
  }

  private DatastoreException failure(String what, SQLException e) {
    return new DatastoreException(what + " failed on " + dialect + ": " + e.getMessage(), e);
  }
}
