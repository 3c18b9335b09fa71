package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;

/** {@code ./prio-dp keys list|add|retire} on a real SQLite store. */
class KeysCommandTest {
  @TempDir
  Path dir;

  @Test
  void addListAndRetireKeys() {
    String db = "jdbc:sqlite:" + dir.resolve("k.db");
    CliRun empty = CliRun.of("keys", "--db", db, "list");
    assertEquals(0, empty.code(), empty.err());
    assertEquals("", empty.out());
    CliRun add = CliRun.of("keys", "--db", db, "add");
    assertEquals(0, add.code(), add.err());
    assertTrue(add.out().contains(" active kem=32 kdf=1 aead=1 public_key="), add.out());
    int id = Integer.parseInt(add.out().substring(0, add.out().indexOf(' ')));
    CliRun second = CliRun.of("keys", "--db", db, "add");
    int secondId = Integer.parseInt(second.out().substring(0, second.out().indexOf(' ')));
    CliRun retire = CliRun.of("keys", "--db", db, "retire", Integer.toString(id));
    assertEquals(0, retire.code(), retire.err());
    assertEquals("retired " + id, retire.out().strip());
    try (JdbcDatastore store = JdbcDatastore.open(db)) {
      List<HelperHpkeKey> keys = store.hpkeKeys().all();
      assertEquals(2, keys.size());
      assertEquals(1, keys.stream().filter(k -> k.state() == HelperHpkeKey.State.RETIRED).count());
    }
    CliRun list = CliRun.of("keys", "--db", db, "list");
    assertTrue(list.out().contains(id + " retired "), list.out());
    assertUnknownIdIsOneLine(db, Math.max(id, secondId));
    CliRun help = CliRun.of("keys", "--help");
    assertEquals(0, help.code());
    assertTrue(help.out().contains("Example:"), help.out());
  }

  /**
   * Retiring the last active key adds a new one first and says so (issue 24: the server made one
   * at the next hpke_config request without a word).
   */
  @Test
  void retiringTheLastActiveKeyAddsOneAndSaysSo() {
    String db = "jdbc:sqlite:" + dir.resolve("last.db");
    CliRun add = CliRun.of("keys", "--db", db, "add");
    int id = Integer.parseInt(add.out().substring(0, add.out().indexOf(' ')));
    CliRun retire = CliRun.of("keys", "--db", db, "retire", Integer.toString(id));
    assertEquals(0, retire.code(), retire.err());
    assertTrue(retire.out().startsWith("retired HPKE config " + id + ", the last active one;"
        + " generated config "), retire.out());
    try (JdbcDatastore store = JdbcDatastore.open(db)) {
      List<HelperHpkeKey> keys = store.hpkeKeys().all();
      assertEquals(2, keys.size());
      HelperHpkeKey active = keys.stream().filter(k -> k.state() == HelperHpkeKey.State.ACTIVE)
          .findFirst().orElseThrow();
      assertTrue(retire.out().contains("generated config " + active.config().id().value()
          + " so the server keeps answering hpke_config"), retire.out());
    }
  }

  private static void assertUnknownIdIsOneLine(String db, int taken) {
    CliRun unknown = CliRun.of("keys", "--db", db, "retire", Integer.toString((taken + 1) % 256));
    assertTrue(unknown.failedWithOneLine("no key with config id"), unknown.err());
  }

  @Test
  void passwordFileThatIsMissingIsOneLineBeforeConnecting() {
    // port 1: nothing listens there, so reaching the message proves the file is read first
    CliRun missing = CliRun.of("keys", "--db", "jdbc:postgresql://127.0.0.1:1/priodp",
        "--db-password-file", dir.resolve("nope").toString(), "list");
    assertEquals(2, missing.code(), missing.err());
    assertTrue(missing.failedWithOneLine("--db-password-file"), missing.err());
  }
}
