package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.RANDOM;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.holds;
import static org.priodp.aggregator.datastore.jdbc.Stores.insertIfAbsent;
import static org.priodp.aggregator.datastore.jdbc.Stores.noised;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregateShareRequest;
import org.priodp.aggregator.datastore.AggregateShareResource;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.DatastoreException;

class JdbcAggregateSharesTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void resourcesAreIdempotentPerRequestAndDeletionKeepsTheNoisedShare(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      BatchIdentifier batch = BatchIdentifier.of(Interval.of(5, 5).encode());
      insertIfAbsent(store, noised(task, batch, 3), null);
      AggregateShareId id = AggregateShareId.random(RANDOM);
      AggregateShareResource r = new AggregateShareResource(task, id, batch, bs(32, 1),
          Instant.ofEpochMilli(5));
      assertEquals(r, store.inTaskTransaction(task, tx -> tx.aggregateShares().createIfAbsent(r)));
      AggregateShareResource retry = new AggregateShareResource(task,
          AggregateShareId.random(RANDOM), batch, bs(32, 1), Instant.ofEpochMilli(6));
      assertEquals(r, store.inTaskTransaction(task,
          tx -> tx.aggregateShares().createIfAbsent(retry)),
          "a repeat request finds the first resource");
      AggregateShareResource clash = new AggregateShareResource(task, id, batch, bs(32, 2),
          Instant.ofEpochMilli(7));
      assertThrows(DatastoreException.class, () -> store.inTaskTransaction(task,
          tx -> tx.aggregateShares().createIfAbsent(clash)));
      assertEquals(r, store.inTaskTransaction(task, tx -> tx.aggregateShares().get(id))
          .orElseThrow());
      assertTrue(holds(store, task, tx -> tx.aggregateShares().delete(id)));
      assertFalse(holds(store, task, tx -> tx.aggregateShares().delete(id)));
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregateShares().get(id)).isEmpty());
      assertEquals(noised(task, batch, 3), store.inTaskTransaction(task,
          tx -> tx.releases().noisedShare(batch)).orElseThrow());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void asynchronousRequestsAreStoredOnceAndRecordTheirFailure(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      AggregateShareId id = AggregateShareId.random(RANDOM);
      AggregateShareRequest first = new AggregateShareRequest(task, id, bs(9, 1),
          Optional.empty(), Optional.empty(), Instant.ofEpochMilli(5));
      AggregateShareRequest second = new AggregateShareRequest(task, id, bs(9, 2),
          Optional.empty(), Optional.empty(), Instant.ofEpochMilli(6));
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregateShares().request(id)).isEmpty());
      assertEquals(first, store.inTaskTransaction(task,
          tx -> tx.aggregateShares().putRequestIfAbsent(first)));
      assertEquals(first, store.inTaskTransaction(task,
          tx -> tx.aggregateShares().putRequestIfAbsent(second)), "the first request stays");
      String longDetail = "x".repeat(2000);
      assertTrue(holds(store, task,
          tx -> tx.aggregateShares().failRequest(id, "batchMismatch", longDetail)));
      AggregateShareRequest failed = store.inTaskTransaction(task,
          tx -> tx.aggregateShares().request(id)).orElseThrow();
      assertEquals(Optional.of("batchMismatch"), failed.errorType());
      assertEquals(1024, failed.errorDetail().orElseThrow().length(), "cut to the column");
      assertFalse(holds(store, randomTask(),
          tx -> tx.aggregateShares().failRequest(id, "batchMismatch", "x")), "per task");
    }
  }
}
