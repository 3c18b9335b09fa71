package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobExtension;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.dp.DpStrategy;

class NoisedShareServiceTest {
  @TempDir
  Path dir;

  private static NoisedShareService service(JdbcDatastore store) {
    return new NoisedShareService(store, RandomSource.seeded(new byte[] {1}), Clock.systemUTC());
  }

  private static DapError refusal(Runnable r) {
    return assertThrows(Refusal.class, r::run).dapError().orElseThrow();
  }

  @Test
  void noiseIsDrawnOnceAndRepeatsAndRestartsReturnTheSameBytes() throws Exception {
    Fixture f = Fixture.laplace(1);
    Path db = dir.resolve("s.db");
    AggregateShareReq req = f.request(0, 3);
    byte[] first;
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      f.writeBuckets(store, 5);
      NoisedShareService s = service(store);
      first = s.release(f.task, req).aggregateShare().toByteArray();
      assertArrayEquals(first, s.release(f.task, req).aggregateShare().toByteArray());
      assertEquals(1, s.noiseDraws());
      byte[] opened = f.open(first, req);
      assertEquals(f.unnoised(0, 3).length, opened.length);
      assertFalse(Arrays.equals(f.unnoised(0, 3), opened), "a DP task never releases un-noised");
      assertArrayEquals(store.inTaskTransaction(f.taskId,
          tx -> tx.releases().noisedShare(BatchBuckets.batchIdentifier(req.batchSelector())))
          .orElseThrow().noisedShare().toByteArray(), opened);
    }
    try (JdbcDatastore store = JdbcDatastore.openSqlite(db)) {
      NoisedShareService s = service(store);
      assertArrayEquals(first, s.release(f.task, req).aggregateShare().toByteArray(), "same bytes after restart");
      assertEquals(0, s.noiseDraws());
    }
  }

  @Test
  void theObserverHearsOfPersistedNoiseBeforeAnythingIsSealed() throws Exception {
    Fixture f = Fixture.laplace(9);
    AggregateShareReq req = f.request(0, 3);
    var batch = BatchBuckets.batchIdentifier(req.batchSelector());
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("o.db"))) {
      f.writeBuckets(store, 5);
      List<String> heard = new ArrayList<>();
      NoisedShareService crashing = new NoisedShareService(store,
          RandomSource.seeded(new byte[] {1}), Clock.systemUTC(), (taskId, b) -> {
            heard.add(taskId.equals(f.taskId) + " " + b.equals(batch) + " noised "
                + store.inTaskTransaction(f.taskId,
                    tx -> tx.releases().noisedShare(batch)).isPresent() + " released "
                + store.inTaskTransaction(f.taskId,
                    tx -> tx.releases().releasedShare(batch)).isPresent());
            throw new IllegalStateException("crash");
          });
      assertThrows(IllegalStateException.class, () -> crashing.release(f.task, req));
      assertEquals(List.of("true true noised true released false"), heard);
      byte[] persisted = store.inTaskTransaction(f.taskId,
          tx -> tx.releases().noisedShare(batch)).orElseThrow().noisedShare()
          .toByteArray();
      NoisedShareService restarted = service(store);
      byte[] released = restarted.release(f.task, req).aggregateShare().toByteArray();
      assertArrayEquals(persisted, f.open(released, req), "the persisted noise is released");
      assertEquals(0, restarted.noiseDraws(), "nothing drawn again");
    }
  }

  /**
   * The pipeline hears of a batch's release once: not of a repeat (answered from the stored
   * share), nor of a restarted service sealing a share a crash left unsealed twice.
   */
  @Test
  void thePipelineHearsOfEachFirstReleaseOnceAndNeverOfARepeat() throws Exception {
    Fixture f = Fixture.laplace(10);
    AggregateShareReq req = f.request(0, 3);
    AggregateShareReq other = f.request(3, 5);
    List<String> heard = new ArrayList<>();
    PipelineObserver recorder = new PipelineObserver() {
      @Override
      public void shareReleased(org.priodp.aggregator.dap.TaskId task,
          org.priodp.aggregator.dap.Role role) {
        heard.add(task.equals(f.taskId) + " " + role);
      }
    };
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("p.db"))) {
      f.writeBuckets(store, 5);
      NoisedShareService s = new NoisedShareService(store, RandomSource.seeded(new byte[] {1}),
          Clock.systemUTC(), ReleaseObserver.NONE, recorder);
      s.release(f.task, req);
      s.release(f.task, req);
      assertEquals(List.of("true HELPER"), heard, "a repeat is not a release");
      NoisedShareService crashing = new NoisedShareService(store,
          RandomSource.seeded(new byte[] {2}), Clock.systemUTC(), (t, b) -> {
            throw new IllegalStateException("crash");
          }, recorder);
      assertThrows(IllegalStateException.class, () -> crashing.release(f.task, other));
      NoisedShareService restarted = new NoisedShareService(store,
          RandomSource.seeded(new byte[] {3}), Clock.systemUTC(), ReleaseObserver.NONE, recorder);
      restarted.release(f.task, other);
      restarted.release(f.task, other);
      restarted.release(f.task, req);
      assertEquals(List.of("true HELPER", "true HELPER"), heard,
          "the batch a crash left unsealed is released once, by the restarted service");
    }
  }

  @Test
  void fiftyConcurrentIdenticalRequestsDrawOnce() throws Exception {
    Fixture f = Fixture.laplace(2);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("c.db"))) {
      f.writeBuckets(store, 4);
      NoisedShareService s = service(store);
      AggregateShareReq req = f.request(0, 4);
      ExecutorService pool = Executors.newFixedThreadPool(50);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<ReleasedAggregateShare>> out = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        out.add(pool.submit(() -> {
          go.await();
          return s.release(f.task, req);
        }));
      }
      go.countDown();
      byte[] first = out.get(0).get().aggregateShare().toByteArray();
      for (Future<ReleasedAggregateShare> r : out) {
        assertArrayEquals(first, r.get().aggregateShare().toByteArray());
      }
      pool.shutdown();
      assertEquals(1, s.noiseDraws());
    }
  }

  @Test
  void theAadIsTheConfigurationAsProvisionedAndTheDpBindingIsOptIn() throws Exception {
    Fixture plain = Fixture.laplace(3);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("b.db"))) {
      plain.writeBuckets(store, 2);
      AggregateShareReq req = plain.request(0, 2);
      byte[] share = service(store).release(plain.task, req).aggregateShare().toByteArray();
      plain.open(share, req, plain.task.configuration());
      assertThrows(HpkeException.class, () -> plain.open(share, req,
          plain.boundWith(plain.task.dpStrategy())), "a binding the task does not list fails");
    }
    Fixture bound = Fixture.laplaceBound(13);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("c.db"))) {
      bound.writeBuckets(store, 2);
      AggregateShareReq req = bound.request(0, 2);
      byte[] share = service(store).release(bound.task, req).aggregateShare().toByteArray();
      bound.open(share, req, bound.boundWith(bound.task.dpStrategy()));
      assertThrows(HpkeException.class, () -> bound.open(share, req, bound.unbound()),
          "a Collector that omits the binding fails");
      assertThrows(HpkeException.class, () -> bound.open(share, req,
          bound.boundWith(DpStrategy.PureDpDiscreteLaplace.parse("0.5"))), "other epsilon fails");
      assertThrows(HpkeException.class, () -> bound.open(share, req,
          bound.boundWith(new DpStrategy.NoDifferentialPrivacy())), "no-DP collector fails");
    }
  }

  @Test
  void concurrentOverlappingRequestsReleaseExactlyOnce() throws Exception {
    // 16 requests for pairwise overlapping intervals [k, k+16) (all hold bucket 15), all at once,
    // on two stores (connections) over one SQLite file: exactly one may be released.
    Fixture f = Fixture.laplace(14);
    Path db = dir.resolve("race.db");
    try (JdbcDatastore a = JdbcDatastore.openSqlite(db);
        JdbcDatastore b = JdbcDatastore.openSqlite(db)) {
      f.writeBuckets(a, 31);
      NoisedShareService sa = service(a);
      NoisedShareService sb = service(b);
      ExecutorService pool = Executors.newFixedThreadPool(16);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Boolean>> out = new ArrayList<>();
      for (int k = 0; k < 16; k++) {
        int from = k;
        NoisedShareService s = k % 2 == 0 ? sa : sb;
        out.add(pool.submit(() -> {
          go.await();
          try {
            s.release(f.task, f.request(from, from + 16));
            return true;
          } catch (Refusal p) {
            assertEquals(DapError.BATCH_OVERLAP, p.dapError().orElseThrow());
            return false;
          }
        }));
      }
      go.countDown();
      int released = 0;
      for (Future<Boolean> r : out) {
        released += r.get() ? 1 : 0;
      }
      pool.shutdown();
      assertEquals(1, released, "of 16 pairwise overlapping requests exactly one is released");
      assertEquals(1, sa.noiseDraws() + sb.noiseDraws());
      assertEquals(1, a.inTaskTransaction(f.taskId, tx -> tx.releases().collectedIntervals())
          .size());
    }
  }

  @Test
  void aTaskWithoutDpReleasesTheMergedShare() throws Exception {
    Fixture f = new Fixture(4, new DpStrategy.NoDifferentialPrivacy());
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("n.db"))) {
      f.writeBuckets(store, 3);
      AggregateShareReq req = f.request(1, 3);
      NoisedShareService s = service(store);
      assertArrayEquals(f.unnoised(1, 3), f.open(s.release(f.task, req).aggregateShare().toByteArray(), req));
      assertEquals(0, s.noiseDraws());
    }
  }

  @Test
  void requestsTheSpecRefusesAreRefusedWithTheirDapError() {
    Fixture f = Fixture.laplace(5);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("e.db"))) {
      f.writeBuckets(store, 6);
      NoisedShareService s = service(store);
      assertEquals(DapError.BATCH_MISMATCH, refusal(() -> s.release(f.task,
          f.request(0, 2, 41, Fixture.checksum(0, 2)))));
      assertEquals(DapError.BATCH_MISMATCH, refusal(() -> s.release(f.task,
          f.request(0, 2, 40, Fixture.checksum(0, 1)))));
      // 0 reports before time 10, minimum batch size 10
      assertEquals(DapError.INVALID_BATCH_SIZE, refusal(() -> s.release(f.task,
          f.request(-3, -1, 0, new byte[32]))));
      Interval empty = Interval.of(10, 0);
      assertEquals(DapError.BATCH_INVALID, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.TimeInterval(empty), new byte[0], List.of()),
          new BatchSelector.TimeInterval(empty), 0, new byte[32]))), "zero duration");
      Interval overflowing = Interval.of(-2L, 5);
      assertEquals(DapError.BATCH_INVALID, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.TimeInterval(overflowing), new byte[0], List.of()),
          new BatchSelector.TimeInterval(overflowing), 0, new byte[32]))), "start + duration wraps");
      Interval wide = Interval.of(10, 2);
      assertEquals(DapError.BATCH_INVALID, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.TimeInterval(Interval.of(10, 1)), new byte[0],
              List.of()), new BatchSelector.TimeInterval(wide), 40, Fixture.checksum(0, 2)))));
      assertEquals(DapError.INVALID_MESSAGE, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.LeaderSelected(), new byte[0], List.of()),
          new BatchSelector.LeaderSelected(new org.priodp.aggregator.dap.BatchId(new byte[32])),
          20, new byte[32]))));
      assertEquals(DapError.UNSUPPORTED_EXTENSION, refusal(() -> s.release(f.task,
          new AggregateShareReq(new CollectionJobReq(new Query.TimeInterval(wide), new byte[0],
              List.of(new CollectionJobExtension(9, new byte[0]))),
              new BatchSelector.TimeInterval(wide), 40, Fixture.checksum(0, 2)))));
      assertEquals(DapError.INVALID_MESSAGE, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.TimeInterval(wide), new byte[] {1}, List.of()),
          new BatchSelector.TimeInterval(wide), 40, Fixture.checksum(0, 2)))));
      assertEquals(0, s.noiseDraws(), "no refusal draws noise");

      // Collect buckets 0-1; then any other request for that batch or an overlapping one is refused.
      s.release(f.task, f.request(0, 2));
      Interval bigger = Interval.of(10, 4);
      assertEquals(DapError.BATCH_OVERLAP, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.TimeInterval(bigger), new byte[0], List.of()),
          new BatchSelector.TimeInterval(wide), 40, Fixture.checksum(0, 2)))));
      assertEquals(DapError.BATCH_OVERLAP, refusal(() -> s.release(f.task, f.request(1, 3))));
      assertEquals(DapError.BATCH_OVERLAP, refusal(() -> s.release(f.task,
          f.request(0, 2, 41, Fixture.checksum(0, 2)))));
      s.release(f.task, f.request(2, 4));
      assertEquals(2, s.noiseDraws());
    }
  }

  @Test
  void timesAreTimePrecisionUnitsAndTheTaskIntervalBoundsBatches() throws Exception {
    // time_precision 3600 s; buckets at hours 5 and 6; task_interval covers hours [4, 8).
    Fixture f = Fixture.withTaskInterval(15, 3600, Interval.of(4, 4));
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("u.db"))) {
      for (long hour : new long[] {5, 6}) {
        org.priodp.aggregator.datastore.BatchAggregation bucket =
            new org.priodp.aggregator.datastore.BatchAggregation(f.taskId,
            BatchBuckets.timeIntervalBucket(hour), ByteString.EMPTY,
            ByteString.copyOf(f.share((int) hour)), 10,
            ByteString.copyOf(Fixture.bucketChecksum((int) hour)));
        store.inTaskTransaction(f.taskId, tx -> {
          tx.batchBuckets().put(bucket);
          return null;
        });
      }
      NoisedShareService s = service(store);
      Interval hour5 = Interval.of(5, 1);
      AggregateShareReq one = new AggregateShareReq(new CollectionJobReq(
          new Query.TimeInterval(hour5), new byte[0], List.of()),
          new BatchSelector.TimeInterval(hour5), 10, Fixture.bucketChecksum(5));
      byte[] opened = f.open(s.release(f.task, one).aggregateShare().toByteArray(), one);
      assertEquals(f.unnoisedOf(5).length, opened.length);
      Interval outside = Interval.of(7, 2);
      assertEquals(DapError.BATCH_INVALID, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.TimeInterval(outside), new byte[0], List.of()),
          new BatchSelector.TimeInterval(outside), 0, new byte[32]))), "outside task_interval");
      Interval seconds = Interval.of(6 * 3600, 3600);
      assertEquals(DapError.BATCH_INVALID, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.TimeInterval(seconds), new byte[0], List.of()),
          new BatchSelector.TimeInterval(seconds), 10, Fixture.bucketChecksum(6)))),
          "an interval in seconds is far outside the task interval");
    }
  }
  /**
   * A task bound by collector_identity (draft-ietf-ppm-dap-attribution-00 section 6.1) whose
   * identity does not list the Collector's key: the release is refused before the noise
   * transaction, so nothing is drawn, charged to the ledger or stored; once the identity confirms
   * the key the batch is released, and a repeat of the released share does not ask again.
   */
  @Test
  void aCollectorIdentityThatDoesNotAuthorizeTheKeyStopsTheReleaseBeforeAnyNoise()
      throws Exception {
    Fixture f = Fixture.laplace(12);
    java.net.URI identity = java.net.URI.create("https://collector.example/");
    TaskDefinition task = f.withCollectorIdentity(org.priodp.aggregator.dap.Role.HELPER, identity);
    AggregateShareReq req = f.request(0, 3);
    var batch = BatchBuckets.batchIdentifier(req.batchSelector());
    java.util.Deque<CollectorAuthorization.Verdict> answers = new java.util.ArrayDeque<>(List.of(
        new CollectorAuthorization.Denied("it lists id(s) 3"),
        new CollectorAuthorization.Confirmed()));
    java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
    CollectorIdentityCheck check = new CollectorIdentityCheck((u, c) -> {
      asked.incrementAndGet();
      return answers.isEmpty() ? new CollectorAuthorization.Denied("revoked") : answers.poll();
    });
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("cid.db"))) {
      f.writeBuckets(store, 5);
      NoisedShareService s = new NoisedShareService(store, RandomSource.seeded(new byte[] {1}),
          Clock.systemUTC(), ReleaseObserver.NONE, PipelineObserver.NONE, check);
      Refusal r = assertThrows(Refusal.class, () -> s.release(task, req));
      assertEquals(ProblemType.COLLECTOR_NOT_AUTHORIZED, r.error());
      assertEquals(0, s.noiseDraws(), "no noise drawn");
      assertTrue(store.inTaskTransaction(f.taskId, tx -> tx.releases().noisedShare(batch))
          .isEmpty(), "no noised share stored");
      assertEquals(List.of(), store.inTaskTransaction(f.taskId, tx -> tx.ledger().entries()),
          "nothing charged to the privacy ledger");

      byte[] released = s.release(task, req).aggregateShare().toByteArray();
      assertEquals(1, s.noiseDraws());
      assertEquals(f.unnoised(0, 3).length,
          f.open(released, req, task.configuration()).length, "sealed to the confirmed key");
      assertArrayEquals(released, s.release(task, req).aggregateShare().toByteArray(),
          "a repeat returns the stored bytes: nothing new is encrypted");
      assertEquals(2, asked.get(), "a released share is not checked again");
    }
  }
}
