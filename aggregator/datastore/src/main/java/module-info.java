/**
 * Declares the datastore module: the port the core talks to and its JDBC implementation (SQLite
 * embedded, PostgreSQL for several replicas).
 *
 * <p>Exports {@code org.priodp.aggregator.datastore} (the port and its records) to everyone, and
 * {@code org.priodp.aggregator.datastore.jdbc} (the JDBC implementation that opens a store from a
 * JDBC URL) only to the modules that assemble a running aggregator, the server and the cli: the
 * core sees the port and never JDBC. {@code org.priodp.aggregator.datastore.jdbc.internal} (SQL
 * dialects, migrations) is not exported. JDBC ({@code java.sql}) and HikariCP ({@code
 * com.zaxxer.hikari}) are not required transitively; the JDBC drivers (sqlite-jdbc, postgresql)
 * are found at run time by {@code java.sql.DriverManager}. The warning suppressed is javac's
 * "module not found" for the qualified export: the server and cli modules are compiled later.
 */
@SuppressWarnings("module")
module org.priodp.aggregator.datastore {
  requires transitive org.priodp.aggregator.messages;
  requires java.sql;
  requires com.zaxxer.hikari;

  exports org.priodp.aggregator.datastore;
  exports org.priodp.aggregator.datastore.jdbc to
      org.priodp.aggregator.server,
      org.priodp.aggregator.cli;
}
