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
import org.priodp.aggregator.dap.CollectionJobExtension;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.store.JdbcAggregateShareStore;
import org.priodp.aggregator.store.ReleasedAggregateShare;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.DpStrategy;

class NoisedShareServiceTest {
  @TempDir
  Path dir;

  private static NoisedShareService service(JdbcAggregateShareStore store) {
    return new NoisedShareService(store, RandomSource.seeded(new byte[] {1}), Clock.systemUTC());
  }

  private static DapError refusal(Runnable r) {
    DapProblem p = assertThrows(DapProblem.class, r::run);
    assertTrue(p.status() >= 400 && p.status() < 500, "status " + p.status());
    return p.error().orElseThrow();
  }

  @Test
  void noiseIsDrawnOnceAndRepeatsAndRestartsReturnTheSameBytes() throws Exception {
    Fixture f = Fixture.laplace(1);
    Path db = dir.resolve("s.db");
    AggregateShareReq req = f.request(0, 3);
    byte[] first;
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(db)) {
      f.writeBuckets(store, 5);
      NoisedShareService s = service(store);
      first = s.release(f.task, req).aggregateShare();
      assertArrayEquals(first, s.release(f.task, req).aggregateShare());
      assertEquals(1, s.noiseDraws());
      byte[] opened = f.open(first, req);
      assertEquals(f.unnoised(0, 3).length, opened.length);
      assertFalse(Arrays.equals(f.unnoised(0, 3), opened), "a DP task never releases un-noised");
      assertArrayEquals(store.noisedShare(f.taskId, req.batchSelector().encode()).orElseThrow()
          .noisedShare(), opened);
    }
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(db)) {
      NoisedShareService s = service(store);
      assertArrayEquals(first, s.release(f.task, req).aggregateShare(), "same bytes after restart");
      assertEquals(0, s.noiseDraws());
    }
  }

  @Test
  void fiftyConcurrentIdenticalRequestsDrawOnce() throws Exception {
    Fixture f = Fixture.laplace(2);
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("c.db"))) {
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
      byte[] first = out.get(0).get().aggregateShare();
      for (Future<ReleasedAggregateShare> r : out) {
        assertArrayEquals(first, r.get().aggregateShare());
      }
      pool.shutdown();
      assertEquals(1, s.noiseDraws());
    }
  }

  @Test
  void theDpSettingsAreBoundIntoTheAad() throws Exception {
    Fixture f = Fixture.laplace(3);
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("b.db"))) {
      f.writeBuckets(store, 2);
      AggregateShareReq req = f.request(0, 2);
      byte[] share = service(store).release(f.task, req).aggregateShare();
      f.open(share, req);
      assertThrows(HpkeException.class, () -> f.open(share, req, f.task.configuration()),
          "a Collector that does not bind the DP settings fails");
      assertThrows(HpkeException.class, () -> f.open(share, req,
          f.boundWith(DpStrategy.PureDpDiscreteLaplace.parse("0.5"))), "other epsilon fails");
      assertThrows(HpkeException.class, () -> f.open(share, req,
          f.boundWith(new DpStrategy.NoDifferentialPrivacy())), "no-DP collector fails");
    }
  }

  @Test
  void aTaskWithoutDpReleasesTheMergedShare() throws Exception {
    Fixture f = new Fixture(4, new DpStrategy.NoDifferentialPrivacy());
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("n.db"))) {
      f.writeBuckets(store, 3);
      AggregateShareReq req = f.request(1, 3);
      NoisedShareService s = service(store);
      assertArrayEquals(f.unnoised(1, 3), f.open(s.release(f.task, req).aggregateShare(), req));
      assertEquals(0, s.noiseDraws());
    }
  }

  @Test
  void requestsTheSpecRefusesAreRefusedWithTheirDapError() {
    Fixture f = Fixture.laplace(5);
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("e.db"))) {
      f.writeBuckets(store, 6);
      NoisedShareService s = service(store);
      assertEquals(DapError.BATCH_MISMATCH, refusal(() -> s.release(f.task,
          f.request(0, 2, 41, Fixture.checksum(0, 2)))));
      assertEquals(DapError.BATCH_MISMATCH, refusal(() -> s.release(f.task,
          f.request(0, 2, 40, Fixture.checksum(0, 1)))));
      // 0 reports before time 1000, minimum batch size 10
      assertEquals(DapError.INVALID_BATCH_SIZE, refusal(() -> s.release(f.task,
          f.request(-3, -1, 0, new byte[32]))));
      Interval unaligned = Interval.of(1050, 100);
      assertEquals(DapError.BATCH_INVALID, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.TimeInterval(unaligned), new byte[0], List.of()),
          new BatchSelector.TimeInterval(unaligned), 20, new byte[32]))));
      Interval wide = Interval.of(1000, 200);
      assertEquals(DapError.BATCH_INVALID, refusal(() -> s.release(f.task, new AggregateShareReq(
          new CollectionJobReq(new Query.TimeInterval(Interval.of(1000, 100)), new byte[0],
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
      Interval bigger = Interval.of(1000, 400);
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
}
