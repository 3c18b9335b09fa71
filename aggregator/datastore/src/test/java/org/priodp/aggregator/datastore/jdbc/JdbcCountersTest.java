package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.TaskCounter;

class JdbcCountersTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void incrementsAddUpPerTaskNameAndReasonAndRollBackWithTheirTransaction(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      TaskId other = randomTask();
      store.inTaskTransaction(task, tx -> {
        tx.counters().add("upload_accepted", "", 3);
        tx.counters().addAll("upload_rejected", Map.of("report_too_early", 2L,
            "report_replayed", 1L));
        tx.counters().add("upload_rejected", "report_dropped", 0); // nothing written
        return null;
      });
      store.inTaskTransaction(task, tx -> {
        tx.counters().add("upload_accepted", "", 4);
        tx.counters().add("upload_rejected", "report_too_early", 5);
        return null;
      });
      store.inTaskTransaction(other, tx -> {
        tx.counters().add("upload_accepted", "", 100);
        return null;
      });
      assertThrows(IllegalStateException.class, () -> store.inTaskTransaction(task, tx -> {
        tx.counters().add("upload_accepted", "", 1000);
        throw new IllegalStateException("the event was not decided");
      }));
      assertEquals(List.of(new TaskCounter("upload_accepted", "", 7),
          new TaskCounter("upload_rejected", "report_replayed", 1),
          new TaskCounter("upload_rejected", "report_too_early", 7)),
          store.inTaskTransaction(task, tx -> tx.counters().all()));
      assertEquals(List.of(new TaskCounter("upload_accepted", "", 100)),
          store.inTaskTransaction(other, tx -> tx.counters().all()));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aNegativeDeltaOrABadNameIsRefused(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      store.inTaskTransaction(task, tx -> {
        assertThrows(IllegalArgumentException.class, () -> tx.counters().add("x", "", -1));
        assertThrows(IllegalArgumentException.class, () -> tx.counters().add("", "", 1));
        assertThrows(IllegalArgumentException.class, () -> tx.counters().add("a b", "", 1));
        assertThrows(IllegalArgumentException.class,
            () -> tx.counters().add("x".repeat(65), "", 1));
        return null;
      });
      assertEquals(List.of(), store.inTaskTransaction(task, tx -> tx.counters().all()));
    }
  }

  /**
   * Two store instances on one database (two replicas) each add 1 in 100 task transactions from
   * two threads each, all at once: the counter ends at exactly 400.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void concurrentIncrementsFromTwoStoresAreExact(String backend) throws Exception {
    try (JdbcDatastore a = Stores.open(backend, dir); JdbcDatastore b = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      Stores.atOnce(4, 4, i -> () -> {
        JdbcDatastore s = i % 2 == 0 ? a : b;
        for (int k = 0; k < 100; k++) {
          s.inTaskTransaction(task, tx -> {
            tx.counters().add("helper_counted", "", 1);
            return null;
          });
        }
        return null;
      });
      assertEquals(List.of(new TaskCounter("helper_counted", "", 400)),
          a.inTaskTransaction(task, tx -> tx.counters().all()));
    }
  }
}
