package org.priodp.aggregator.datastore.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Writes the schema a database holds as text, one catalog row a line, so that two databases can
 * be compared: on SQLite every row of {@code sqlite_master} (with the DDL text as given), on
 * PostgreSQL the columns, constraints and indexes of the current schema (its name replaced by
 * {@code <schema>}). The expected texts of the current schema version are test resources
 * written by the migrations as they were before they moved to SQL files.
 */
final class SchemaDump {
  private SchemaDump() {
  }

  /** Returns the schema of the connection's database (SQLite) or current schema (PostgreSQL). */
  static String of(Connection c, SqlDialect dialect) throws SQLException {
    StringBuilder out = new StringBuilder();
    if (dialect == SqlDialect.SQLITE) {
      rows(c, out, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name");
      return out.toString();
    }
    String schema;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT current_schema()")) {
      rs.next();
      schema = rs.getString(1);
    }
    rows(c, out, "SELECT table_name, ordinal_position, column_name, data_type,"
        + " character_maximum_length, is_nullable, column_default FROM information_schema.columns"
        + " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position");
    rows(c, out, "SELECT cl.relname, co.conname, co.contype, pg_get_constraintdef(co.oid)"
        + " FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid"
        + " WHERE co.connamespace = current_schema()::regnamespace ORDER BY 1, 2");
    rows(c, out, "SELECT tablename, indexname, indexdef FROM pg_indexes"
        + " WHERE schemaname = current_schema() ORDER BY 1, 2");
    return out.toString().replace(schema + ".", "<schema>.");
  }

  private static void rows(Connection c, StringBuilder out, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        for (int i = 1; i <= md.getColumnCount(); i++) {
          out.append(i == 1 ? "" : " | ").append(rs.getString(i));
        }
        out.append('\n');
      }
    }
  }

  /** Returns the expected schema text of the latest version for the dialect. */
  static String expected(SqlDialect dialect) throws IOException {
    String name = "schema-v" + Migrations.latest() + "-"
        + dialect.name().toLowerCase(java.util.Locale.ROOT) + ".txt";
    try (InputStream in = SchemaDump.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("test resource " + name + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
