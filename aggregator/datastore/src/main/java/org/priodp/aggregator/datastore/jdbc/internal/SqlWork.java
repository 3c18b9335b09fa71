package org.priodp.aggregator.datastore.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;

/** Work on one JDBC connection that may fail with an {@link SQLException}. */
@FunctionalInterface
public interface SqlWork<T> {
  /** Runs on the connection. */
  T run(Connection c) throws SQLException;
}
