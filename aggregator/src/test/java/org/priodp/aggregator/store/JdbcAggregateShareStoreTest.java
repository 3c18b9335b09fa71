package org.priodp.aggregator.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskId;

class JdbcAggregateShareStoreTest {
  private static final String PG_ENV = "PRIODP_PG_URL";
  private static final SecureRandom RANDOM = new SecureRandom();

  @TempDir
  Path dir;

  /** Opens a store on the named backend; PostgreSQL only when PRIODP_PG_URL is set. */
  private JdbcAggregateShareStore open(String backend) {
    if (backend.equals("postgresql")) {
      String url = System.getenv(PG_ENV);
      if (url == null || url.isBlank()) {
        System.out.println("SKIPPED PostgreSQL store test: " + PG_ENV + " is not set");
      }
      Assumptions.assumeTrue(url != null && !url.isBlank(),
          "PostgreSQL tests skipped: set " + PG_ENV + " (e.g. jdbc:postgresql://localhost/priodp?user=..&password=..)");
      return JdbcAggregateShareStore.open(url);
    }
    return JdbcAggregateShareStore.openSqlite(dir.resolve("store.db"));
  }

  private static TaskId randomTask() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return new TaskId(b);
  }

  private static byte[] bytes(int n, int fill) {
    byte[] b = new byte[n];
    java.util.Arrays.fill(b, (byte) fill);
    return b;
  }

  private static NoisedAggregateShare noised(TaskId task, byte[] batch, int value) {
    return new NoisedAggregateShare(task, batch, new byte[0], 1000, bytes(32, 7), bytes(32, value),
        bytes(40, value), Instant.ofEpochMilli(1_700_000_000_000L + value));
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void roundTripsBatchAggregationsWithUpsertAndOrderedRanges(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      for (int start = 10; start < 15; start++) {
        store.putBatchAggregation(new BatchAggregation(task, Interval.of(start, 1).encode(),
            new byte[0], bytes(16, start), start, bytes(32, start)));
      }
      // uint64 values beyond 2^63 must still sort after small ones (unsigned byte order)
      store.putBatchAggregation(new BatchAggregation(task, Interval.of(-5L, 1).encode(),
          new byte[0], bytes(16, 1), -1L, bytes(32, 1)));
      BatchAggregation replaced = new BatchAggregation(task, Interval.of(12, 1).encode(),
          new byte[] {1}, bytes(16, 99), 99, bytes(32, 99));
      store.putBatchAggregation(replaced);
      assertEquals(replaced, store.batchAggregation(task, Interval.of(12, 1).encode()).orElseThrow());
      List<BatchAggregation> range = store.batchAggregations(task, Interval.of(11, 0).encode(),
          Interval.of(14, 0).encode());
      assertEquals(3, range.size());
      assertArrayEquals(Interval.of(11, 1).encode(), range.get(0).batchIdentifier());
      assertEquals(replaced, range.get(1));
      List<BatchAggregation> all = store.batchAggregations(task, new byte[0], bytes(17, 0xff));
      assertEquals(6, all.size());
      assertEquals(-1L, all.get(5).reportCount());
      assertTrue(store.batchAggregation(randomTask(), Interval.of(12, 1).encode()).isEmpty());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void firstNoisedShareWinsAndIsReturnedToLaterWriters(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      byte[] batch = Interval.of(1, 10).encode();
      NoisedAggregateShare first = noised(task, batch, 1);
      assertEquals(first, store.putNoisedShareIfAbsent(first));
      assertEquals(first, store.putNoisedShareIfAbsent(noised(task, batch, 2)));
      assertEquals(first, store.noisedShare(task, batch).orElseThrow());
      assertTrue(store.noisedShare(task, Interval.of(2, 10).encode()).isEmpty());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void fiftyConcurrentWritersLeaveExactlyOneShare(String backend) throws Exception {
    try (JdbcAggregateShareStore store = open(backend);
        JdbcAggregateShareStore second = open(backend)) {
      TaskId task = randomTask();
      byte[] batch = Interval.of(100, 1).encode();
      ExecutorService pool = Executors.newFixedThreadPool(50);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<NoisedAggregateShare>> results = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        int value = i + 1;
        JdbcAggregateShareStore s = i % 2 == 0 ? store : second; // two connections/instances
        results.add(pool.submit(() -> {
          start.await();
          return s.putNoisedShareIfAbsent(noised(task, batch, value));
        }));
      }
      start.countDown();
      Set<NoisedAggregateShare> seen = new HashSet<>();
      for (Future<NoisedAggregateShare> f : results) {
        seen.add(f.get(30, TimeUnit.SECONDS));
      }
      pool.shutdown();
      assertEquals(1, seen.size(), "every writer must get the same stored share");
      NoisedAggregateShare winner = seen.iterator().next();
      assertEquals(winner, store.noisedShare(task, batch).orElseThrow());
      assertEquals(winner, second.noisedShare(task, batch).orElseThrow());
      int v = winner.noisedShare()[0];
      assertTrue(v >= 1 && v <= 50);
      assertEquals(noised(task, batch, v), winner, "the winner is stored intact");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void resourcesAreIdempotentPerRequestAndDeletionKeepsTheNoisedShare(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      byte[] batch = Interval.of(5, 5).encode();
      store.putNoisedShareIfAbsent(noised(task, batch, 3));
      AggregateShareId id = AggregateShareId.random(RANDOM);
      AggregateShareResource r = new AggregateShareResource(task, id, batch, bytes(32, 1),
          Instant.ofEpochMilli(5));
      assertEquals(r, store.createResourceIfAbsent(r));
      AggregateShareResource retry = new AggregateShareResource(task, AggregateShareId.random(RANDOM),
          batch, bytes(32, 1), Instant.ofEpochMilli(6));
      assertEquals(r, store.createResourceIfAbsent(retry), "a repeat request finds the first resource");
      AggregateShareResource clash = new AggregateShareResource(task, id, batch, bytes(32, 2),
          Instant.ofEpochMilli(7));
      assertThrows(StoreException.class, () -> store.createResourceIfAbsent(clash));
      assertEquals(r, store.resource(task, id).orElseThrow());
      assertTrue(store.deleteResource(task, id));
      assertFalse(store.deleteResource(task, id));
      assertTrue(store.resource(task, id).isEmpty());
      assertEquals(noised(task, batch, 3), store.noisedShare(task, batch).orElseThrow());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void releasedSharesAreWrittenOnceAndNoisedBatchesAreListed(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      byte[] batch = Interval.of(20, 10).encode();
      ReleasedAggregateShare first = new ReleasedAggregateShare(task, batch, bytes(32, 1),
          bytes(60, 1), Instant.ofEpochMilli(5));
      ReleasedAggregateShare second = new ReleasedAggregateShare(task, batch, bytes(32, 2),
          bytes(60, 2), Instant.ofEpochMilli(6));
      assertTrue(store.releasedShare(task, batch).isEmpty());
      assertEquals(first, store.putReleasedShareIfAbsent(first));
      assertEquals(first, store.putReleasedShareIfAbsent(second), "the first writer wins");
      assertEquals(first, store.releasedShare(task, batch).orElseThrow());

      assertTrue(store.noisedBatchIdentifiers(task).isEmpty());
      byte[] b2 = Interval.of(10, 10).encode();
      store.putNoisedShareIfAbsent(noised(task, batch, 1));
      store.putNoisedShareIfAbsent(noised(task, b2, 2));
      List<byte[]> ids = store.noisedBatchIdentifiers(task);
      assertEquals(2, ids.size());
      assertArrayEquals(b2, ids.get(0));
      assertArrayEquals(batch, ids.get(1));
      assertTrue(store.noisedBatchIdentifiers(randomTask()).isEmpty());
    }
  }

  @Test
  void sqliteDataSurvivesReopenAndUsesWalWithFullSync() throws Exception {
    Path file = dir.resolve("reopen.db");
    TaskId task = randomTask();
    byte[] batch = Interval.of(7, 1).encode();
    NoisedAggregateShare n = noised(task, batch, 9);
    BatchAggregation a = new BatchAggregation(task, batch, new byte[0], bytes(8, 1), 3, bytes(32, 3));
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(file)) {
      store.putNoisedShareIfAbsent(n);
      store.putBatchAggregation(a);
    }
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(file)) {
      assertEquals(org.priodp.aggregator.store.internal.Migrations.latest(), store.schemaVersion());
      assertEquals(n, store.noisedShare(task, batch).orElseThrow());
      assertEquals(a, store.batchAggregation(task, batch).orElseThrow());
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
    JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("c.db"));
    store.close();
    store.close();
    assertThrows(IllegalStateException.class, () -> store.noisedShare(randomTask(), new byte[1]));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> JdbcAggregateShareStore.open("jdbc:mysql://x/y?password=secret"));
    assertFalse(e.getMessage().contains("secret"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> noised(randomTask(), new byte[0], 1));
  }

  @Test
  void randomRoundTripsOfNoisedShares() {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("JdbcAggregateShareStoreTest.randomRoundTripsOfNoisedShares seed=" + seed);
    Random rnd = new Random(seed);
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("r.db"))) {
      for (int i = 0; i < 50; i++) {
        byte[] t = new byte[32];
        rnd.nextBytes(t);
        byte[] batch = new byte[1 + rnd.nextInt(40)];
        rnd.nextBytes(batch);
        byte[] param = new byte[rnd.nextInt(5)];
        rnd.nextBytes(param);
        byte[] share = new byte[rnd.nextInt(2000)];
        rnd.nextBytes(share);
        NoisedAggregateShare n = new NoisedAggregateShare(new TaskId(t), batch, param, rnd.nextLong(),
            bytes(32, rnd.nextInt(256)), bytes(32, rnd.nextInt(256)), share,
            Instant.ofEpochMilli(rnd.nextLong() >>> 20));
        assertEquals(n, store.putNoisedShareIfAbsent(n), "seed=" + seed + " case " + i);
        assertEquals(n, store.noisedShare(new TaskId(t), batch).orElseThrow(), "seed=" + seed);
      }
    }
  }
}
