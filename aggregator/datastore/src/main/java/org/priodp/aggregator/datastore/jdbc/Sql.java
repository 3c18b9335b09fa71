package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.ByteString;

/**
 * The statement helpers the repositories share: binding parameters in order, one-row and
 * many-row queries, updates, and the column encodings (unsigned times stored sign-flipped, error
 * details cut to their column width).
 */
final class Sql {
  /** The width of the error_detail columns. */
  static final int MAX_ERROR_DETAIL = 1024;

  private Sql() {
  }

  /** Reads one row of a row mapper's shape. */
  @FunctionalInterface
  interface Row<T> {
    T read(ResultSet rs) throws SQLException;
  }

  /**
   * Runs one INSERT, UPDATE or DELETE with its parameters bound in order (byte[], Long, Integer
   * or String) and returns the row count.
   */
  static int update(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      bind(p, params);
      return p.executeUpdate();
    }
  }

  /** Runs one query with its parameters bound in order; returns whether it has a row. */
  static boolean exists(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      bind(p, params);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** Runs one query with its parameters bound in order; returns its first row, if any. */
  static <T> Optional<T> queryOne(Connection c, String sql, Row<T> row, Object... params)
      throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      bind(p, params);
      try (ResultSet rs = p.executeQuery()) {
        return rs.next() ? Optional.of(row.read(rs)) : Optional.empty();
      }
    }
  }

  /** Runs one query with its parameters bound in order; returns all its rows. */
  static <T> List<T> query(Connection c, String sql, Row<T> row, Object... params)
      throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      bind(p, params);
      List<T> out = new ArrayList<>();
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(row.read(rs));
        }
      }
      return out;
    }
  }

  /** The parameter that binds a NULL BIGINT (a NULL needs a typed setter). */
  static final Object NULL_BIGINT = new Object();

  /** Binds parameters in order: byte[], Long, Integer, String or {@link #NULL_BIGINT}. */
  static void bind(PreparedStatement p, Object... params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      Object v = params[i];
      if (v == NULL_BIGINT) {
        p.setNull(i + 1, java.sql.Types.BIGINT);
      } else if (v instanceof byte[] b) {
        p.setBytes(i + 1, b);
      } else if (v instanceof Long l) {
        p.setLong(i + 1, l);
      } else if (v instanceof Integer n) {
        p.setInt(i + 1, n);
      } else if (v instanceof String t) {
        p.setString(i + 1, t);
      } else {
        throw new IllegalArgumentException("parameter " + (i + 1) + ": unsupported "
            + (v == null ? "null" : v.getClass().getSimpleName()));
      }
    }
  }

  /** Returns {@code n} comma-separated placeholders. */
  static String marks(int n) {
    return String.join(", ", Collections.nCopies(n, "?"));
  }

  static ByteString bytes(ResultSet rs, int column) throws SQLException {
    return ByteString.copyOf(rs.getBytes(column));
  }

  /** Reads a nullable byte-string column. */
  static Optional<ByteString> optionalBytes(ResultSet rs, int column) throws SQLException {
    return Optional.ofNullable(rs.getBytes(column)).map(ByteString::copyOf);
  }

  /** Maps unsigned time units to a signed column whose signed order is their unsigned order. */
  static long flip(long unsigned) {
    return unsigned ^ Long.MIN_VALUE;
  }

  /** Cuts an error detail to its column width; null stays null. */
  static String detail(String d) {
    return d == null || d.length() <= MAX_ERROR_DETAIL ? d : d.substring(0, MAX_ERROR_DETAIL);
  }
}
