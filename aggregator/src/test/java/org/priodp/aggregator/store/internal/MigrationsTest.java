package org.priodp.aggregator.store.internal;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationsTest {
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
      assertEquals(Migrations.latest(), Migrations.migrate(c, SqlDialect.SQLITE, Migrations.ALL));
      assertEquals(Migrations.latest(), Migrations.migrate(c, SqlDialect.SQLITE, Migrations.ALL));
      assertEquals(Migrations.ALL.size(), count(c, "SELECT COUNT(*) FROM schema_version"));
      assertEquals(3, count(c, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'"
          + " AND name IN ('batch_aggregations', 'noised_aggregate_shares', 'aggregate_share_resources')"));
    }
  }

  @Test
  void appliesOnlyNewMigrationsAndRollsBackAFailingOne() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("n.db"))) {
      Migrations.migrate(c, SqlDialect.SQLITE, Migrations.ALL);
      List<Migrations.Migration> next = new ArrayList<>(Migrations.ALL);
      next.add(new Migrations.Migration(2, List.of("CREATE TABLE extra (x ${bytes})")));
      assertEquals(2, Migrations.migrate(c, SqlDialect.SQLITE, next));
      assertEquals(2, Migrations.current(c));
      List<Migrations.Migration> broken = new ArrayList<>(next);
      broken.add(new Migrations.Migration(3, List.of("CREATE TABLE ok3 (x INTEGER)", "NOT SQL")));
      assertThrows(java.sql.SQLException.class, () -> Migrations.migrate(c, SqlDialect.SQLITE, broken));
      assertEquals(2, Migrations.current(c));
      assertEquals(0, count(c, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'ok3'"));
      assertTrue(c.getAutoCommit());
    }
  }

  @Test
  void dialectsDifferOnlyInTheBinaryType() {
    assertEquals("a BYTEA", SqlDialect.POSTGRESQL.render("a ${bytes}"));
    assertEquals("a BLOB", SqlDialect.SQLITE.render("a ${bytes}"));
    assertEquals(SqlDialect.POSTGRESQL, SqlDialect.ofUrl("jdbc:postgresql://h/db"));
    assertThrows(IllegalArgumentException.class, () -> SqlDialect.ofUrl("jdbc:h2:mem:"));
  }
}
