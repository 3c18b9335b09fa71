package org.priodp.aggregator.datastore.jdbc;

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
import java.util.Optional;
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
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregateShareResource;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.LeaderJobReport;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;
import org.priodp.aggregator.datastore.StoreException;
import org.priodp.aggregator.datastore.TaskTransaction;

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

  private static BatchIdentifier id(long start, long duration) {
    return BatchIdentifier.of(Interval.of(start, duration).encode());
  }

  private static ByteString bs(int n, int fill) {
    return ByteString.copyOf(bytes(n, fill));
  }

  private static NoisedAggregateShare noised(TaskId task, BatchIdentifier batch, int value) {
    return new NoisedAggregateShare(task, batch, ByteString.EMPTY, 1000, bs(32, 7), bs(32, value),
        bs(40, value), Instant.ofEpochMilli(1_700_000_000_000L + value));
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void roundTripsBatchAggregationsWithUpsertAndOrderedRanges(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      for (int start = 10; start < 15; start++) {
        store.putBatchAggregation(new BatchAggregation(task, id(start, 1), ByteString.EMPTY,
            bs(16, start), start, bs(32, start)));
      }
      // uint64 values beyond 2^63 must still sort after small ones (unsigned byte order)
      store.putBatchAggregation(new BatchAggregation(task, id(-5L, 1), ByteString.EMPTY,
          bs(16, 1), -1L, bs(32, 1)));
      BatchAggregation replaced = new BatchAggregation(task, id(12, 1),
          ByteString.copyOf(new byte[] {1}), bs(16, 99), 99, bs(32, 99));
      store.putBatchAggregation(replaced);
      assertEquals(replaced, store.batchAggregation(task, BatchIdentifier.of(Interval.of(12, 1).encode())).orElseThrow());
      List<BatchAggregation> range = store.batchAggregations(task, BatchIdentifier.of(Interval.of(11, 0).encode()),
          BatchIdentifier.of(Interval.of(14, 0).encode()));
      assertEquals(3, range.size());
      assertEquals(id(11, 1), range.get(0).batch());
      assertEquals(replaced, range.get(1));
      List<BatchAggregation> all = store.batchAggregations(task,
          BatchIdentifier.of(new byte[1]), BatchIdentifier.of(bytes(17, 0xff)));
      assertEquals(6, all.size());
      assertEquals(-1L, all.get(5).reportCount());
      assertTrue(store.batchAggregation(randomTask(), BatchIdentifier.of(Interval.of(12, 1).encode())).isEmpty());
    }
  }

  /** Inserts a noised share (and its range) in a task transaction if the batch has none. */
  private static boolean insertIfAbsent(JdbcAggregateShareStore store, NoisedAggregateShare n,
      CollectedInterval range) {
    return store.inTaskTransaction(n.taskId(), tx -> {
      if (tx.noisedShare(n.batch()).isPresent()
          || (range != null && tx.collectedIntervalOverlaps(range))) {
        return false;
      }
      tx.insertNoisedShare(n, java.util.Optional.ofNullable(range));
      return true;
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aTaskTransactionCommitsOrRollsBackWhole(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      BatchIdentifier batch = BatchIdentifier.of(Interval.of(1, 10).encode());
      NoisedAggregateShare first = noised(task, batch, 1);
      assertTrue(insertIfAbsent(store, first, new CollectedInterval(1, 11)));
      assertFalse(insertIfAbsent(store, noised(task, batch, 2), new CollectedInterval(1, 11)));
      assertEquals(first, store.noisedShare(task, batch).orElseThrow());
      assertTrue(store.noisedShare(task, BatchIdentifier.of(Interval.of(2, 10).encode())).isEmpty());
      // work that throws after writing leaves nothing behind, and its exception comes out as is
      BatchIdentifier other = BatchIdentifier.of(Interval.of(40, 1).encode());
      IllegalStateException boom = assertThrows(IllegalStateException.class,
          () -> store.inTaskTransaction(task, tx -> {
            tx.insertNoisedShare(noised(task, other, 3),
                java.util.Optional.of(new CollectedInterval(40, 41)));
            throw new IllegalStateException("boom");
          }));
      assertEquals("boom", boom.getMessage());
      assertTrue(store.noisedShare(task, other).isEmpty());
      assertEquals(List.of(new CollectedInterval(1, 11)), store.collectedIntervals(task));
      // a duplicate insert is a store failure, not a silent overwrite
      assertThrows(StoreException.class, () -> store.inTaskTransaction(task, tx -> {
        tx.insertNoisedShare(noised(task, batch, 4), java.util.Optional.empty());
        return null;
      }));
      assertEquals(first, store.noisedShare(task, batch).orElseThrow());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void collectedIntervalsOverlapInUnsignedOrder(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      long big = Long.MIN_VALUE + 5; // 2^63 + 5: above every signed long
      assertTrue(insertIfAbsent(store, noised(task, id(10, 5), 1),
          new CollectedInterval(10, 15)));
      assertTrue(insertIfAbsent(store, noised(task, id(big, 5), 2),
          new CollectedInterval(big, big + 5)));
      store.inTaskTransaction(task, tx -> {
        assertTrue(tx.collectedIntervalOverlaps(new CollectedInterval(14, 16)));
        assertTrue(tx.collectedIntervalOverlaps(new CollectedInterval(0, 11)));
        assertFalse(tx.collectedIntervalOverlaps(new CollectedInterval(15, 20)), "half-open");
        assertFalse(tx.collectedIntervalOverlaps(new CollectedInterval(0, 10)), "half-open");
        assertTrue(tx.collectedIntervalOverlaps(new CollectedInterval(big + 4, -1L)));
        assertFalse(tx.collectedIntervalOverlaps(new CollectedInterval(16, big)));
        return null;
      });
      assertEquals(List.of(new CollectedInterval(10, 15), new CollectedInterval(big, big + 5)),
          store.collectedIntervals(task));
      assertTrue(store.collectedIntervals(randomTask()).isEmpty());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void concurrentTaskTransactionsOfTwoStoresSerialize(String backend) throws Exception {
    // 40 check-then-insert transactions of one task, from two store instances (two connections,
    // as two processes would have), each for a different batch whose ranges [k, k+40) pairwise
    // overlap: exactly one inserts. Without the per-task serialization two see no overlap and
    // both insert (their batch keys differ, so no constraint stops them).
    try (JdbcAggregateShareStore store = open(backend);
        JdbcAggregateShareStore second = open(backend)) {
      TaskId task = randomTask();
      ExecutorService pool = Executors.newFixedThreadPool(16);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int k = i;
        JdbcAggregateShareStore s = i % 2 == 0 ? store : second;
        results.add(pool.submit(() -> {
          start.await();
          return insertIfAbsent(s, noised(task, id(k, 40), k + 1),
              new CollectedInterval(k, k + 40));
        }));
      }
      start.countDown();
      int inserted = 0;
      for (Future<Boolean> f : results) {
        inserted += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
      }
      pool.shutdown();
      assertEquals(1, inserted, "exactly one of 40 overlapping batches is recorded");
      assertEquals(1, second.collectedIntervals(task).size());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void resourcesAreIdempotentPerRequestAndDeletionKeepsTheNoisedShare(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      BatchIdentifier batch = BatchIdentifier.of(Interval.of(5, 5).encode());
      insertIfAbsent(store, noised(task, batch, 3), null);
      AggregateShareId id = AggregateShareId.random(RANDOM);
      AggregateShareResource r = new AggregateShareResource(task, id, batch, bs(32, 1),
          Instant.ofEpochMilli(5));
      assertEquals(r, store.createResourceIfAbsent(r));
      AggregateShareResource retry = new AggregateShareResource(task, AggregateShareId.random(RANDOM),
          batch, bs(32, 1), Instant.ofEpochMilli(6));
      assertEquals(r, store.createResourceIfAbsent(retry), "a repeat request finds the first resource");
      AggregateShareResource clash = new AggregateShareResource(task, id, batch, bs(32, 2),
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
  void releasedSharesAreWrittenOnce(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      BatchIdentifier batch = BatchIdentifier.of(Interval.of(20, 10).encode());
      ReleasedAggregateShare first = new ReleasedAggregateShare(task, batch, bs(32, 1),
          bs(60, 1), Instant.ofEpochMilli(5));
      ReleasedAggregateShare second = new ReleasedAggregateShare(task, batch, bs(32, 2),
          bs(60, 2), Instant.ofEpochMilli(6));
      assertTrue(store.releasedShare(task, batch).isEmpty());
      assertEquals(first, store.putReleasedShareIfAbsent(first));
      assertEquals(first, store.putReleasedShareIfAbsent(second), "the first writer wins");
      assertEquals(first, store.releasedShare(task, batch).orElseThrow());
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
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(file)) {
      insertIfAbsent(store, n, null);
      store.putBatchAggregation(a);
    }
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(file)) {
      assertEquals(org.priodp.aggregator.datastore.jdbc.internal.Migrations.latest(), store.schemaVersion());
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
    assertThrows(IllegalStateException.class, () -> store.noisedShare(randomTask(),
        BatchIdentifier.of(new byte[1])));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> JdbcAggregateShareStore.open("jdbc:mysql://x/y?password=secret"));
    assertFalse(e.getMessage().contains("secret"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BatchIdentifier.of(new byte[0]));
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
        NoisedAggregateShare n = new NoisedAggregateShare(new TaskId(t), BatchIdentifier.of(batch),
            ByteString.copyOf(param), rnd.nextLong(), bs(32, rnd.nextInt(256)),
            bs(32, rnd.nextInt(256)), ByteString.copyOf(share),
            Instant.ofEpochMilli(rnd.nextLong() >>> 20));
        assertTrue(insertIfAbsent(store, n, null), "seed=" + seed + " case " + i);
        assertEquals(n, store.noisedShare(new TaskId(t), BatchIdentifier.of(batch)).orElseThrow(),
            "seed=" + seed);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void helperKeysJobsAndAggregatedReportsPersistPerTask(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      int configId = RANDOM.nextInt(256);
      store.setHpkeKeyState(configId, HelperHpkeKey.State.RETIRED);
      var config = new org.priodp.aggregator.dap.HpkeConfig(
          new org.priodp.aggregator.dap.HpkeConfigId(configId),
          org.priodp.aggregator.hpke.HpkeKemId.DHKEM_X25519_HKDF_SHA256,
          org.priodp.aggregator.hpke.HpkeKdfId.fromCode(1),
          org.priodp.aggregator.hpke.HpkeAeadId.fromCode(1), bytes(32, 9));
      HelperHpkeKey key = new HelperHpkeKey(config, bs(32, 3), HelperHpkeKey.State.ACTIVE,
          Instant.ofEpochMilli(1000));
      boolean inserted = store.insertHpkeKey(key);
      assertFalse(store.insertHpkeKey(key), "a config id is used once");
      if (inserted) {
        assertEquals(List.of(key.config()), store.hpkeKeys().stream()
            .filter(k -> k.config().id().value() == configId).map(HelperHpkeKey::config)
            .toList());
      }
      assertTrue(store.setHpkeKeyState(configId, HelperHpkeKey.State.RETIRED));
      assertEquals(HelperHpkeKey.State.RETIRED, store.hpkeKeys().stream()
          .filter(k -> k.config().id().value() == configId).findFirst().orElseThrow().state());

      TaskId task = randomTask();
      TaskId other = randomTask();
      var report = new org.priodp.aggregator.dap.ReportId(bytes(16, 5));
      var jobId = new org.priodp.aggregator.dap.AggregationJobId(bytes(16, 6));
      AggregationJobRecord job = new AggregationJobRecord(task, jobId, bs(32, 1), 0, bs(32, 1),
          AggregationJobRecord.State.PENDING, java.util.Optional.empty(),
          java.util.Optional.empty(), java.util.Optional.empty(), Instant.ofEpochMilli(5));
      store.inTaskTransaction(task, tx -> {
        assertFalse(tx.reportAggregated(report));
        tx.insertAggregatedReport(report, jobId);
        assertTrue(tx.reportAggregated(report));
        tx.putAggregationJob(job);
        tx.putAggregationJob(job.ready(bs(7, 2)));
        tx.putBatchAggregation(new BatchAggregation(task, id(3, 1), bs(0, 0), bs(16, 1), 1,
            bs(32, 4)));
        return null;
      });
      assertEquals(job.ready(bs(7, 2)), store.aggregationJob(task, jobId).orElseThrow());
      assertTrue(store.aggregationJob(other, jobId).isEmpty());
      assertEquals(1, store.batchAggregation(task, id(3, 1)).orElseThrow().reportCount());
      boolean seenInOther = store.inTaskTransaction(other, tx -> tx.reportAggregated(report));
      assertFalse(seenInOther,
          "replay protection is per task");
      assertThrows(StoreException.class, () -> store.inTaskTransaction(task, tx -> {
        tx.insertAggregatedReport(report, jobId);
        return null;
      }), "a report is committed once per task");
    }
  }

  private static AggregationJobRecord job(TaskId task, int n, AggregationJobRecord.State state,
      long createdMs) {
    AggregationJobRecord j = new AggregationJobRecord(task,
        new org.priodp.aggregator.dap.AggregationJobId(bytes(16, n)), bs(32, n), 0, bs(32, n),
        AggregationJobRecord.State.PENDING, java.util.Optional.empty(),
        java.util.Optional.empty(), java.util.Optional.empty(), Instant.ofEpochMilli(createdMs));
    return switch (state) {
      case PENDING -> j;
      case READY -> j.ready(bs(7, n));
      case FAILED -> j.failed("invalidMessage", "x");
      case ABANDONED -> j.ready(bs(7, n)).abandoned();
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void retentionCollectsOldReportIdsAndFinishedJobsAndKeepsTheRest(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      assertEquals(org.priodp.aggregator.datastore.jdbc.internal.Migrations.latest(), store.schemaVersion());
      TaskId task = randomTask();
      TaskId other = randomTask();
      var jobId = new org.priodp.aggregator.dap.AggregationJobId(bytes(16, 6));
      // report times in time_precision units; 1 + 2^63 checks the unsigned order
      long[] times = {5, 9, 10, 15, 0x8000_0000_0000_0001L};
      store.inTaskTransaction(task, tx -> {
        assertTrue(tx.retentionCutoff().isEmpty());
        for (int i = 0; i < times.length; i++) {
          tx.insertAggregatedReport(new org.priodp.aggregator.dap.ReportId(bytes(16, i)), jobId,
              times[i]);
        }
        // written before version 5: no time, never collected
        tx.insertAggregatedReport(new org.priodp.aggregator.dap.ReportId(bytes(16, 99)), jobId);
        for (AggregationJobRecord.State st : AggregationJobRecord.State.values()) {
          tx.putAggregationJob(job(task, 10 + st.ordinal(), st, 1_000));
          tx.putAggregationJob(job(task, 20 + st.ordinal(), st, 3_000));
        }
        tx.putBatchAggregation(new BatchAggregation(task, id(5, 1), bs(0, 0), bs(16, 1), 1,
            bs(32, 4)));
        return null;
      });
      store.inTaskTransaction(other, tx -> {
        tx.insertAggregatedReport(new org.priodp.aggregator.dap.ReportId(bytes(16, 0)), jobId, 1);
        tx.putAggregationJob(job(other, 11, AggregationJobRecord.State.READY, 1_000));
        return null;
      });

      TaskTransaction.RetentionCounts counts = store.inTaskTransaction(task,
          tx -> tx.collectExpired(10, Instant.ofEpochMilli(2_000)));
      assertEquals(new TaskTransaction.RetentionCounts(10, 2, 3), counts,
          "reports at 5 and 9; the ready, failed and abandoned jobs created at 1000 ms");
      store.inTaskTransaction(task, tx -> {
        assertEquals(java.util.Optional.of(10L), tx.retentionCutoff());
        for (int i = 0; i < times.length; i++) {
          assertEquals(times[i] >= 10 || times[i] < 0,
              tx.reportAggregated(new org.priodp.aggregator.dap.ReportId(bytes(16, i))),
              "report at " + Long.toUnsignedString(times[i]));
        }
        assertTrue(tx.reportAggregated(new org.priodp.aggregator.dap.ReportId(bytes(16, 99))));
        for (AggregationJobRecord.State st : AggregationJobRecord.State.values()) {
          assertEquals(st == AggregationJobRecord.State.PENDING,
              tx.aggregationJob(job(task, 10 + st.ordinal(), st, 1_000).jobId()).isPresent(),
              "old " + st);
          assertTrue(tx.aggregationJob(job(task, 20 + st.ordinal(), st, 3_000).jobId())
              .isPresent(), "new " + st);
        }
        return null;
      });
      assertTrue(store.batchAggregation(task, id(5, 1)).isPresent(), "buckets are kept");
      // other tasks are untouched
      store.inTaskTransaction(other, tx -> {
        assertTrue(tx.retentionCutoff().isEmpty());
        assertTrue(tx.reportAggregated(new org.priodp.aggregator.dap.ReportId(bytes(16, 0))));
        assertTrue(tx.aggregationJob(job(other, 11, AggregationJobRecord.State.READY, 1_000)
            .jobId()).isPresent());
        return null;
      });
      // the cutoff never goes back (a replica with a slower clock or a shorter setting)
      TaskTransaction.RetentionCounts again = store.inTaskTransaction(task,
          tx -> tx.collectExpired(3, Instant.ofEpochMilli(0)));
      assertEquals(new TaskTransaction.RetentionCounts(10, 0, 0), again);
      TaskTransaction.RetentionCounts later = store.inTaskTransaction(task,
          tx -> tx.collectExpired(15, Instant.ofEpochMilli(0)));
      assertEquals(new TaskTransaction.RetentionCounts(15, 1, 0), later);
    }
  }

  // ---- Leader aggregation (issue 17) ----

  private static ByteString token(int fill) {
    return bs(16, fill);
  }

  private static org.priodp.aggregator.dap.AggregationJobId jobId(int fill) {
    return new org.priodp.aggregator.dap.AggregationJobId(bytes(16, fill));
  }

  private static org.priodp.aggregator.dap.ReportId reportId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return new org.priodp.aggregator.dap.ReportId(b);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void leaderJobsClaimOldestReportsAndLeaseByToken(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      List<org.priodp.aggregator.dap.ReportId> ids = new ArrayList<>();
      for (long t : new long[] {3, 1, 2, 5, 4}) {
        org.priodp.aggregator.dap.ReportId id = reportId();
        ids.add(id);
        boolean inserted = store.inTaskTransaction(task, tx -> tx.insertClientReport(id, t,
            bs(10, (int) t)));
        assertTrue(inserted);
      }
      boolean again = store.inTaskTransaction(task, tx -> tx.insertClientReport(ids.get(0), 3,
          bs(10, 3)));
      assertFalse(again, "INSERT if absent");
      Instant t0 = Instant.ofEpochMilli(1_000_000);
      LeaderAggregationJob j1 = store.inTaskTransaction(task,
          tx -> tx.createLeaderAggregationJob(jobId(1), 3, 1, Optional.empty(), t0)).orElseThrow();
      assertEquals(3, j1.reportCount());
      assertEquals(1, j1.minReportTime());
      assertEquals(3, j1.maxReportTime());
      assertEquals(List.of(1L, 2L, 3L), store.leaderJobReports(task, jobId(1)).stream()
          .map(LeaderJobReport::time).toList(), "oldest first");
      assertTrue(store.inTaskTransaction(task,
          tx -> tx.createLeaderAggregationJob(jobId(2), 3, 3, Optional.empty(), t0)).isEmpty(), "2 < minReports");
      store.inTaskTransaction(task,
          tx -> tx.createLeaderAggregationJob(jobId(2), 3, 1, Optional.of(id(7, 1)), t0.plusMillis(1))).orElseThrow();
      assertEquals(2, store.leaderJobReports(task, jobId(2)).size());
      assertEquals(Optional.of(id(7, 1)), store.leaderAggregationJob(task, jobId(2))
          .orElseThrow().batch());
      assertEquals(Optional.of(new TaskTransaction.LeaderBatchFill(id(7, 1), 2)),
          store.inTaskTransaction(task, tx -> tx.openLeaderBatch(3)));
      assertEquals(Optional.empty(), store.inTaskTransaction(task, tx -> tx.openLeaderBatch(2)));
      assertTrue(store.inTaskTransaction(task,
          tx -> tx.createLeaderAggregationJob(jobId(3), 3, 1, Optional.empty(), t0)).isEmpty(), "none left");

      java.time.Duration minute = java.time.Duration.ofMinutes(1);
      LeaderAggregationJob a = store.leaseLeaderAggregationJob(List.of(task), "a", token(0xa),
          t0, minute).orElseThrow();
      assertEquals(jobId(1), a.jobId(), "oldest job first");
      assertEquals(1, a.leaseAttempts());
      LeaderAggregationJob b = store.leaseLeaderAggregationJob(List.of(task), "b", token(0xb),
          t0, minute).orElseThrow();
      assertEquals(jobId(2), b.jobId());
      assertTrue(store.leaseLeaderAggregationJob(List.of(task), "c", token(0xc), t0, minute)
          .isEmpty(), "both leased");
      assertTrue(store.leaseLeaderAggregationJob(List.of(randomTask()), "c", token(0xc),
          t0.plus(minute.multipliedBy(2)), minute).isEmpty(), "another task's jobs only");
      // a's lease expires: c takes job 1 over; a can neither release nor abandon it any more
      LeaderAggregationJob c = store.leaseLeaderAggregationJob(List.of(task), "c", token(0xc),
          t0.plus(minute.multipliedBy(2)), minute).orElseThrow();
      assertEquals(jobId(1), c.jobId());
      assertEquals(2, c.leaseAttempts());
      assertFalse(store.releaseLeaderAggregationJob(task, jobId(1), token(0xa), t0, "stale"));
      assertFalse(store.abandonLeaderAggregationJob(task, jobId(1), token(0xa), "stale", t0));
      assertTrue(store.inTaskTransaction(task, tx -> tx.leaderAggregationJob(jobId(1)))
          .orElseThrow().leasedWith(token(0xc)));
      // c releases until t0+5min with a detail; nobody gets it before
      assertTrue(store.releaseLeaderAggregationJob(task, jobId(1), token(0xc),
          t0.plus(minute.multipliedBy(5)), "helper down"));
      assertEquals(Optional.of("helper down"), store.leaderAggregationJob(task, jobId(1))
          .orElseThrow().errorDetail());
      Instant t3 = t0.plus(minute.multipliedBy(3));
      LeaderAggregationJob d = store.leaseLeaderAggregationJob(List.of(task), "d", token(0xd),
          t3, minute).orElseThrow();
      assertEquals(jobId(2), d.jobId(), "job 1 waits for its retry time; job 2's lease expired");
      assertTrue(store.abandonLeaderAggregationJob(task, jobId(2), token(0xd), "gave up", t3));
      assertEquals(LeaderAggregationJob.State.ABANDONED,
          store.leaderAggregationJob(task, jobId(2)).orElseThrow().state());
      LeaderAggregationJob e = store.leaseLeaderAggregationJob(List.of(task), "e", token(0xe),
          t0.plus(minute.multipliedBy(6)), minute).orElseThrow();
      assertEquals(jobId(1), e.jobId());
      assertEquals(3, e.leaseAttempts());
      store.inTaskTransaction(task, tx -> {
        assertEquals(Set.of(), tx.aggregatedAmong(ids));
        tx.insertAggregatedReports(jobId(1), java.util.Map.of(ids.get(1), 1L, ids.get(2), 2L));
        assertEquals(Set.of(ids.get(1), ids.get(2)), tx.aggregatedAmong(ids));
        tx.finishLeaderAggregationJob(jobId(1), t0);
        return null;
      });
      LeaderAggregationJob done = store.leaderAggregationJob(task, jobId(1)).orElseThrow();
      assertEquals(LeaderAggregationJob.State.FINISHED, done.state());
      assertTrue(done.leaseToken().isEmpty());
      assertTrue(store.leaseLeaderAggregationJob(List.of(task), "f", token(0xf),
          t0.plus(minute.multipliedBy(60)), minute).isEmpty(), "finished and abandoned");
    }
  }

  /**
   * Eight threads lease at once from four free jobs: each job goes to exactly one of them and
   * every job is leased (PostgreSQL: SKIP LOCKED passes over a row another lease is taking).
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void concurrentLeasesTakeDistinctJobs(String backend) throws Exception {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      Instant t0 = Instant.ofEpochMilli(2_000_000);
      for (int j = 0; j < 4; j++) {
        int jj = j;
        store.inTaskTransaction(task, tx -> tx.insertClientReport(reportId(), jj, bs(4, jj)));
        store.inTaskTransaction(task, tx -> tx.createLeaderAggregationJob(jobId(jj + 1), 1, 1,
            Optional.empty(), t0.plusMillis(jj))).orElseThrow();
      }
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Optional<LeaderAggregationJob>>> fs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          int ii = i;
          fs.add(pool.submit(() -> {
            go.await();
            return store.leaseLeaderAggregationJob(List.of(task), "w" + ii, token(ii + 1),
                t0.plusSeconds(1), java.time.Duration.ofMinutes(1));
          }));
        }
        go.countDown();
        List<org.priodp.aggregator.dap.AggregationJobId> leased = new ArrayList<>();
        for (Future<Optional<LeaderAggregationJob>> f : fs) {
          f.get(60, TimeUnit.SECONDS).ifPresent(j -> leased.add(j.jobId()));
        }
        assertEquals(4, new HashSet<>(leased).size(), "every job leased: " + leased);
        assertEquals(4, leased.size(), "no job leased twice: " + leased);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void retentionDeletesTheLeadersOldReportsExceptThoseOfActiveJobs(String backend) {
    try (JdbcAggregateShareStore store = open(backend)) {
      TaskId task = randomTask();
      Instant now = Instant.ofEpochSecond(1_700_000_000L);
      // times 5 (two reports, claimed by a job that finishes), 6 (claimed by a job that stays
      // active), 7 (unclaimed) and 20 (unclaimed, newer than the cutoff 10)
      long[] times = {5, 5, 6, 7, 20};
      org.priodp.aggregator.dap.ReportId[] ids = new org.priodp.aggregator.dap.ReportId[times.length];
      for (int i = 0; i < times.length; i++) {
        ids[i] = new org.priodp.aggregator.dap.ReportId(bytes(16, i + 1));
        int k = i;
        boolean inserted = store.inTaskTransaction(task, tx -> tx.insertClientReport(ids[k],
            times[k], bs(8, k)));
        assertTrue(inserted);
      }
      var finished = new org.priodp.aggregator.dap.AggregationJobId(bytes(16, 40));
      var active = new org.priodp.aggregator.dap.AggregationJobId(bytes(16, 41));
      store.inTaskTransaction(task, tx -> {
        assertEquals(2, tx.createLeaderAggregationJob(finished, 2, 1, Optional.empty(), now)
            .orElseThrow().reportCount());
        tx.finishLeaderAggregationJob(finished, now);
        assertEquals(1, tx.createLeaderAggregationJob(active, 1, 1, Optional.empty(), now)
            .orElseThrow().reportCount());
        return null;
      });
      var counts = store.inTaskTransaction(task, tx -> tx.collectExpired(10, now));
      assertEquals(3, counts.reports(), "times 5, 5 and 7");
      store.inTaskTransaction(task, tx -> {
        assertTrue(tx.clientReport(ids[0]).isEmpty());
        assertTrue(tx.clientReport(ids[1]).isEmpty());
        assertTrue(tx.clientReport(ids[2]).isPresent(), "held by an active job");
        assertTrue(tx.clientReport(ids[3]).isEmpty());
        assertTrue(tx.clientReport(ids[4]).isPresent(), "newer than the cutoff");
        return null;
      });
    }
  }
}
