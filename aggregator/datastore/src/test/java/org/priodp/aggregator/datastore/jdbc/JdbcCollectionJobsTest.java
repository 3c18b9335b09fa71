package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.bytes;
import static org.priodp.aggregator.datastore.jdbc.Stores.holds;
import static org.priodp.aggregator.datastore.jdbc.Stores.id;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.CollectionJobLease;
import org.priodp.aggregator.datastore.CollectionJobRecord.State;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.DatastoreException;

class JdbcCollectionJobsTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void collectionJobsAreStoredPerTaskAndDeletedOnce(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      Instant t0 = Instant.ofEpochMilli(4_000_000);
      CollectionJobRecord first = CollectionJobRecord.pending(task,
          new CollectionJobId(bytes(16, 1)), bs(5, 1), id(1, 1), t0);
      CollectionJobRecord second = CollectionJobRecord.pending(task,
          new CollectionJobId(bytes(16, 2)), bs(5, 2), id(2, 1), t0.plusMillis(1));
      store.inTaskTransaction(task, tx -> {
        tx.collectionJobs().insert(second);
        tx.collectionJobs().insert(first);
        return null;
      });
      assertThrows(DatastoreException.class, () -> store.inTaskTransaction(task, tx -> {
        tx.collectionJobs().insert(first);
        return null;
      }), "an id is inserted once");
      assertEquals(first, store.inTaskTransaction(task,
          tx -> tx.collectionJobs().get(first.jobId())).orElseThrow());
      assertTrue(store.inTaskTransaction(randomTask(),
          tx -> tx.collectionJobs().get(first.jobId())).isEmpty(), "per task");
      assertEquals(List.of(first, second), store.inTaskTransaction(task,
          tx -> tx.collectionJobs().inStates(EnumSet.of(State.PENDING))), "oldest first");
      assertEquals(List.of(), store.inTaskTransaction(task,
          tx -> tx.collectionJobs().inStates(EnumSet.noneOf(State.class))));

      Instant t1 = t0.plusSeconds(1);
      assertTrue(holds(store, task,
          tx -> tx.collectionJobs().setBatch(first.jobId(), id(9, 1), t1)));
      assertTrue(holds(store, task,
          tx -> tx.collectionJobs().delete(second.jobId(), t1)));
      assertFalse(holds(store, task,
          tx -> tx.collectionJobs().delete(second.jobId(), t1)), "already deleted");
      assertFalse(holds(store, task,
          tx -> tx.collectionJobs().delete(new CollectionJobId(bytes(16, 3)), t1)), "unknown");
      CollectionJobRecord moved = store.inTaskTransaction(task,
          tx -> tx.collectionJobs().get(first.jobId())).orElseThrow();
      assertEquals(id(9, 1), moved.batch());
      assertEquals(t1, moved.updatedAt());
      assertEquals(List.of(second.jobId()), store.inTaskTransaction(task,
          tx -> tx.collectionJobs().inStates(EnumSet.of(State.DELETED, State.READY))).stream()
          .map(CollectionJobRecord::jobId).toList());
      assertTrue(holds(store, task,
          tx -> tx.collectionJobs().setState(second.jobId(), State.PENDING, t1)));
      assertFalse(holds(store, task, tx -> tx.collectionJobs()
          .setState(new CollectionJobId(bytes(16, 3)), State.PENDING, t1)));
      assertEquals(2, store.inTaskTransaction(task,
          tx -> tx.collectionJobs().inStates(EnumSet.allOf(State.class))).size());
    }
  }

  /**
   * A response counts as answered to the Collector the first time it is marked, and its batch is
   * listed as delivered in any later state (DAP-18 "Collection Job Deletion": also once deleted).
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aResponseIsDeliveredOnceAndItsBatchStaysDelivered(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      Instant t0 = Instant.ofEpochMilli(5_000_000);
      CollectionJobRecord job = CollectionJobRecord.pending(task,
          new CollectionJobId(bytes(16, 4)), bs(5, 4), id(4, 1), t0);
      store.inTaskTransaction(task, tx -> {
        tx.collectionJobs().insert(job);
        return null;
      });
      assertFalse(holds(store, task,
          tx -> tx.collectionJobs().markDelivered(job.jobId(), t0)), "no response yet");
      assertEquals(Set.of(), store.inTaskTransaction(task,
          tx -> tx.collectionJobs().deliveredBatches()));
      CollectionJobLease lease = store.jobLeases().leaseCollectionJob(task, "o", t0,
          Duration.ofMinutes(1)).orElseThrow();
      assertTrue(store.jobLeases().finishCollectionJob(lease, State.READY, bs(9, 4), null, null,
          t0));
      assertTrue(holds(store, task,
          tx -> tx.collectionJobs().markDelivered(job.jobId(), t0.plusSeconds(1))));
      assertFalse(holds(store, task,
          tx -> tx.collectionJobs().markDelivered(job.jobId(), t0.plusSeconds(2))),
          "the first time counts");
      assertFalse(holds(store, task, tx -> tx.collectionJobs()
          .markDelivered(new CollectionJobId(bytes(16, 5)), t0)), "unknown");
      assertTrue(holds(store, task, tx -> tx.collectionJobs().delete(job.jobId(), t0)));
      assertEquals(Set.of(id(4, 1)), store.inTaskTransaction(task,
          tx -> tx.collectionJobs().deliveredBatches()), "also once deleted");
      assertEquals(Set.of(), store.inTaskTransaction(randomTask(),
          tx -> tx.collectionJobs().deliveredBatches()), "per task");
    }
  }
}
