package org.priodp.aggregator.server;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.priodp.aggregator.core.CollectionJobService;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.server.internal.Causes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Steps the Leader's pending collection jobs in the background (DAP-18 "Collection Job
 * Initialization": the Leader waits for the batch, then obtains the aggregate shares;
 * "Distributed Systems and Synchronization Concerns"): {@code workers} threads each, every poll
 * interval, step the jobs of every Leader task until none is due ({@link
 * CollectionJobService#step}); the store's leases keep two workers, or two processes on one
 * PostgreSQL database, off the same job. A failed step is logged and its job is taken up again
 * when its lease expires. {@link #close} stops taking work and lets running steps finish (10 s
 * at most).
 */
public final class CollectionJobDriver implements AutoCloseable {
  /** The default number of worker threads. */
  public static final int DEFAULT_WORKERS = 2;
  /** The default pause between two rounds of a worker. */
  public static final Duration DEFAULT_POLL = Duration.ofSeconds(1);
  private static final int MAX_STEPS_PER_ROUND = 100;
  private static final Logger LOG = LoggerFactory.getLogger(CollectionJobDriver.class);

  private final CollectionJobService service;
  private final java.util.function.Supplier<List<TaskDefinition>> tasks;
  private final int workers;
  private final Duration poll;
  private final AtomicBoolean running = new AtomicBoolean();
  private ScheduledExecutorService pool;

  /** Creates the driver for the Leader tasks; nothing runs before {@link #start}. */
  public CollectionJobDriver(CollectionJobService service, List<TaskDefinition> leaderTasks,
      int workers, Duration poll) {
    this(service, constant(leaderTasks), workers, poll);
  }

  /**
   * Creates the driver for the Leader tasks {@code leaderTasks} supplies at each round (a
   * thread-safe supplier), so that tasks added while it runs are stepped too.
   */
  public CollectionJobDriver(CollectionJobService service,
      java.util.function.Supplier<List<TaskDefinition>> leaderTasks, int workers, Duration poll) {
    this.service = Objects.requireNonNull(service, "service");
    this.tasks = Objects.requireNonNull(leaderTasks, "leaderTasks");
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be >= 1, got " + workers);
    }
    if (poll.isNegative() || poll.isZero()) {
      throw new IllegalArgumentException("poll interval must be positive, got " + poll);
    }
    this.workers = workers;
    this.poll = poll;
  }

  private static java.util.function.Supplier<List<TaskDefinition>> constant(
      List<TaskDefinition> tasks) {
    List<TaskDefinition> copy = List.copyOf(tasks);
    return () -> copy;
  }

  /** Returns the service. */
  public CollectionJobService service() {
    return service;
  }

  /** Starts the workers; throws IllegalStateException if started before. */
  public synchronized void start() {
    if (!running.compareAndSet(false, true) || pool != null) {
      throw new IllegalStateException("already started");
    }
    pool = Executors.newScheduledThreadPool(workers, r -> {
      Thread t = new Thread(r, "priodp-collection-job");
      t.setDaemon(true);
      return t;
    });
    service.heartbeat().start();
    for (int i = 0; i < workers; i++) {
      pool.scheduleWithFixedDelay(this::runOnce, poll.toMillis() * i / workers, poll.toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  /** Steps every task's due jobs until none is due (at most 100 steps); returns how many. */
  public int runOnce() {
    int steps = 0;
    for (TaskDefinition t : tasks.get()) {
      while (steps < MAX_STEPS_PER_ROUND && (running.get() || pool == null)) {
        CollectionJobService.Outcome o;
        try {
          o = service.step(t);
        } catch (RuntimeException e) {
          LOG.error("collection job step of task {} failed: {}", t.taskId().toBase64Url(),
              Causes.forLog(e));
          break;
        }
        if (o == CollectionJobService.Outcome.IDLE) {
          break;
        }
        steps++;
        LOG.debug("collection job of task {}: {}", t.taskId().toBase64Url(), o);
      }
    }
    return steps;
  }

  @Override
  public synchronized void close() {
    running.set(false);
    if (pool == null) {
      return;
    }
    pool.shutdown();
    try {
      pool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      service.heartbeat().close();
    }
  }
}
