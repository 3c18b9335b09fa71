package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.AggregationJobService;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.vdaf.dp.DpStrategy;

class RetentionCollectorTest {
  @TempDir
  Path dir;

  @Test
  void parsesSecondsUnitsAndIsoAndRejectsTheRest() {
    assertEquals(Duration.ofSeconds(86400), RetentionCollector.parseDuration("86400"));
    assertEquals(Duration.ofDays(30), RetentionCollector.parseDuration("30d"));
    assertEquals(Duration.ofHours(12), RetentionCollector.parseDuration(" 12H "));
    assertEquals(Duration.ofMinutes(90), RetentionCollector.parseDuration("90m"));
    assertEquals(Duration.ofSeconds(5), RetentionCollector.parseDuration("5s"));
    assertEquals(Duration.ofDays(30), RetentionCollector.parseDuration("P30D"));
    for (String bad : new String[] {"", "d", "30x", "-5", "0", "1.5d", "PT0S"}) {
      assertThrows(IllegalArgumentException.class, () -> RetentionCollector.parseDuration(bad),
          bad);
    }
  }

  @Test
  void aRoundCollectsEveryTaskAndCountsAndCloseStopsTheThread() throws Exception {
    Fixture f = new Fixture(3, new DpStrategy.NoDifferentialPrivacy());
    TaskDefinition task = f.task;
    long precision = task.configuration().timePrecision();
    Clock clock = Clock.fixed(Instant.ofEpochSecond(1000 * precision), ZoneOffset.UTC);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("c.db"))) {
      AggregationJobService service = new AggregationJobService(store,
          new HelperHpkeKeys(store, new SecureRandom(), clock), clock,
          AggregationJobService.DEFAULT_CLOCK_SKEW);
      AggregationJobId job = new AggregationJobId(new byte[16]);
      store.inTaskTransaction(task.taskId(), tx -> {
        for (int i = 0; i < 4; i++) {
          byte[] id = new byte[16];
          id[0] = (byte) i;
          tx.clientReports().insertAggregated(new ReportId(id), job, 8 + i); // 8, 9, 10, 11
        }
        return null;
      });
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      RetentionCollector c = new RetentionCollector(service, List.of(task),
          Duration.ofSeconds(990 * precision), registry); // cutoff 10
      c.start(Duration.ZERO, Duration.ofMillis(50));
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (registry.counter("priodp.retention.deleted", "kind", "reports").count() < 2
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      c.close();
      assertEquals(2.0, registry.counter("priodp.retention.deleted", "kind", "reports").count());
      assertTrue(Thread.getAllStackTraces().keySet().stream()
          .noneMatch(t -> t.getName().equals("priodp-retention") && t.isAlive()),
          "close stops the thread");
      assertEquals(java.util.Optional.of(10L),
          store.inTaskTransaction(task.taskId(), tx -> tx.retention().cutoff()));
    }
  }
}
