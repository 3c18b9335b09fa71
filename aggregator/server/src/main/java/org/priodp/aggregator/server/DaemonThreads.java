package org.priodp.aggregator.server;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs each task on a new daemon thread named {@code PREFIX-N} (N counting from 0), so that a
 * background driver's long-running workers (DAP-18 "Leader Initialization": the Leader's
 * aggregation driver) never keep the JVM alive and end when their task ends. The production
 * executor the assembly ({@link Aggregator}) injects into the core.
 */
public final class DaemonThreads implements Executor {
  private final String prefix;
  private final AtomicInteger next = new AtomicInteger();

  /** Creates the executor naming its threads {@code prefix-0}, {@code prefix-1}, ... */
  public DaemonThreads(String prefix) {
    this.prefix = Objects.requireNonNull(prefix, "prefix");
  }

  @Override
  public void execute(Runnable task) {
    Thread t = new Thread(Objects.requireNonNull(task, "task"),
        prefix + "-" + next.getAndIncrement());
    t.setDaemon(true);
    t.start();
  }
}
