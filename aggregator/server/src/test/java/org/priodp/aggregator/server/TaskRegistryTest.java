package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.LeaderFixture;

class TaskRegistryTest {
  @Test
  void addingATaskReplacesTheSnapshotAndKeepsTheOrder() {
    TaskDefinition helper = Fixture.laplace(21).task;
    TaskDefinition leader = LeaderFixture.task(40);
    TaskRegistry r = new TaskRegistry(List.of(helper));
    TaskRoutes before = r.routes();
    assertTrue(r.leaderTasks().isEmpty());
    r.add(leader);
    assertEquals(List.of(helper, leader), r.tasks());
    assertEquals(List.of(leader), r.leaderTasks());
    assertEquals(List.of(helper), before.tasks(), "a snapshot taken before does not change");
  }

  @Test
  void aDuplicateTaskIsRefusedAndChangesNothing() {
    TaskDefinition helper = Fixture.laplace(23).task;
    TaskRegistry r = new TaskRegistry(List.of(helper));
    TaskRoutes before = r.routes();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> r.add(helper));
    assertTrue(e.getMessage().contains("appears twice"), e.getMessage());
    assertSame(before, r.routes());
    assertThrows(IllegalArgumentException.class, () -> new TaskRegistry(List.of(helper, helper)));
  }

  @Test
  void concurrentAddsAreAllKept() throws Exception {
    TaskRegistry r = new TaskRegistry(List.of());
    List<TaskDefinition> tasks = new java.util.ArrayList<>();
    for (int i = 0; i < 16; i++) {
      tasks.add(Fixture.laplace(100 + i).task);
    }
    List<Thread> threads = tasks.stream().map(t -> new Thread(() -> r.add(t))).toList();
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(16, r.tasks().size());
    assertTrue(r.tasks().containsAll(tasks));
  }
}
