package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.id;
import static org.priodp.aggregator.datastore.jdbc.Stores.insertIfAbsent;
import static org.priodp.aggregator.datastore.jdbc.Stores.noised;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.jdbc.internal.Migrations;

class JdbcDatastoreTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aTaskTransactionCommitsOrRollsBackWhole(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      BatchIdentifier batch = BatchIdentifier.of(Interval.of(1, 10).encode());
      NoisedAggregateShare first = noised(task, batch, 1);
      assertTrue(insertIfAbsent(store, first, new CollectedInterval(1, 11)));
      assertFalse(insertIfAbsent(store, noised(task, batch, 2), new CollectedInterval(1, 11)));
      assertEquals(first, store.inTaskTransaction(task, tx -> tx.releases().noisedShare(batch))
          .orElseThrow());
      assertTrue(store.inTaskTransaction(task, tx -> tx.releases()
          .noisedShare(BatchIdentifier.of(Interval.of(2, 10).encode()))).isEmpty());
      // work that throws after writing leaves nothing behind, and its exception comes out as is
      BatchIdentifier other = BatchIdentifier.of(Interval.of(40, 1).encode());
      IllegalStateException boom = assertThrows(IllegalStateException.class,
          () -> store.inTaskTransaction(task, tx -> {
            tx.releases().insertNoisedShare(noised(task, other, 3),
                Optional.of(new CollectedInterval(40, 41)));
            throw new IllegalStateException("boom");
          }));
      assertEquals("boom", boom.getMessage());
      assertTrue(store.inTaskTransaction(task, tx -> tx.releases().noisedShare(other)).isEmpty());
      assertEquals(List.of(new CollectedInterval(1, 11)),
          store.inTaskTransaction(task, tx -> tx.releases().collectedIntervals()));
      // a duplicate insert is a store failure, not a silent overwrite
      assertThrows(DatastoreException.class, () -> store.inTaskTransaction(task, tx -> {
        tx.releases().insertNoisedShare(noised(task, batch, 4), Optional.empty());
        return null;
      }));
      assertEquals(first, store.inTaskTransaction(task, tx -> tx.releases().noisedShare(batch))
          .orElseThrow());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void concurrentTaskTransactionsOfTwoStoresSerialize(String backend) throws Exception {
    // 40 check-then-insert transactions of one task, from two store instances (two connections,
    // as two processes would have), each for a different batch whose ranges [k, k+40) pairwise
    // overlap: exactly one inserts. Without the per-task serialization two see no overlap and
    // both insert (their batch keys differ, so no constraint stops them).
    try (JdbcDatastore store = Stores.open(backend, dir);
        JdbcDatastore second = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      List<Boolean> results = Stores.atOnce(16, 40, k -> () -> insertIfAbsent(
          k % 2 == 0 ? store : second, noised(task, id(k, 40), k + 1),
          new CollectedInterval(k, k + 40)));
      long inserted = results.stream().filter(b -> b).count();
      assertEquals(1, inserted, "exactly one of 40 overlapping batches is recorded");
      assertEquals(1, second.inTaskTransaction(task, tx -> tx.releases().collectedIntervals())
          .size());
    }
  }

  @Test
  void sqliteDataSurvivesReopenAndUsesWalWithFullSync() throws Exception {
    Path file = dir.resolve("reopen.db");
    TaskId task = randomTask();
    BatchIdentifier batch = BatchIdentifier.of(Interval.of(7, 1).encode());
    NoisedAggregateShare n = noised(task, batch, 9);
    BatchAggregation a = new BatchAggregation(task, batch, ByteString.EMPTY, bs(8, 1), 3,
        bs(32, 3));
    try (JdbcDatastore store = JdbcDatastore.openSqlite(file)) {
      insertIfAbsent(store, n, null);
      store.inTaskTransaction(task, tx -> {
        tx.batchBuckets().put(a);
        return null;
      });
    }
    try (JdbcDatastore store = JdbcDatastore.openSqlite(file)) {
      assertEquals(Migrations.latest(), store.schemaVersion());
      assertEquals(n, store.inTaskTransaction(task, tx -> tx.releases().noisedShare(batch))
          .orElseThrow());
      assertEquals(a, store.inTaskTransaction(task, tx -> tx.batchBuckets().get(batch))
          .orElseThrow());
    }
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
      rs.next();
      assertEquals("wal", rs.getString(1).toLowerCase(java.util.Locale.ROOT));
    }
  }

  @Test
  void closedStoresAndUnknownUrlsFailClearly() {
    JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("c.db"));
    store.close();
    store.close();
    assertThrows(IllegalStateException.class, () -> store.inTaskTransaction(randomTask(),
        tx -> tx.releases().noisedShare(BatchIdentifier.of(new byte[1]))));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> JdbcDatastore.open("jdbc:mysql://x/y?password=secret"));
    assertFalse(e.getMessage().contains("secret"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BatchIdentifier.of(new byte[0]));
  }

  /**
   * A task transaction opened inside another on the same thread would, on PostgreSQL, wait for
   * the task lock its own thread holds on another connection, and on SQLite commit the outer
   * transaction early: it is refused, and the outer transaction still commits whole.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void taskTransactionsDoNotNest(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      BatchIdentifier batch = id(3, 1);
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> store.inTaskTransaction(task, tx -> {
            tx.releases().insertNoisedShare(noised(task, batch, 1), Optional.empty());
            return store.inTaskTransaction(task, inner -> inner.releases().noisedShare(batch));
          }));
      assertTrue(e.getMessage().contains("do not nest"), e.getMessage());
      assertTrue(store.inTaskTransaction(task, tx -> tx.releases().noisedShare(batch)).isEmpty(),
          "the outer transaction rolled back");
      assertTrue(insertIfAbsent(store, noised(task, batch, 1), null), "the thread can go on");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void answersReadinessAndReportsItsSchemaVersion(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      store.checkReady();
      assertEquals(Migrations.latest(), store.schemaVersion());
      assertEquals(backend, store.dialect().migrationFolder());
    }
  }
}
