package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.datastore.VdafVerifyKey;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.MutableClock;

/**
 * A task's VDAF verification keys in the store (DAP-19 "Leader Initialization", "Helper
 * Initialization"): the task file's keys are stored without overriding stored ones, the Helper
 * finds only active keys, the Leader prefers the newest active key the Helper has not refused
 * within the backoff.
 */
class VdafVerifyKeysTest {
  @TempDir
  Path dir;

  private static byte[] key(int fill) {
    byte[] k = new byte[32];
    java.util.Arrays.fill(k, (byte) fill);
    return k;
  }

  @Test
  void theFilesKeysAreStoredOnceAndAStoredStateWins() {
    TaskDefinition task = Fixture.laplace(1).task.withVdafVerifyKeys(Map.of(0, key(1), 2, key(2)));
    MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_000_000));
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("k.db"))) {
      VdafVerifyKeys keys = new VdafVerifyKeys(store, clock);
      assertEquals(List.of(0, 2), keys.all(task).stream().map(VdafVerifyKey::id).toList());
      assertArrayEquals(key(2), keys.active(task, 2).orElseThrow());
      assertTrue(keys.retire(task, 0));
      assertEquals(Optional.empty(), keys.active(task, 0), "a retired key is not accepted");
      assertEquals(Optional.empty(), keys.active(task, 5), "nor an unknown one");
      // another process (a restart) with the same task file: key 0 stays retired
      VdafVerifyKeys restarted = new VdafVerifyKeys(store, clock);
      assertEquals(Optional.empty(), restarted.active(task, 0));
      assertFalse(restarted.add(task, 2, key(9)), "an id is never reused");
      assertArrayEquals(key(2), restarted.active(task, 2).orElseThrow());
      assertThrows(IllegalArgumentException.class, () -> restarted.add(task, 3, new byte[16]));
    }
  }

  @Test
  void aKeyAddedBeforeTheTaskIsFirstUsedIsStillNewerThanTheFilesKeys() {
    // key 0 of the file, key 1 added: with a clock that moves 1 ms at each reading, the
    // order in which add reads the time decides which key is newer
    TaskDefinition task = Fixture.laplace(3).task.withVdafVerifyKeys(Map.of(1, key(1)));
    java.util.concurrent.atomic.AtomicLong ms = new java.util.concurrent.atomic.AtomicLong(1);
    java.time.Clock clock = new java.time.Clock() {
      @Override
      public java.time.ZoneId getZone() {
        return java.time.ZoneOffset.UTC;
      }

      @Override
      public java.time.Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(ms.getAndIncrement());
      }
    };
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("n.db"))) {
      // the operator's verify-keys add comes before serve ever used the task
      assertTrue(new VdafVerifyKeys(store, clock).add(task, 0, key(2)));
      assertEquals(0, new VdafVerifyKeys(store, clock).choose(task).orElseThrow().id(),
          "the added key, though its id is lower than the file's");
    }
  }

  @Test
  void aDap18LeaderKeepsItsOldestActiveKeyUntilItIsRetired() {
    TaskDefinition task = Fixture.laplace(4).task.withVdafVerifyKeys(Map.of(5, key(1)))
        .withDapVersion(org.priodp.aggregator.dap.DapVersion.DAP_18);
    MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_000_000));
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("d18.db"))) {
      VdafVerifyKeys keys = new VdafVerifyKeys(store, clock);
      assertEquals(5, keys.choose(task).orElseThrow().id());
      clock.advance(Duration.ofSeconds(1));
      assertTrue(keys.add(task, 6, key(2)));
      assertEquals(5, keys.choose(task).orElseThrow().id(), "adding a key changes nothing");
      assertTrue(keys.retire(task, 5));
      assertEquals(6, keys.choose(task).orElseThrow().id(), "retiring the old key does");
    }
  }

  @Test
  void theLeaderSendsTheNewestKeyTheHelperHasNotRefusedLately() {
    TaskDefinition task = Fixture.laplace(2).task.withVdafVerifyKeys(Map.of(0, key(1)));
    MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_000_000));
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("c.db"))) {
      VdafVerifyKeys keys = new VdafVerifyKeys(store, clock);
      assertEquals(0, keys.choose(task).orElseThrow().id());
      clock.advance(Duration.ofSeconds(1));
      assertTrue(keys.add(task, 1, key(2)));
      VdafVerifyKey k1 = keys.choose(task).orElseThrow();
      assertEquals(1, k1.id(), "the newest");
      store.inTaskTransaction(task.taskId(), tx -> {
        VdafVerifyKeys.recordHelperAnswer(tx, k1, false, clock.instant());
        return null;
      });
      assertEquals(0, keys.choose(task).orElseThrow().id(), "key 1 refused: back to key 0");
      clock.advance(VdafVerifyKeys.HELPER_REFUSAL_BACKOFF);
      assertEquals(1, keys.choose(task).orElseThrow().id(), "tried again after the backoff");
      // every key refused lately: the one refused longest ago
      VdafVerifyKey k0 = keys.all(task).get(0);
      store.inTaskTransaction(task.taskId(), tx -> {
        VdafVerifyKeys.recordHelperAnswer(tx, k0, false, clock.instant());
        return null;
      });
      clock.advance(Duration.ofSeconds(1));
      VdafVerifyKey again1 = keys.all(task).get(1);
      store.inTaskTransaction(task.taskId(), tx -> {
        VdafVerifyKeys.recordHelperAnswer(tx, again1, false, clock.instant());
        return null;
      });
      assertEquals(0, keys.choose(task).orElseThrow().id());
      assertTrue(keys.retire(task, 0));
      assertTrue(keys.retire(task, 1));
      assertEquals(Optional.empty(), keys.choose(task), "no active key");
    }
  }
}
