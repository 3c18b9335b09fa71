package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without --db, keys and verify-keys find serve's default store of either role. */
class StoreOptionsTest {
  @TempDir
  Path dir;

  @Test
  void theDefaultIsTheStoreOfEitherRoleThatExists() throws Exception {
    assertEquals("jdbc:sqlite:" + dir.resolve("priodp-helper.db"), StoreOptions.defaultUrl(dir));
    Files.createFile(dir.resolve("priodp-leader.db"));
    assertEquals("jdbc:sqlite:" + dir.resolve("priodp-leader.db"), StoreOptions.defaultUrl(dir));
    Files.createFile(dir.resolve("priodp-helper.db"));
    IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
        () -> StoreOptions.defaultUrl(dir));
    assertTrue(both.getMessage().contains("name the store with --db"), both.getMessage());
  }

  /**
   * With a task file, the default is the store serve opens for it, even where both files exist
   * (a Leader and a Helper tried in one folder: status --config leader.json needed --db).
   */
  @Test
  void withATaskFileTheDefaultIsTheStoreServeOpensForIt() throws Exception {
    Files.createFile(dir.resolve("priodp-leader.db"));
    Files.createFile(dir.resolve("priodp-helper.db"));
    Path tasks = dir.resolve("task");
    assertEquals(0, CliRun.taskNew(tasks).code());
    assertEquals("jdbc:sqlite:" + dir.resolve("priodp-leader.db"), StoreOptions.defaultUrl(dir,
        org.priodp.aggregator.taskfile.TaskFile.read(tasks.resolve("leader.json"))));
    assertEquals("jdbc:sqlite:" + dir.resolve("priodp-helper.db"), StoreOptions.defaultUrl(dir,
        org.priodp.aggregator.taskfile.TaskFile.read(tasks.resolve("helper.json"))));
  }
}
