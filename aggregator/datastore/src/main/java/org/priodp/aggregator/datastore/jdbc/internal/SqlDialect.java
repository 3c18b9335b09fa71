package org.priodp.aggregator.datastore.jdbc.internal;

/**
 * The two SQL dialects the store runs on; the only schema difference is the binary column type
 * (SQLite {@code BLOB}, PostgreSQL {@code BYTEA}). Both accept {@code BIGINT},
 * {@code INSERT ... ON CONFLICT DO NOTHING} and {@code ON CONFLICT (...) DO UPDATE}.
 */
public enum SqlDialect {
  SQLITE("BLOB"),
  POSTGRESQL("BYTEA");

  private final String bytesType;

  SqlDialect(String bytesType) {
    this.bytesType = bytesType;
  }

  /** Returns the column type for byte strings. */
  public String bytesType() {
    return bytesType;
  }

  /** Replaces {@code ${bytes}} in a schema statement with this dialect's binary type. */
  public String render(String sql) {
    return sql.replace("${bytes}", bytesType);
  }

  /** Returns the dialect of a JDBC URL ({@code jdbc:sqlite:} or {@code jdbc:postgresql:}). */
  public static SqlDialect ofUrl(String jdbcUrl) {
    if (jdbcUrl.startsWith("jdbc:sqlite:")) {
      return SQLITE;
    }
    if (jdbcUrl.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    throw new IllegalArgumentException("unsupported JDBC URL (expected jdbc:sqlite: or jdbc:postgresql:): "
        + jdbcUrl.replaceAll("password=[^&]*", "password=***"));
  }
}
