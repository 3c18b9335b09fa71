package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.LeaderAggregationDriver;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;

/** The configuration of one aggregator: production defaults, validation, immutability. */
class AggregatorConfigTest {
  @TempDir
  Path dir;

  @Test
  void theBuilderStartsFromTheProductionDefaults() {
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("d.db"))) {
      AggregatorConfig c = AggregatorConfig.builder(List.of(Fixture.laplace(1).task), store)
          .build();
      assertEquals("127.0.0.1", c.bindAddress());
      assertEquals(0, c.port());
      assertTrue(c.tls().isEmpty());
      assertFalse(c.asyncAggregation());
      assertTrue(c.helperPeer().isEmpty());
      assertEquals(LeaderAggregationDriver.Options.defaults(), c.leaderAggregation());
      assertTrue(c.reportRetention().isEmpty());
      assertFalse(c.hpkeKeyAtStart());
      assertEquals(Clock.systemUTC(), c.clock());
      assertTrue(c.aggregationJobExecutor().isEmpty());
      assertTrue(c.aggregateShareExecutor().isEmpty());
      assertEquals(store, c.datastore());
    }
  }

  @Test
  void invalidSettingsAreRefusedWhenBuilt() {
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("v.db"))) {
      TaskDefinition t = Fixture.laplace(2).task;
      for (int port : new int[] {-1, 65536}) {
        assertThrows(IllegalArgumentException.class,
            () -> AggregatorConfig.builder(List.of(t), store).port(port).build());
      }
      assertThrows(IllegalArgumentException.class,
          () -> AggregatorConfig.builder(List.of(t), store).bindAddress(" ").build());
      assertThrows(IllegalArgumentException.class,
          () -> AggregatorConfig.builder(List.of(t), store).reportRetention(Duration.ZERO).build());
      IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
          () -> AggregatorConfig.builder(List.of(t, t), store).build());
      assertTrue(twice.getMessage().contains("appears twice"), twice.getMessage());
      assertThrows(NullPointerException.class,
          () -> AggregatorConfig.builder(List.of(t), store).clock(null).build());
    }
  }

  @Test
  void theTasksAreCopied() {
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("c.db"))) {
      List<TaskDefinition> tasks = new ArrayList<>(List.of(Fixture.laplace(3).task));
      AggregatorConfig c = AggregatorConfig.builder(tasks, store).build();
      tasks.clear();
      assertEquals(1, c.tasks().size());
      assertThrows(UnsupportedOperationException.class, () -> c.tasks().clear());
    }
  }
}
