package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.bytes;
import static org.priodp.aggregator.datastore.jdbc.Stores.holds;
import static org.priodp.aggregator.datastore.jdbc.Stores.id;
import static org.priodp.aggregator.datastore.jdbc.Stores.jobId;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;
import static org.priodp.aggregator.datastore.jdbc.Stores.reportId;
import static org.priodp.aggregator.datastore.jdbc.Stores.token;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregationJobRepository;
import org.priodp.aggregator.datastore.CollectionJobLease;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.LeaderJobReport;
import org.priodp.aggregator.datastore.LeaseTakeover;
import org.priodp.aggregator.datastore.LeasedAggregationJob;

class JdbcJobLeasesTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void leaderJobsClaimOldestReportsAndLeaseByToken(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      List<ReportId> ids = new ArrayList<>();
      for (long t : new long[] {3, 1, 2, 5, 4}) {
        ReportId id = reportId();
        ids.add(id);
        boolean inserted = store.inTaskTransaction(task,
            tx -> tx.clientReports().insertIfAbsent(id, t, bs(10, (int) t)));
        assertTrue(inserted);
      }
      boolean again = store.inTaskTransaction(task,
          tx -> tx.clientReports().insertIfAbsent(ids.get(0), 3, bs(10, 3)));
      assertFalse(again, "INSERT if absent");
      Instant t0 = Instant.ofEpochMilli(1_000_000);
      LeaderAggregationJob j1 = store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .createLeader(jobId(1), 3, 1, Optional.empty(), t0)).orElseThrow();
      assertEquals(3, j1.reportCount());
      assertEquals(1, j1.minReportTime());
      assertEquals(3, j1.maxReportTime());
      assertEquals(List.of(1L, 2L, 3L), store.inTaskTransaction(task,
          tx -> tx.clientReports().claimedBy(jobId(1))).stream()
          .map(LeaderJobReport::time).toList(), "oldest first");
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .createLeader(jobId(2), 3, 3, Optional.empty(), t0)).isEmpty(), "2 < minReports");
      store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .createLeader(jobId(2), 3, 1, Optional.of(id(7, 1)), t0.plusMillis(1))).orElseThrow();
      assertEquals(2, store.inTaskTransaction(task, tx -> tx.clientReports().claimedBy(jobId(2)))
          .size());
      assertEquals(Optional.of(id(7, 1)), store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leader(jobId(2))).orElseThrow().batch());
      assertEquals(Optional.of(new AggregationJobRepository.LeaderBatchFill(id(7, 1), 2)),
          store.inTaskTransaction(task, tx -> tx.aggregationJobs().openLeaderBatch(3)));
      assertEquals(Optional.empty(),
          store.inTaskTransaction(task, tx -> tx.aggregationJobs().openLeaderBatch(2)));
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs()
          .createLeader(jobId(3), 3, 1, Optional.empty(), t0)).isEmpty(), "none left");

      Duration minute = Duration.ofMinutes(1);
      LeaderAggregationJob a = store.jobLeases().leaseAggregationJob(List.of(task), "a",
          token(0xa), t0, minute).orElseThrow();
      assertEquals(jobId(1), a.jobId(), "oldest job first");
      assertEquals(1, a.leaseAttempts());
      LeaderAggregationJob b = store.jobLeases().leaseAggregationJob(List.of(task), "b",
          token(0xb), t0, minute).orElseThrow();
      assertEquals(jobId(2), b.jobId());
      assertTrue(store.jobLeases().leaseAggregationJob(List.of(task), "c", token(0xc), t0,
          minute).isEmpty(), "both leased");
      assertTrue(store.jobLeases().leaseAggregationJob(List.of(randomTask()), "c", token(0xc),
          t0.plus(minute.multipliedBy(2)), minute).isEmpty(), "another task's jobs only");
      // a's lease expires: c takes job 1 over; a can neither release nor abandon it any more
      LeaderAggregationJob c = store.jobLeases().leaseAggregationJob(List.of(task), "c",
          token(0xc), t0.plus(minute.multipliedBy(2)), minute).orElseThrow();
      assertEquals(jobId(1), c.jobId());
      assertEquals(2, c.leaseAttempts());
      assertFalse(store.jobLeases().releaseAggregationJob(task, jobId(1), token(0xa), t0,
          "stale"));
      assertFalse(store.jobLeases().abandonAggregationJob(task, jobId(1), token(0xa), "stale",
          t0));
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs().leader(jobId(1)))
          .orElseThrow().leasedWith(token(0xc)));
      // c releases until t0+5min with a detail; nobody gets it before
      assertTrue(store.jobLeases().releaseAggregationJob(task, jobId(1), token(0xc),
          t0.plus(minute.multipliedBy(5)), "helper down"));
      assertEquals(Optional.of("helper down"), store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leader(jobId(1))).orElseThrow().errorDetail());
      Instant t3 = t0.plus(minute.multipliedBy(3));
      LeaderAggregationJob d = store.jobLeases().leaseAggregationJob(List.of(task), "d",
          token(0xd), t3, minute).orElseThrow();
      assertEquals(jobId(2), d.jobId(), "job 1 waits for its retry time; job 2's lease expired");
      assertTrue(store.jobLeases().abandonAggregationJob(task, jobId(2), token(0xd), "gave up",
          t3));
      assertEquals(LeaderAggregationJob.State.ABANDONED, store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leader(jobId(2))).orElseThrow().state());
      LeaderAggregationJob e = store.jobLeases().leaseAggregationJob(List.of(task), "e",
          token(0xe), t0.plus(minute.multipliedBy(6)), minute).orElseThrow();
      assertEquals(jobId(1), e.jobId());
      assertEquals(3, e.leaseAttempts());
      store.inTaskTransaction(task, tx -> {
        assertEquals(Set.of(), tx.clientReports().aggregatedAmong(ids));
        tx.clientReports().insertAggregated(jobId(1), Map.of(ids.get(1), 1L, ids.get(2), 2L));
        assertEquals(Set.of(ids.get(1), ids.get(2)), tx.clientReports().aggregatedAmong(ids));
        tx.aggregationJobs().finishLeader(jobId(1), t0);
        return null;
      });
      LeaderAggregationJob done = store.inTaskTransaction(task,
          tx -> tx.aggregationJobs().leader(jobId(1))).orElseThrow();
      assertEquals(LeaderAggregationJob.State.FINISHED, done.state());
      assertTrue(done.leaseToken().isEmpty());
      assertTrue(store.jobLeases().leaseAggregationJob(List.of(task), "f", token(0xf),
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
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      Instant t0 = Instant.ofEpochMilli(2_000_000);
      for (int j = 0; j < 4; j++) {
        int jj = j;
        store.inTaskTransaction(task,
            tx -> tx.clientReports().insertIfAbsent(reportId(), jj, bs(4, jj)));
        store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(jobId(jj + 1), 1,
            1, Optional.empty(), t0.plusMillis(jj))).orElseThrow();
      }
      List<AggregationJobId> leased = Stores.atOnce(8, 8, i -> () -> store.jobLeases()
          .leaseAggregationJob(List.of(task), "w" + i, token(i + 1), t0.plusSeconds(1),
              Duration.ofMinutes(1))).stream().flatMap(Optional::stream)
          .map(LeaderAggregationJob::jobId).toList();
      assertEquals(4, new HashSet<>(leased).size(), "every job leased: " + leased);
      assertEquals(4, leased.size(), "no job leased twice: " + leased);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void collectionJobsAreLeasedWhenDueAndFinishedOnlyUnderTheirLease(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      Instant t0 = Instant.ofEpochMilli(3_000_000);
      Duration minute = Duration.ofMinutes(1);
      CollectionJobRecord older = CollectionJobRecord.pending(task,
          new CollectionJobId(bytes(16, 1)), bs(5, 1), id(1, 1), t0);
      CollectionJobRecord newer = CollectionJobRecord.pending(task,
          new CollectionJobId(bytes(16, 2)), bs(5, 2), id(2, 1), t0.plusMillis(1));
      store.inTaskTransaction(task, tx -> {
        tx.collectionJobs().insert(newer);
        tx.collectionJobs().insert(older);
        return null;
      });
      CollectionJobLease a = store.jobLeases().leaseCollectionJob(task, "a".repeat(200), t0,
          minute).orElseThrow();
      assertEquals(older, a.job(), "oldest first");
      assertEquals("a".repeat(128), a.owner(), "the owner is cut to its column");
      assertEquals(1, a.attempts());
      assertEquals(t0.plus(minute), a.expiresAt());
      CollectionJobLease b = store.jobLeases().leaseCollectionJob(task, "b", t0, minute)
          .orElseThrow();
      assertEquals(newer.jobId(), b.job().jobId());
      assertTrue(store.jobLeases().leaseCollectionJob(task, "c", t0, minute).isEmpty());
      assertTrue(store.jobLeases().postponeCollectionJob(b, t0.plus(minute.multipliedBy(10)),
          t0));
      assertFalse(store.jobLeases().postponeCollectionJob(b, t0, t0), "the lease was given up");
      // a's lease expires: c takes the older job over; a cannot finish it
      CollectionJobLease c = store.jobLeases().leaseCollectionJob(task, "c",
          t0.plus(minute.multipliedBy(2)), minute).orElseThrow();
      assertEquals(older.jobId(), c.job().jobId());
      assertEquals(2, c.attempts());
      assertFalse(store.jobLeases().finishCollectionJob(a, CollectionJobRecord.State.READY,
          bs(3, 1), null, null, t0));
      assertThrows(IllegalArgumentException.class, () -> store.jobLeases().finishCollectionJob(c,
          CollectionJobRecord.State.PENDING, bs(3, 1), null, null, t0));
      assertThrows(IllegalArgumentException.class, () -> store.jobLeases().finishCollectionJob(c,
          CollectionJobRecord.State.READY, null, null, null, t0));
      assertTrue(store.jobLeases().finishCollectionJob(c, CollectionJobRecord.State.READY,
          bs(3, 1), null, null, t0.plus(minute.multipliedBy(2))));
      CollectionJobRecord ready = store.inTaskTransaction(task,
          tx -> tx.collectionJobs().get(older.jobId())).orElseThrow();
      assertEquals(CollectionJobRecord.State.READY, ready.state());
      assertEquals(Optional.of(bs(3, 1)), ready.response());
      assertTrue(store.jobLeases().leaseCollectionJob(task, "d",
          t0.plus(minute.multipliedBy(9)), minute).isEmpty(), "postponed until 10 min");
      CollectionJobLease d = store.jobLeases().leaseCollectionJob(task, "d",
          t0.plus(minute.multipliedBy(10)), minute).orElseThrow();
      assertTrue(store.jobLeases().finishCollectionJob(d, CollectionJobRecord.State.FAILED, null,
          null, "x".repeat(3000), t0));
      CollectionJobRecord failed = store.inTaskTransaction(task,
          tx -> tx.collectionJobs().get(newer.jobId())).orElseThrow();
      assertEquals(CollectionJobRecord.State.FAILED, failed.state());
      assertEquals(Optional.empty(), failed.errorType(), "the Helper named no type");
      assertEquals(1024, failed.errorDetail().orElseThrow().length());
    }
  }

  /**
   * Issue 24: a replica that restarts under its stable name frees the leases its previous run
   * held, so it (or anyone) takes them at once instead of after their expiry; a lease taken over
   * after expiry names the replica that held it, one given back names nobody; a heartbeat moves
   * the expiry only under its token.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aRestartedReplicaReclaimsItsLeasesAndATakeoverNamesThePreviousHolder(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      Instant t0 = Instant.ofEpochMilli(5_000_000);
      Duration lease = Duration.ofSeconds(30);
      // replica names unique to this run: a PostgreSQL database keeps the rows of earlier runs
      String r1 = "r1-" + task.toBase64Url();
      String r2 = "r2-" + task.toBase64Url();
      String r3 = "r3-" + task.toBase64Url();
      for (int i = 1; i <= 2; i++) {
        ReportId id = reportId();
        long time = i;
        store.inTaskTransaction(task, tx -> tx.clientReports().insertIfAbsent(id, time,
            bs(10, (int) time)));
        AggregationJobId job = jobId(i);
        store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(job, 1, 1,
            Optional.empty(), t0.plusMillis(time))).orElseThrow();
      }
      CollectionJobRecord pending = CollectionJobRecord.pending(task,
          new CollectionJobId(bytes(16, 1)), bs(5, 1), id(1, 1), t0);
      store.inTaskTransaction(task, tx -> {
        tx.collectionJobs().insert(pending);
        return null;
      });
      // replica r1 leases job 1 and the collection job, then is killed; r2 holds job 2
      assertTrue(store.jobLeases().takeAggregationJob(List.of(task), r1, token(1), t0, lease)
          .orElseThrow().takeover().isEmpty(), "a fresh job was nobody's");
      store.jobLeases().leaseCollectionJob(task, r1, t0, lease).orElseThrow();
      LeaderAggregationJob held = store.jobLeases().leaseAggregationJob(List.of(task), r2,
          token(2), t0, lease).orElseThrow();
      Instant restart = t0.plusSeconds(5);
      assertTrue(store.jobLeases().leaseAggregationJob(List.of(task), r1, token(3), restart,
          lease).isEmpty(), "before the release, r1's old leases block it");
      // r1 restarts: its leases are freed (2: one aggregation job, one collection job), not r2's
      assertEquals(2, store.jobLeases().releaseLeasesOf(r1, restart));
      assertEquals(0, store.jobLeases().releaseLeasesOf(r1, restart), "nothing left");
      LeasedAggregationJob again = store.jobLeases().takeAggregationJob(List.of(task), r1,
          token(3), restart, lease).orElseThrow();
      assertEquals(jobId(1), again.job().jobId(), "reclaimed well before its expiry");
      assertEquals(Optional.empty(), again.takeover(), "its own lease, given back: no takeover");
      CollectionJobLease collection = store.jobLeases().leaseCollectionJob(task, r1, restart,
          lease).orElseThrow();
      assertEquals(Optional.empty(), collection.takeover());
      assertTrue(store.inTaskTransaction(task, tx -> tx.aggregationJobs().leader(jobId(2)))
          .orElseThrow().leasedWith(token(2)), "r2's lease untouched");
      // r2 renews job 2 (heartbeat); a stale token renews nothing
      Instant renewed = restart.plus(lease);
      assertTrue(store.jobLeases().renewAggregationJob(task, jobId(2), token(2), renewed));
      assertFalse(store.jobLeases().renewAggregationJob(task, jobId(1), token(1), renewed),
          "r1's token of its previous run is gone");
      assertTrue(store.jobLeases().renewCollectionJob(collection, renewed));
      assertTrue(store.jobLeases().leaseAggregationJob(List.of(task), r3, token(4),
          t0.plus(lease), lease).isEmpty(), "job 2 renewed, job 1 reclaimed: none expired");
      // r1 dies again: after the expiry r3 takes job 1 over, and learns from whom and when
      Instant late = restart.plus(lease);
      LeasedAggregationJob taken = store.jobLeases().takeAggregationJob(List.of(task), r3,
          token(5), late, lease).orElseThrow();
      assertEquals(jobId(1), taken.job().jobId());
      assertEquals(Optional.of(new LeaseTakeover(r1, restart.plus(lease))), taken.takeover());
      CollectionJobLease takenCollection = store.jobLeases().leaseCollectionJob(task, r3,
          renewed.plusMillis(1), lease).orElseThrow();
      assertEquals(Optional.of(new LeaseTakeover(r1, renewed)), takenCollection.takeover());
      assertFalse(store.jobLeases().renewCollectionJob(collection, late.plus(lease)),
          "r1's collection lease was taken over");
      // a lease given back leaves no takeover for the next lessee
      assertTrue(store.jobLeases().releaseAggregationJob(task, jobId(1), token(5), late, "x"));
      assertEquals(Optional.empty(), store.jobLeases().takeAggregationJob(List.of(task), r2,
          token(6), late, lease).orElseThrow().takeover());
      assertEquals(jobId(2), held.jobId());
    }
  }
}
