package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.jobId;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;
import static org.priodp.aggregator.datastore.jdbc.Stores.reportId;
import static org.priodp.aggregator.datastore.jdbc.Stores.token;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.StatusRepository;

class JdbcStatusTest {
  @TempDir
  Path dir;

  static final Instant NOW = Instant.ofEpochMilli(1_700_000_000_000L);

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void theStatusReadsTheBacklogJobsLeasesAndReleasesOfItsTaskOnly(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      TaskId other = randomTask();
      StatusRepository.Releases none = store.inTaskTransaction(task, tx -> tx.status().releases());
      assertEquals(new StatusRepository.Releases(0, Optional.empty()), none);
      assertEquals(new StatusRepository.Backlog(0, Optional.empty(), 0, Optional.empty()),
          store.inTaskTransaction(task, tx -> tx.status().backlog(NOW)));
      // 5 reports at times 20..24; a job claims the two oldest; one of them goes back to the
      // pool until NOW + 60 s
      ReportId[] ids = new ReportId[5];
      store.inTaskTransaction(task, tx -> {
        for (int i = 0; i < 5; i++) {
          ids[i] = reportId();
          tx.clientReports().insertIfAbsent(ids[i], 20 + i, bs(4, i));
        }
        return null;
      });
      store.inTaskTransaction(other, tx -> tx.clientReports().insertIfAbsent(reportId(), 1,
          bs(4, 9)));
      AggregationJobId first = jobId(1);
      AggregationJobId second = jobId(2);
      store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(first, 2, 1,
          Optional.empty(), NOW)).orElseThrow();
      store.inTaskTransaction(task, tx -> tx.clientReports().unclaim(first, List.of(ids[0]),
          NOW.plusSeconds(60)));
      store.inTaskTransaction(task, tx -> tx.aggregationJobs().createLeader(second, 1, 1,
          Optional.empty(), NOW)).orElseThrow();
      assertEquals(new StatusRepository.Backlog(3, Optional.of(20L), 1,
          Optional.of(NOW.plusSeconds(60))),
          store.inTaskTransaction(task, tx -> tx.status().backlog(NOW)),
          "reports 0 (waiting), 3 and 4; report 2 is in the second job");
      // the first job is leased by replica-a and abandoned; the second is leased by replica-b
      LeaderAggregationJob leased = store.jobLeases().leaseAggregationJob(Set.of(task),
          "replica-a", token(1), NOW, Duration.ofMinutes(1)).orElseThrow();
      LeaderAggregationJob leased2 = store.jobLeases().leaseAggregationJob(Set.of(task),
          "replica-b", token(2), NOW, Duration.ofMinutes(1)).orElseThrow();
      LeaderAggregationJob abandoned = leased.jobId().equals(first) ? leased : leased2;
      LeaderAggregationJob held = abandoned == leased ? leased2 : leased;
      String holder = held == leased ? "replica-a" : "replica-b";
      assertTrue(store.jobLeases().abandonAggregationJob(task, abandoned.jobId(),
          held == leased ? token(2) : token(1), "the Helper answered 401", NOW));
      assertEquals(List.of(
          new StatusRepository.JobGroup("abandoned", Optional.of("the Helper answered 401"), 1),
          new StatusRepository.JobGroup("active", Optional.empty(), 1)),
          store.inTaskTransaction(task, tx -> tx.status().leaderJobs()));
      assertEquals(new StatusRepository.Outstanding(3, 1, 1), store.inTaskTransaction(task,
          tx -> tx.status().outstanding(20, 25)));
      assertEquals(new StatusRepository.Outstanding(2, 0, 0), store.inTaskTransaction(task,
          tx -> tx.status().outstanding(23, 25)), "no active job's reports meet [23, 25)");
      List<StatusRepository.Lease> leases = store.inTaskTransaction(task,
          tx -> tx.status().leases(NOW));
      assertEquals(1, leases.size());
      assertEquals("aggregation", leases.get(0).kind());
      assertEquals(held.jobId().toBase64Url(), leases.get(0).jobId());
      assertEquals(holder, leases.get(0).owner());
      assertEquals(NOW.plusSeconds(60), leases.get(0).expires());
      assertEquals(List.of(), store.inTaskTransaction(task,
          tx -> tx.status().leases(NOW.plusSeconds(60))), "expired at its expiry");
      // the Helper's jobs by state and error type
      store.inTaskTransaction(task, tx -> {
        for (int i = 0; i < 3; i++) {
          AggregationJobRecord j = new AggregationJobRecord(task, jobId(10 + i), bs(32, i), 0,
              bs(32, i), AggregationJobRecord.State.PENDING, Optional.empty(), Optional.empty(),
              Optional.empty(), NOW);
          tx.aggregationJobs().put(i == 0 ? j.failed("invalidMessage", "x") : j.ready(bs(3, i)));
        }
        return null;
      });
      assertEquals(List.of(
          new StatusRepository.JobGroup("failed", Optional.of("invalidMessage"), 1),
          new StatusRepository.JobGroup("ready", Optional.empty(), 2)),
          store.inTaskTransaction(task, tx -> tx.status().helperJobs()));
      // two released batches, the later at NOW + 5 s
      for (int i = 0; i < 2; i++) {
        Instant at = NOW.plusSeconds(5 * i);
        int n = i;
        store.inTaskTransaction(task, tx -> tx.releases().putReleasedShareIfAbsent(
            new org.priodp.aggregator.datastore.ReleasedAggregateShare(task,
                Stores.id(100 + n, 1), bs(32, n), bs(20, n), at)));
      }
      assertEquals(new StatusRepository.Releases(2, Optional.of(NOW.plusSeconds(5))),
          store.inTaskTransaction(task, tx -> tx.status().releases()));
      assertEquals(new StatusRepository.Releases(0, Optional.empty()),
          store.inTaskTransaction(other, tx -> tx.status().releases()));
    }
  }
}
