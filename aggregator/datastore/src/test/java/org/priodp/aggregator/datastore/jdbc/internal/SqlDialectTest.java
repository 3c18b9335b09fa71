package org.priodp.aggregator.datastore.jdbc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.TaskId;

class SqlDialectTest {
  @Test
  void dialectsDifferOnlyInTheBinaryType() {
    assertEquals("a BYTEA", SqlDialect.POSTGRESQL.render("a ${bytes}"));
    assertEquals("a BLOB", SqlDialect.SQLITE.render("a ${bytes}"));
    assertEquals(SqlDialect.POSTGRESQL, SqlDialect.ofUrl("jdbc:postgresql://h/db"));
    assertThrows(IllegalArgumentException.class, () -> SqlDialect.ofUrl("jdbc:h2:mem:"));
  }

  @Test
  void onlyPostgresqlSkipsRowsAnotherLeaseIsTaking() {
    assertEquals("SELECT 1 FOR UPDATE SKIP LOCKED", SqlDialect.POSTGRESQL.skipLocked("SELECT 1"));
    assertEquals("SELECT 1", SqlDialect.SQLITE.skipLocked("SELECT 1"));
    assertEquals(SqlDialect.SQLITE, SqlDialect.ofUrl("jdbc:sqlite:/tmp/x.db"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SqlDialect.ofUrl("jdbc:mysql://x/y?password=secret"));
    assertFalse(e.getMessage().contains("secret"), e.getMessage());
  }

  @Test
  void advisoryKeysAreTheTasksFirstEightBytesTagged() {
    byte[] a = new byte[32];
    byte[] b = new byte[32];
    b[31] = 1; // beyond the first 8 bytes: the same key (a shared lock is only slower)
    assertEquals(SqlDialect.advisoryKey(new TaskId(a)), SqlDialect.advisoryKey(new TaskId(b)));
    assertEquals(0x7072696f64702d31L, SqlDialect.advisoryKey(new TaskId(a)));
    b[0] = 1;
    assertNotEquals(SqlDialect.advisoryKey(new TaskId(a)), SqlDialect.advisoryKey(new TaskId(b)));
    assertTrue(SqlDialect.MIGRATION_LOCK != SqlDialect.advisoryKey(new TaskId(a)));
  }
}
