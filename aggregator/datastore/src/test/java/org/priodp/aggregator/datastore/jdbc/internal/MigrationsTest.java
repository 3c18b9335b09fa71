package org.priodp.aggregator.datastore.jdbc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MigrationsTest {
  private static final List<Migrations.Migration> ALL = Migrations.all(SqlDialect.SQLITE);

  @TempDir
  Path dir;

  private static int count(Connection c, String sql) throws Exception {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void migratingTwiceIsANoOp() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("m.db"))) {
      assertEquals(Migrations.latest(), Migrations.migrate(c, SqlDialect.SQLITE, ALL));
      assertEquals(Migrations.latest(), Migrations.migrate(c, SqlDialect.SQLITE, ALL));
      assertEquals(ALL.size(), count(c, "SELECT COUNT(*) FROM schema_version"));
      assertEquals(3, count(c, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'"
          + " AND name IN ('batch_aggregations', 'noised_aggregate_shares', 'aggregate_share_resources')"));
    }
  }

  @Test
  void migrationFilesSplitIntoTrimmedStatementsJoinedBySpaces() {
    assertEquals(List.of("CREATE TABLE t ( a BLOB, b INTEGER)", "CREATE INDEX i ON t (a)"),
        Migrations.statements("-- a comment; not a statement\n\nCREATE TABLE t (\n  a BLOB,\n"
            + "  b INTEGER);\n  CREATE INDEX i\n    ON t (a);\n"));
    assertThrows(IllegalStateException.class, () -> Migrations.statements("CREATE TABLE t (a)"));
    assertEquals(Migrations.latest(), ALL.get(ALL.size() - 1).version());
    assertEquals(ALL.size(), Migrations.all(SqlDialect.POSTGRESQL).size());
  }

  @Test
  void aDatabaseMigratedByANewerVersionIsRefused() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("newer.db"))) {
      int v = Migrations.latest();
      List<Migrations.Migration> newer = new ArrayList<>(ALL);
      newer.add(new Migrations.Migration(v + 1, List.of("CREATE TABLE future (x ${bytes})")));
      assertEquals(v + 1, Migrations.migrate(c, SqlDialect.SQLITE, newer));
      java.sql.SQLException e = assertThrows(
          java.sql.SQLException.class, () -> Migrations.migrate(c, SqlDialect.SQLITE,
              ALL));
      assertTrue(e.getMessage().startsWith("the database is at schema version " + (v + 1)
          + ", newer than this prio-dp knows (" + v + ")"), e.getMessage());
    }
  }

  @Test
  void appliesOnlyNewMigrationsAndRollsBackAFailingOne() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("n.db"))) {
      Migrations.migrate(c, SqlDialect.SQLITE, ALL);
      int v = Migrations.latest();
      List<Migrations.Migration> next = new ArrayList<>(ALL);
      next.add(new Migrations.Migration(v + 1, List.of("CREATE TABLE extra (x ${bytes})")));
      assertEquals(v + 1, Migrations.migrate(c, SqlDialect.SQLITE, next));
      assertEquals(v + 1, Migrations.current(c));
      List<Migrations.Migration> broken = new ArrayList<>(next);
      broken.add(new Migrations.Migration(v + 2, List.of("CREATE TABLE ok3 (x INTEGER)", "NOT SQL")));
      assertThrows(java.sql.SQLException.class, () -> Migrations.migrate(c, SqlDialect.SQLITE, broken));
      assertEquals(v + 1, Migrations.current(c));
      assertEquals(0, count(c, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'ok3'"));
      assertTrue(c.getAutoCommit());
    }
  }

  private static byte[] timeSelector(long start, long duration) {
    return new org.priodp.aggregator.dap.BatchSelector.TimeInterval(
        org.priodp.aggregator.dap.Interval.of(start, duration)).encode();
  }

  private static void insert(Connection c, String sql, Object... values) throws Exception {
    try (java.sql.PreparedStatement p = c.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        p.setObject(i + 1, values[i]);
      }
      p.executeUpdate();
    }
  }

  @Test
  void version3MovesVersion2RowsFromSecondsToTimePrecisionUnits() throws Exception {
    byte[] taskA = new byte[32];
    byte[] taskB = new byte[32];
    taskB[0] = 1;
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("v2.db"))) {
      Migrations.migrate(c, SqlDialect.SQLITE, ALL.subList(0, 2));
      // task A (precision 3600 s): buckets at hours 5 and 6, a released batch of both hours
      for (long hour : new long[] {5, 6}) {
        insert(c, "INSERT INTO batch_aggregations VALUES (?, ?, ?, ?, ?, ?)", taskA,
            timeSelector(hour * 3600, 3600), new byte[0], new byte[8], 10L, new byte[32]);
      }
      insert(c, "INSERT INTO noised_aggregate_shares VALUES (?, ?, ?, ?, ?, ?, ?, ?)", taskA,
          timeSelector(5 * 3600, 7200), new byte[0], 20L, new byte[32], new byte[32],
          new byte[8], 1L);
      // task B: a released batch with reports but no bucket left to tell its precision
      insert(c, "INSERT INTO noised_aggregate_shares VALUES (?, ?, ?, ?, ?, ?, ?, ?)", taskB,
          timeSelector(600, 600), new byte[0], 3L, new byte[32], new byte[32], new byte[8], 1L);
      assertEquals(Migrations.latest(), Migrations.migrate(c, SqlDialect.SQLITE, ALL));
      assertEquals(1, count(c, "SELECT COUNT(*) FROM batch_aggregations WHERE batch_identifier = x'"
          + java.util.HexFormat.of().formatHex(timeSelector(5, 1)) + "'"));
      assertEquals(1, count(c, "SELECT COUNT(*) FROM batch_aggregations WHERE batch_identifier = x'"
          + java.util.HexFormat.of().formatHex(timeSelector(6, 1)) + "'"));
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT task_id,"
          + " range_start, range_end FROM collected_intervals ORDER BY task_id")) {
        assertTrue(rs.next());
        assertEquals(5, rs.getLong(2) ^ Long.MIN_VALUE, "hours [5, 7) of task A");
        assertEquals(7, rs.getLong(3) ^ Long.MIN_VALUE);
        assertTrue(rs.next());
        assertEquals(0, rs.getLong(2) ^ Long.MIN_VALUE, "task B: the whole time line");
        assertEquals(-1L, rs.getLong(3) ^ Long.MIN_VALUE);
        assertTrue(!rs.next());
      }
    }
  }

  /**
   * Version 8 counts every collection job response stored before it as answered to the
   * Collector (so no leader-selected batch is handed out again) and leaves jobs without one
   * unanswered.
   */
  @Test
  void version8CountsStoredResponsesAsDelivered() throws Exception {
    byte[] task = new byte[32];
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("v7.db"))) {
      Migrations.migrate(c, SqlDialect.SQLITE, ALL.subList(0, 7));
      String job = "INSERT INTO collection_jobs (task_id, job_id, request, batch_identifier,"
          + " state, response, lease_expires_ms, lease_attempts, created_at_ms, updated_at_ms)"
          + " VALUES (?, ?, ?, ?, ?, ?, 0, 0, 1, ?)";
      insert(c, job, task, new byte[] {1}, new byte[] {9}, new byte[] {1}, "deleted",
          new byte[] {7}, 1234L);
      insert(c, job, task, new byte[] {2}, new byte[] {9}, new byte[] {2}, "deleted", null, 99L);
      assertEquals(Migrations.latest(), Migrations.migrate(c, SqlDialect.SQLITE, ALL));
      assertEquals(1, count(c, "SELECT COUNT(*) FROM collection_jobs WHERE job_id = x'01'"
          + " AND delivered_at_ms = 1234"));
      assertEquals(1, count(c, "SELECT COUNT(*) FROM collection_jobs WHERE job_id = x'02'"
          + " AND delivered_at_ms IS NULL"));
    }
  }

  /**
   * Version 12 marks the Leader jobs active at the migration with the legacy order salt (-1): one
   * may have sent its first request in report-time order, and a retry must send the same bytes;
   * finished and abandoned jobs keep none.
   */
  @Test
  void version12KeepsTheOrderOfActiveLeaderJobs() throws Exception {
    byte[] task = new byte[32];
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("v11.db"))) {
      Migrations.migrate(c, SqlDialect.SQLITE, ALL.subList(0, 11));
      String job = "INSERT INTO leader_aggregation_jobs (task_id, job_id, state, step,"
          + " min_report_time, max_report_time, report_count, lease_expires_ms, lease_attempts,"
          + " created_at_ms, updated_at_ms) VALUES (?, ?, ?, 0, 1, 2, 3, 0, 1, 1, 1)";
      insert(c, job, task, new byte[] {1}, "active");
      insert(c, job, task, new byte[] {2}, "finished");
      assertEquals(Migrations.latest(), Migrations.migrate(c, SqlDialect.SQLITE, ALL));
      assertEquals(1, count(c, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE job_id = x'01'"
          + " AND order_salt = -1 AND request_digest IS NULL"));
      assertEquals(1, count(c, "SELECT COUNT(*) FROM leader_aggregation_jobs WHERE job_id = x'02'"
          + " AND order_salt IS NULL"));
    }
  }

  /**
   * A new database gets exactly the schema (DDL text, columns, constraints, indexes) that the
   * migrations wrote before they moved to SQL resource files, so old and new databases are alike;
   * migrating it again changes nothing, not even schema_version. With {@code
   * -Dpriodp.schemaOut=DIR} the dumps are also written to DIR.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aNewDatabaseHasTheSchemaOfTheOldMigrationsAndMigratingAgainIsANoOp(String backend)
      throws Exception {
    SqlDialect dialect = backend.equals("sqlite") ? SqlDialect.SQLITE : SqlDialect.POSTGRESQL;
    String schema = "priodp_schema_" + Long.toUnsignedString(System.nanoTime(), 36);
    try (Connection c = freshDatabase(dialect, schema)) {
      try {
        assertEquals(Migrations.latest(), Migrations.migrate(c, dialect, Migrations.all(dialect)));
        String dump = SchemaDump.of(c, dialect);
        String versions = versions(c);
        String out = System.getProperty("priodp.schemaOut");
        if (out != null) {
          java.nio.file.Files.writeString(Path.of(out, "schema-v" + Migrations.latest() + "-"
              + backend + ".txt"), dump);
        }
        assertEquals(SchemaDump.expected(dialect), dump);
        assertEquals(Migrations.latest(), Migrations.migrate(c, dialect, Migrations.all(dialect)));
        assertEquals(dump, SchemaDump.of(c, dialect), "migrating a latest database again");
        assertEquals(versions, versions(c), "schema_version is left as it was");
      } finally {
        if (dialect == SqlDialect.POSTGRESQL) {
          try (Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA " + schema + " CASCADE");
          }
        }
      }
    }
  }

  /** A new SQLite file, or a new schema on the PostgreSQL of PRIODP_PG_URL (else skipped). */
  private Connection freshDatabase(SqlDialect dialect, String schema) throws Exception {
    if (dialect == SqlDialect.SQLITE) {
      return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(schema + ".db"));
    }
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED PostgreSQL schema test: PRIODP_PG_URL is not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "set PRIODP_PG_URL");
    try (Connection admin = DriverManager.getConnection(url);
        Statement s = admin.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
    }
    return DriverManager.getConnection(url + (url.contains("?") ? "&" : "?")
        + "currentSchema=" + schema);
  }

  private static String versions(Connection c) throws Exception {
    StringBuilder b = new StringBuilder();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT version, applied_at_ms FROM schema_version ORDER BY version")) {
      while (rs.next()) {
        b.append(rs.getInt(1)).append(' ').append(rs.getLong(2)).append('\n');
      }
    }
    return b.toString();
  }
}
