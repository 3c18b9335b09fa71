package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.bs;
import static org.priodp.aggregator.datastore.jdbc.Stores.bytes;
import static org.priodp.aggregator.datastore.jdbc.Stores.id;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.BucketBudgets;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.aggregator.datastore.ReportTimes;

class JdbcBatchBucketsTest {
  @TempDir
  Path dir;

  private static void put(JdbcDatastore store, BatchAggregation a) {
    store.inTaskTransaction(a.taskId(), tx -> {
      tx.batchBuckets().put(a);
      return null;
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void roundTripsBatchAggregationsWithUpsertAndOrderedRanges(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      for (int start = 10; start < 15; start++) {
        put(store, new BatchAggregation(task, id(start, 1), ByteString.EMPTY,
            bs(16, start), start, bs(32, start)));
      }
      // uint64 values beyond 2^63 must still sort after small ones (unsigned byte order)
      put(store, new BatchAggregation(task, id(-5L, 1), ByteString.EMPTY,
          bs(16, 1), -1L, bs(32, 1)));
      BatchAggregation replaced = new BatchAggregation(task, id(12, 1),
          ByteString.copyOf(new byte[] {1}), bs(16, 99), 99, bs(32, 99));
      put(store, replaced);
      assertEquals(replaced, store.inTaskTransaction(task, tx -> tx.batchBuckets()
          .get(BatchIdentifier.of(Interval.of(12, 1).encode()))).orElseThrow());
      List<BatchAggregation> range = store.inTaskTransaction(task, tx -> tx.batchBuckets()
          .range(BatchIdentifier.of(Interval.of(11, 0).encode()),
              BatchIdentifier.of(Interval.of(14, 0).encode())));
      assertEquals(3, range.size());
      assertEquals(id(11, 1), range.get(0).batch());
      assertEquals(replaced, range.get(1));
      List<BatchAggregation> all = store.inTaskTransaction(task, tx -> tx.batchBuckets()
          .range(BatchIdentifier.of(new byte[1]), BatchIdentifier.of(bytes(17, 0xff))));
      assertEquals(6, all.size());
      assertEquals(-1L, all.get(5).reportCount());
      assertTrue(store.inTaskTransaction(randomTask(), tx -> tx.batchBuckets()
          .get(BatchIdentifier.of(Interval.of(12, 1).encode()))).isEmpty());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void deletesAHalfOpenRangeOfOneTask(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      TaskId other = randomTask();
      for (int start = 1; start <= 4; start++) {
        put(store, new BatchAggregation(task, id(start, 1), ByteString.EMPTY, bs(8, start), 1,
            bs(32, start)));
        put(store, new BatchAggregation(other, id(start, 1), ByteString.EMPTY, bs(8, start), 1,
            bs(32, start)));
      }
      assertEquals(2, (int) store.inTaskTransaction(task,
          tx -> tx.batchBuckets().deleteRange(id(2, 0), id(4, 0))));
      assertEquals(List.of(id(1, 1), id(4, 1)), store.inTaskTransaction(task,
          tx -> tx.batchBuckets().range(id(0, 0), id(9, 0))).stream()
          .map(BatchAggregation::batch).toList());
      assertEquals(4, store.inTaskTransaction(other,
          tx -> tx.batchBuckets().range(id(0, 0), id(9, 0))).size(), "other tasks keep theirs");
    }
  }

  @Test
  void aBucketOfAnotherTaskIsRefused() {
    try (JdbcDatastore store = Stores.open("sqlite", dir)) {
      BatchAggregation a = new BatchAggregation(randomTask(), id(1, 1), ByteString.EMPTY,
          bs(8, 1), 1, bs(32, 1));
      org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> store.inTaskTransaction(randomTask(), tx -> {
            tx.batchBuckets().put(a);
            return null;
          }));
    }
  }

  /**
   * Report times widen per bucket and survive the bucket's upsert; a range answers the union
   * over the buckets that have one (issue 25: the span of a leader-selected batch).
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void reportTimesWidenSurviveUpsertsAndUnionOverARange(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      BatchAggregation a = new BatchAggregation(task, id(1, 1), ByteString.EMPTY, bs(8, 1), 1, bs(32, 1));
      BatchAggregation b = new BatchAggregation(task, id(2, 1), ByteString.EMPTY, bs(8, 2), 1, bs(32, 2));
      put(store, a);
      put(store, b);
      assertEquals(java.util.Optional.empty(), store.inTaskTransaction(task,
          tx -> tx.batchBuckets().reportTimes(id(0, 0), id(9, 0))), "buckets without times");
      store.inTaskTransaction(task, tx -> {
        tx.batchBuckets().widenReportTimes(id(1, 1), new ReportTimes(3600, 7200));
        tx.batchBuckets().widenReportTimes(id(1, 1), new ReportTimes(5400, 5400)); // inside
        tx.batchBuckets().widenReportTimes(id(1, 1), new ReportTimes(1800, 3600)); // earlier
        tx.batchBuckets().widenReportTimes(id(9, 1), new ReportTimes(0, 1)); // no such bucket
        return null;
      });
      put(store, new BatchAggregation(task, id(1, 1), ByteString.EMPTY, bs(8, 3), 2, bs(32, 3)));
      assertEquals(java.util.Optional.of(new ReportTimes(1800, 7200)), store.inTaskTransaction(task,
          tx -> tx.batchBuckets().reportTimes(id(0, 0), id(9, 0))));
      store.inTaskTransaction(task, tx -> {
        tx.batchBuckets().widenReportTimes(id(2, 1), new ReportTimes(9000, 10800));
        return null;
      });
      assertEquals(java.util.Optional.of(new ReportTimes(1800, 10800)), store.inTaskTransaction(task,
          tx -> tx.batchBuckets().reportTimes(id(0, 0), id(9, 0))));
      assertEquals(java.util.Optional.of(new ReportTimes(9000, 10800)), store.inTaskTransaction(task,
          tx -> tx.batchBuckets().reportTimes(id(2, 0), id(9, 0))));
    }
  }

  /**
   * The reports' privacy budgets (attribution draft section 5, schema version 16) round-trip with
   * the bucket, are replaced by its upsert, and a bucket written without them reads as unknown.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void reportBudgetsRoundTripAndUnknownReadsAsMissing(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      BucketBudgets some = new BucketBudgets(java.util.Optional.of(new MicroEpsilon(250_000)), false);
      BucketBudgets none = new BucketBudgets(java.util.Optional.empty(), true);
      BucketBudgets big = new BucketBudgets(java.util.Optional.of(new MicroEpsilon(0xffff_ffffL)), true);
      put(store, new BatchAggregation(task, id(1, 1), ByteString.EMPTY, bs(8, 1), 1, bs(32, 1), some));
      put(store, new BatchAggregation(task, id(2, 1), ByteString.EMPTY, bs(8, 1), 1, bs(32, 1), none));
      put(store, new BatchAggregation(task, id(3, 1), ByteString.EMPTY, bs(8, 1), 1, bs(32, 1), big));
      put(store, new BatchAggregation(task, id(4, 1), ByteString.EMPTY, bs(8, 1), 1, bs(32, 1),
          BucketBudgets.EMPTY));
      List<BatchAggregation> all = store.inTaskTransaction(task, tx -> tx.batchBuckets()
          .range(id(0, 0), id(9, 0)));
      assertEquals(List.of(some, none, big, BucketBudgets.EMPTY),
          all.stream().map(BatchAggregation::budgets).toList());
      // the upsert replaces them
      BucketBudgets lower = new BucketBudgets(java.util.Optional.of(new MicroEpsilon(1)), false);
      put(store, new BatchAggregation(task, id(1, 1), ByteString.EMPTY, bs(8, 2), 2, bs(32, 2), lower));
      assertEquals(lower, store.inTaskTransaction(task, tx -> tx.batchBuckets().get(id(1, 1)))
          .orElseThrow().budgets());
      // a row written before version 16 (both columns NULL) reads as unknown: missing
      store.inTaskTransaction(task, tx -> {
        ((JdbcBatchBuckets) tx.batchBuckets()).sql(c -> Sql.update(c, "UPDATE batch_aggregations"
            + " SET min_privacy_budget = NULL, budget_missing = NULL WHERE task_id = ?", task.bytes()));
        return null;
      });
      assertEquals(BucketBudgets.UNKNOWN, store.inTaskTransaction(task,
          tx -> tx.batchBuckets().get(id(1, 1))).orElseThrow().budgets());
    }
  }
}
