package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.holds;
import static org.priodp.aggregator.datastore.jdbc.Stores.id;
import static org.priodp.aggregator.datastore.jdbc.Stores.insertIfAbsent;
import static org.priodp.aggregator.datastore.jdbc.Stores.noised;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;

class JdbcReleasesTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void collectedIntervalsOverlapInUnsignedOrder(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      long big = Long.MIN_VALUE + 5; // 2^63 + 5: above every signed long
      assertTrue(insertIfAbsent(store, noised(task, id(10, 5), 1),
          new CollectedInterval(10, 15)));
      assertTrue(insertIfAbsent(store, noised(task, id(big, 5), 2),
          new CollectedInterval(big, big + 5)));
      store.inTaskTransaction(task, tx -> {
        assertTrue(tx.releases().collectedIntervalOverlaps(new CollectedInterval(14, 16)));
        assertTrue(tx.releases().collectedIntervalOverlaps(new CollectedInterval(0, 11)));
        assertFalse(tx.releases().collectedIntervalOverlaps(new CollectedInterval(15, 20)),
            "half-open");
        assertFalse(tx.releases().collectedIntervalOverlaps(new CollectedInterval(0, 10)),
            "half-open");
        assertTrue(tx.releases().collectedIntervalOverlaps(new CollectedInterval(big + 4, -1L)));
        assertFalse(tx.releases().collectedIntervalOverlaps(new CollectedInterval(16, big)));
        return null;
      });
      assertEquals(List.of(new CollectedInterval(10, 15), new CollectedInterval(big, big + 5)),
          store.inTaskTransaction(task, tx -> tx.releases().collectedIntervals()));
      assertTrue(store.inTaskTransaction(randomTask(), tx -> tx.releases().collectedIntervals())
          .isEmpty());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void releasedSharesAreWrittenOnce(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      BatchIdentifier batch = BatchIdentifier.of(Interval.of(20, 10).encode());
      ReleasedAggregateShare first = new ReleasedAggregateShare(task, batch, bs(32, 1),
          bs(60, 1), Instant.ofEpochMilli(5));
      ReleasedAggregateShare second = new ReleasedAggregateShare(task, batch, bs(32, 2),
          bs(60, 2), Instant.ofEpochMilli(6));
      assertTrue(store.inTaskTransaction(task, tx -> tx.releases().releasedShare(batch))
          .isEmpty());
      assertEquals(first, store.inTaskTransaction(task,
          tx -> tx.releases().putReleasedShareIfAbsent(first)));
      assertEquals(first, store.inTaskTransaction(task,
          tx -> tx.releases().putReleasedShareIfAbsent(second)), "the first writer wins");
      assertEquals(first, store.inTaskTransaction(task, tx -> tx.releases().releasedShare(batch))
          .orElseThrow());
    }
  }

  @Test
  void randomRoundTripsOfNoisedShares() {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("JdbcReleasesTest.randomRoundTripsOfNoisedShares seed=" + seed);
    Random rnd = new Random(seed);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("r.db"))) {
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
        assertEquals(n, store.inTaskTransaction(new TaskId(t),
            tx -> tx.releases().noisedShare(BatchIdentifier.of(batch))).orElseThrow(),
            "seed=" + seed);
      }
    }
  }
}
