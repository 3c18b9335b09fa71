package org.priodp.aggregator.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.priodp.aggregator.core.BudgetStatus;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.server.internal.Causes;
import org.priodp.noise.Accuracy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, every period, the state of each Leader task's pipeline from the store into the gauges
 * of {@link ServiceMetrics} (DAP-18 "Collecting Results"): the pending collection jobs, the age
 * of the oldest, and whether uploaded reports still wait for or are in an aggregation job. One
 * short task transaction per Leader task and period, whatever the scrape rate; a failed read is
 * logged and the gauges keep their last values. With the tasks of both roles it also reads each
 * DP task's privacy ledger ({@link BudgetStatus}: spent, remaining, cap; issue 25) into the
 * budget gauges. {@link #close} stops it.
 */
public final class PipelineGauges implements AutoCloseable {
  /** The default period between two reads. */
  public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(PipelineGauges.class);

  private final Datastore store;
  private final java.util.function.Supplier<List<TaskDefinition>> leaderTasks;
  private final java.util.function.Supplier<List<TaskDefinition>> budgetTasks;
  private final ServiceMetrics metrics;
  private final Clock clock;
  private ScheduledExecutorService pool;

  /** Creates the reader of the Leader tasks {@code leaderTasks} supplies; nothing runs yet. */
  public PipelineGauges(Datastore store,
      java.util.function.Supplier<List<TaskDefinition>> leaderTasks, ServiceMetrics metrics,
      Clock clock) {
    this(store, leaderTasks, List::of, metrics, clock);
  }

  /**
   * Creates the reader of the Leader tasks {@code leaderTasks} supplies and of the privacy
   * ledgers of the tasks {@code budgetTasks} supplies (both roles); nothing runs yet.
   */
  public PipelineGauges(Datastore store,
      java.util.function.Supplier<List<TaskDefinition>> leaderTasks,
      java.util.function.Supplier<List<TaskDefinition>> budgetTasks, ServiceMetrics metrics,
      Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.budgetTasks = Objects.requireNonNull(budgetTasks, "budgetTasks");
    this.leaderTasks = Objects.requireNonNull(leaderTasks, "leaderTasks");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Reads every Leader task's state once into the gauges. */
  public void refresh() {
    Instant now = clock.instant();
    for (TaskDefinition t : leaderTasks.get()) {
      try {
        store.inTaskTransaction(t.taskId(), tx -> {
          List<CollectionJobRecord> pending = tx.collectionJobs().inStates(
              EnumSet.of(CollectionJobRecord.State.PENDING));
          Duration oldest = pending.stream().map(CollectionJobRecord::createdAt).min(
              Instant::compareTo).map(c -> Duration.between(c, now)).orElse(Duration.ZERO);
          // the whole unsigned time range but its last unit
          boolean outstanding = tx.clientReports().outstanding(0L, -1L);
          metrics.pipelineState(t.taskId(), pending.size(), oldest, outstanding);
          return null;
        });
      } catch (RuntimeException e) {
        LOG.warn("reading the pipeline gauges of task {} failed: {}", t.taskId().toBase64Url(),
            Causes.forLog(e));
      }
    }
    for (TaskDefinition t : budgetTasks.get()) {
      try {
        BudgetStatus.read(store, t, now).ifPresent(b -> metrics.privacyBudget(t.taskId(),
            b.measure(), Accuracy.toDouble(b.spent()), b.remaining().map(Accuracy::toDouble),
            b.cap().map(c -> Accuracy.toDouble(c.total().parameter()))));
      } catch (RuntimeException e) {
        LOG.warn("reading the privacy budget gauges of task {} failed: {}",
            t.taskId().toBase64Url(), Causes.forLog(e));
      }
    }
  }

  /** Reads now and then every {@code period} on a daemon thread; throws if started before. */
  public synchronized void start(Duration period) {
    if (pool != null) {
      throw new IllegalStateException("already started");
    }
    pool = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "priodp-pipeline-gauges");
      t.setDaemon(true);
      return t;
    });
    pool.scheduleWithFixedDelay(this::refresh, 0, period.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops the reads (a read in progress finishes, 10 s at most). */
  @Override
  public synchronized void close() {
    if (pool == null) {
      return;
    }
    pool.shutdown();
    try {
      pool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
