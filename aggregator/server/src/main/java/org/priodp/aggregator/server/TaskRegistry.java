package org.priodp.aggregator.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.priodp.aggregator.core.TaskDefinition;

/**
 * The set of tasks one aggregator serves (DAP-18 "Task Configuration": a task is provisioned to
 * both aggregators out of band), which may grow while it runs: the routes ({@link DapRouter}),
 * the Leader's aggregation and collection drivers and the retention rounds read it at each use,
 * so a task {@link #add added} after start is served from its next request or round on. It starts
 * with the tasks of the configuration (the task file); tasks added later live in this process's
 * memory only. Thread-safe: each read sees one immutable {@link TaskRoutes} snapshot, and adding
 * replaces it atomically.
 */
public final class TaskRegistry {
  private volatile TaskRoutes routes;

  /**
   * Creates the registry of these tasks; throws IllegalArgumentException, as {@link TaskRoutes#of}
   * does, for a task ID given twice or an endpoint that is not an absolute http(s) URL.
   */
  public TaskRegistry(List<TaskDefinition> tasks) {
    this.routes = TaskRoutes.of(Objects.requireNonNull(tasks, "tasks"));
  }

  /** Returns the current routes: every task served now, under its base path. */
  public TaskRoutes routes() {
    return routes;
  }

  /** Returns every task served now, in the order they were given and added. */
  public List<TaskDefinition> tasks() {
    return routes.tasks();
  }

  /** Returns the Leader tasks served now. */
  public List<TaskDefinition> leaderTasks() {
    return routes.leaderTasks();
  }

  /**
   * Serves one more task from now on; throws IllegalArgumentException (and changes nothing) if
   * its ID is already served or its endpoint is not an absolute http(s) URL.
   */
  public synchronized void add(TaskDefinition task) {
    Objects.requireNonNull(task, "task");
    List<TaskDefinition> next = new ArrayList<>(routes.tasks());
    next.add(task);
    routes = TaskRoutes.of(next);
  }
}
