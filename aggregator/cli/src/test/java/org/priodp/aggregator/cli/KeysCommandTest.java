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
    CliRun retire = CliRun.of("keys", "--db", db, "retire", Integer.toString(id));
    assertEquals(0, retire.code(), retire.err());
    try (JdbcDatastore store = JdbcDatastore.open(db)) {
      List<HelperHpkeKey> keys = store.hpkeKeys().all();
      assertEquals(1, keys.size());
      assertEquals(HelperHpkeKey.State.RETIRED, keys.get(0).state());
    }
    CliRun list = CliRun.of("keys", "--db", db, "list");
    assertTrue(list.out().startsWith(id + " retired "), list.out());
    CliRun unknown = CliRun.of("keys", "--db", db, "retire", Integer.toString((id + 1) % 256));
    assertTrue(unknown.failedWithOneLine("no key with config id"), unknown.err());
    CliRun help = CliRun.of("keys", "--help");
    assertEquals(0, help.code());
    assertTrue(help.out().contains("Example:"), help.out());
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
