package org.priodp.aggregator.datastore.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The forward-only schema migrations of the datastore and the {@code schema_version} table that
 * records which have run. Each migration runs in one transaction together with its version row,
 * so running {@link #migrate} again is a no-op.
 *
 * <p>The statements of each version are SQL files, one set per dialect, under {@code
 * org/priodp/aggregator/datastore/jdbc/migrations/{sqlite,postgresql}/}, named {@code
 * Vnnn__what.sql}. In a file, lines starting with {@code --} are comments, a statement ends with
 * a {@code ;} at the end of a line, and the lines of a statement are trimmed and joined with one
 * space: the joined text is the DDL the database keeps (SQLite stores it in {@code
 * sqlite_master}), so a released file is never edited, only followed by a new version.
 */
public final class Migrations {
  /**
   * One schema step: its version, statements ({@code ${bytes}} is the binary type) and a data
   * step run after them in the same transaction (or null).
   */
  public record Migration(int version, List<String> statements, DataStep data) {
    /** Copies the statements. */
    public Migration {
      statements = List.copyOf(statements);
    }

    /** A migration of statements only. */
    public Migration(int version, List<String> statements) {
      this(version, statements, null);
    }
  }

  /** Rewrites rows in Java where SQL cannot (e.g. decoding DAP structures). */
  @FunctionalInterface
  public interface DataStep {
    /** Runs inside the migration's transaction. */
    void run(Connection c) throws SQLException;
  }

  /** The migration files of every dialect, in version order (the number after the V). */
  private static final List<String> FILES = List.of(
      "V001__batch_buckets_noised_shares_resources",
      "V002__released_aggregate_shares",
      "V003__collected_intervals",
      "V004__helper_aggregation",
      "V005__retention",
      "V006__leader",
      "V007__aggregate_share_requests",
      "V008__collection_job_delivery",
      "V009__vdaf_verify_keys",
      "V010__leader_job_verification_key",
      "V011__client_report_retry_after",
      "V012__leader_replacement",
      "V013__task_counters",
      "V014__privacy_ledger", "V015__collector_selected_batches",
      "V016__report_budgets");

  /** The data steps, by version. */
  private static final Map<Integer, DataStep> DATA_STEPS = Map.of(3, LegacyTimeUnits::migrate);

  private static final String FOLDER = "/org/priodp/aggregator/datastore/jdbc/migrations/";

  private Migrations() {
  }

  /** Returns the latest version known to this code. */
  public static int latest() {
    return version(FILES.get(FILES.size() - 1));
  }

  /** Returns every migration in order, with the statements of the dialect's SQL files. */
  public static List<Migration> all(SqlDialect dialect) {
    List<Migration> out = new ArrayList<>();
    for (String file : FILES) {
      int v = version(file);
      out.add(new Migration(v, statements(read(dialect.migrationFolder() + "/" + file + ".sql")),
          DATA_STEPS.get(v)));
    }
    return out;
  }

  private static int version(String file) {
    return Integer.parseInt(file.substring(1, file.indexOf("__")));
  }

  private static String read(String name) {
    try (InputStream in = Migrations.class.getResourceAsStream(FOLDER + name)) {
      if (in == null) {
        throw new IllegalStateException("migration " + FOLDER + name + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read migration " + FOLDER + name, e);
    }
  }

  /** Splits a migration file into its statements as the class comment describes. */
  static List<String> statements(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder statement = new StringBuilder();
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("--")) {
        continue;
      }
      if (statement.length() > 0) {
        statement.append(' ');
      }
      statement.append(line);
      if (line.endsWith(";")) {
        statement.setLength(statement.length() - 1);
        out.add(statement.toString());
        statement.setLength(0);
      }
    }
    if (statement.length() > 0) {
      throw new IllegalStateException("migration statement without a final ';': " + statement);
    }
    return out;
  }

  /** Creates schema_version if needed, applies every missing migration and returns the version. */
  public static int migrate(Connection c, SqlDialect dialect, List<Migration> migrations)
      throws SQLException {
    boolean auto = c.getAutoCommit();
    dialect.lockMigrations(c);
    try {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS schema_version ("
            + " version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)");
      }
      c.commit();
      int current = current(c);
      int known = migrations.isEmpty() ? 0 : migrations.get(migrations.size() - 1).version();
      if (current > known) {
        // a newer prio-dp migrated this database: its tables may mean things this code does not
        // know (e.g. a once-only rule), so an older version must not run on it
        throw new SQLException("the database is at schema version " + current + ", newer than"
            + " this prio-dp knows (" + known + "); a newer version migrated it and there is no"
            + " downgrade: run that version or restore a backup");
      }
      for (Migration m : migrations) {
        if (m.version() <= current) {
          continue;
        }
        try (Statement s = c.createStatement()) {
          for (String sql : m.statements()) {
            s.execute(dialect.render(sql));
          }
        }
        if (m.data() != null) {
          m.data().run(c);
        }
        try (PreparedStatement p = c.prepareStatement(
            "INSERT INTO schema_version (version, applied_at_ms) VALUES (?, ?)")) {
          p.setInt(1, m.version());
          p.setLong(2, System.currentTimeMillis());
          p.executeUpdate();
        }
        c.commit();
        current = m.version();
      }
      c.commit();
      return current;
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(auto);
      dialect.unlockMigrations(c);
    }
  }

  /** Returns the highest applied version, or 0 if none. */
  public static int current(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT MAX(version) FROM schema_version")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
