package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.bytes;
import static org.priodp.aggregator.datastore.jdbc.Stores.holds;
import static org.priodp.aggregator.datastore.jdbc.Stores.id;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.RetentionCounts;
import org.priodp.aggregator.datastore.jdbc.internal.Migrations;

class JdbcRetentionTest {
  @TempDir
  Path dir;

  private static AggregationJobRecord job(TaskId task, int n, AggregationJobRecord.State state,
      long createdMs) {
    AggregationJobRecord j = new AggregationJobRecord(task, new AggregationJobId(bytes(16, n)),
        bs(32, n), 0, bs(32, n), AggregationJobRecord.State.PENDING, Optional.empty(),
        Optional.empty(), Optional.empty(), Instant.ofEpochMilli(createdMs));
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
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      assertEquals(Migrations.latest(), store.schemaVersion());
      TaskId task = randomTask();
      TaskId other = randomTask();
      AggregationJobId jobId = new AggregationJobId(bytes(16, 6));
      // report times in time_precision units; 1 + 2^63 checks the unsigned order
      long[] times = {5, 9, 10, 15, 0x8000_0000_0000_0001L};
      store.inTaskTransaction(task, tx -> {
        assertTrue(tx.retention().cutoff().isEmpty());
        for (int i = 0; i < times.length; i++) {
          tx.clientReports().insertAggregated(new ReportId(bytes(16, i)), jobId, times[i]);
        }
        // written before version 5: no time, never collected
        tx.clientReports().insertAggregated(new ReportId(bytes(16, 99)), jobId);
        for (AggregationJobRecord.State st : AggregationJobRecord.State.values()) {
          tx.aggregationJobs().put(job(task, 10 + st.ordinal(), st, 1_000));
          tx.aggregationJobs().put(job(task, 20 + st.ordinal(), st, 3_000));
        }
        tx.batchBuckets().put(new BatchAggregation(task, id(5, 1), bs(0, 0), bs(16, 1), 1,
            bs(32, 4)));
        return null;
      });
      store.inTaskTransaction(other, tx -> {
        tx.clientReports().insertAggregated(new ReportId(bytes(16, 0)), jobId, 1);
        tx.aggregationJobs().put(job(other, 11, AggregationJobRecord.State.READY, 1_000));
        return null;
      });

      RetentionCounts counts = store.inTaskTransaction(task,
          tx -> tx.retention().collectExpired(10, Instant.ofEpochMilli(2_000)));
      assertEquals(new RetentionCounts(10, 2, 3), counts,
          "reports at 5 and 9; the ready, failed and abandoned jobs created at 1000 ms");
      store.inTaskTransaction(task, tx -> {
        assertEquals(Optional.of(10L), tx.retention().cutoff());
        for (int i = 0; i < times.length; i++) {
          assertEquals(times[i] >= 10 || times[i] < 0,
              tx.clientReports().aggregated(new ReportId(bytes(16, i))),
              "report at " + Long.toUnsignedString(times[i]));
        }
        assertTrue(tx.clientReports().aggregated(new ReportId(bytes(16, 99))));
        for (AggregationJobRecord.State st : AggregationJobRecord.State.values()) {
          assertEquals(st == AggregationJobRecord.State.PENDING,
              tx.aggregationJobs().get(job(task, 10 + st.ordinal(), st, 1_000).jobId())
                  .isPresent(), "old " + st);
          assertTrue(tx.aggregationJobs().get(job(task, 20 + st.ordinal(), st, 3_000).jobId())
              .isPresent(), "new " + st);
        }
        return null;
      });
      assertTrue(store.inTaskTransaction(task, tx -> tx.batchBuckets().get(id(5, 1)))
          .isPresent(), "buckets are kept");
      // other tasks are untouched
      store.inTaskTransaction(other, tx -> {
        assertTrue(tx.retention().cutoff().isEmpty());
        assertTrue(tx.clientReports().aggregated(new ReportId(bytes(16, 0))));
        assertTrue(tx.aggregationJobs().get(job(other, 11, AggregationJobRecord.State.READY,
            1_000).jobId()).isPresent());
        return null;
      });
      // the cutoff never goes back (a replica with a slower clock or a shorter setting)
      RetentionCounts again = store.inTaskTransaction(task,
          tx -> tx.retention().collectExpired(3, Instant.ofEpochMilli(0)));
      assertEquals(new RetentionCounts(10, 0, 0), again);
      RetentionCounts later = store.inTaskTransaction(task,
          tx -> tx.retention().collectExpired(15, Instant.ofEpochMilli(0)));
      assertEquals(new RetentionCounts(15, 1, 0), later);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void retentionDeletesTheLeadersOldReportsExceptThoseOfActiveJobs(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      Instant now = Instant.ofEpochSecond(1_700_000_000L);
      // times 5 (two reports, claimed by a job that finishes), 6 (claimed by a job that stays
      // active), 7 (unclaimed) and 20 (unclaimed, newer than the cutoff 10)
      long[] times = {5, 5, 6, 7, 20};
      ReportId[] ids = new ReportId[times.length];
      for (int i = 0; i < times.length; i++) {
        ids[i] = new ReportId(bytes(16, i + 1));
        int k = i;
        boolean inserted = store.inTaskTransaction(task,
            tx -> tx.clientReports().insertIfAbsent(ids[k], times[k], bs(8, k)));
        assertTrue(inserted);
      }
      AggregationJobId finished = new AggregationJobId(bytes(16, 40));
      AggregationJobId active = new AggregationJobId(bytes(16, 41));
      store.inTaskTransaction(task, tx -> {
        assertEquals(2, tx.aggregationJobs().createLeader(finished, 2, 1, Optional.empty(), now)
            .orElseThrow().reportCount());
        tx.aggregationJobs().finishLeader(finished, now);
        assertEquals(1, tx.aggregationJobs().createLeader(active, 1, 1, Optional.empty(), now)
            .orElseThrow().reportCount());
        return null;
      });
      RetentionCounts counts = store.inTaskTransaction(task,
          tx -> tx.retention().collectExpired(10, now));
      assertEquals(3, counts.reports(), "times 5, 5 and 7");
      store.inTaskTransaction(task, tx -> {
        assertTrue(tx.clientReports().get(ids[0]).isEmpty());
        assertTrue(tx.clientReports().get(ids[1]).isEmpty());
        assertTrue(tx.clientReports().get(ids[2]).isPresent(), "held by an active job");
        assertTrue(tx.clientReports().get(ids[3]).isEmpty());
        assertTrue(tx.clientReports().get(ids[4]).isPresent(), "newer than the cutoff");
        return null;
      });
    }
  }
}
