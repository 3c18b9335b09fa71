package org.priodp.aggregator.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.priodp.aggregator.core.AggregationJobService;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.datastore.RetentionCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects expired rows of every task, of either role, periodically (DAP-18 "Reducing Storage
 * Requirements"): every {@code period}, per task in one task transaction, {@link
 * AggregationJobService#collectExpired} with the configured retention. Counts go to the log and
 * to the counter {@code priodp.retention.deleted} (tag {@code kind}: reports, jobs, buckets).
 * {@link #close()} stops it and waits for a running round.
 */
public final class RetentionCollector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RetentionCollector.class);

  /** How often serve collects: every five minutes. */
  public static final Duration DEFAULT_PERIOD = Duration.ofMinutes(5);

  private final AggregationJobService service;
  private final java.util.function.Supplier<List<TaskDefinition>> tasks;
  private final Duration retention;
  private final Counter reports;
  private final Counter jobs;
  private final Counter buckets;
  private ScheduledExecutorService executor;

  /** Creates a collector of the tasks' rows older than {@code retention}. */
  public RetentionCollector(AggregationJobService service, List<TaskDefinition> tasks,
      Duration retention, MeterRegistry registry) {
    this(service, constant(tasks), retention, registry);
  }

  /**
   * Creates a collector of the rows, older than {@code retention}, of the tasks {@code tasks}
   * supplies at each round (a thread-safe supplier), so that tasks added while it runs are
   * collected too.
   */
  public RetentionCollector(AggregationJobService service,
      java.util.function.Supplier<List<TaskDefinition>> tasks, Duration retention,
      MeterRegistry registry) {
    this.service = Objects.requireNonNull(service, "service");
    this.tasks = Objects.requireNonNull(tasks, "tasks");
    this.retention = Objects.requireNonNull(retention, "retention");
    if (retention.isNegative()) {
      throw new IllegalArgumentException("retention must not be negative");
    }
    this.reports = counter(registry, "reports");
    this.jobs = counter(registry, "jobs");
    this.buckets = counter(registry, "buckets");
  }

  private static java.util.function.Supplier<List<TaskDefinition>> constant(
      List<TaskDefinition> tasks) {
    List<TaskDefinition> copy = List.copyOf(tasks);
    return () -> copy;
  }

  private static Counter counter(MeterRegistry registry, String kind) {
    return Counter.builder("priodp.retention.deleted")
        .description("Rows deleted by retention (report IDs, aggregation jobs, batch buckets)")
        .tag("kind", kind).register(registry);
  }

  /** Runs one round over every task; a task that fails is logged and the others still run. */
  public void runOnce() {
    for (TaskDefinition t : tasks.get()) {
      try {
        RetentionCounts c = service.collectExpired(t, retention);
        reports.increment(c.reports());
        jobs.increment(c.jobs());
        buckets.increment(c.buckets());
        if (c.reports() + c.jobs() + c.buckets() > 0) {
          LOG.info("retention: task {} cutoff {}: deleted {} report id(s), {} aggregation job(s),"
              + " {} batch bucket(s)", t.taskId().toBase64Url(), Long.toUnsignedString(c.cutoff()),
              c.reports(), c.jobs(), c.buckets());
        } else {
          LOG.debug("retention: task {} cutoff {}: nothing to delete", t.taskId().toBase64Url(),
              Long.toUnsignedString(c.cutoff()));
        }
      } catch (RuntimeException e) {
        LOG.warn("retention: task {} failed: {}", t.taskId().toBase64Url(), e.toString());
      }
    }
  }

  /** Starts collecting every {@code period}, the first round after {@code initialDelay}. */
  public synchronized void start(Duration initialDelay, Duration period) {
    if (executor != null) {
      throw new IllegalStateException("already started");
    }
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread th = new Thread(r, "priodp-retention");
      th.setDaemon(true);
      return th;
    });
    executor.scheduleWithFixedDelay(this::runOnce, initialDelay.toMillis(), period.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** Stops the rounds and waits up to 10 s for a running one. */
  @Override
  public synchronized void close() {
    if (executor == null) {
      return;
    }
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("retention: a round did not stop within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    executor = null;
  }

  /**
   * Parses a retention: seconds ({@code 86400}) or a number with a unit {@code s}, {@code m},
   * {@code h} or {@code d} ({@code 30d}), or an ISO-8601 duration ({@code P30D}). Must be
   * positive.
   */
  public static Duration parseDuration(String s) {
    String v = s.strip().toLowerCase(Locale.ROOT);
    Duration d;
    try {
      if (v.startsWith("p")) {
        d = Duration.parse(v.toUpperCase(Locale.ROOT));
      } else {
        char u = v.isEmpty() ? ' ' : v.charAt(v.length() - 1);
        String n = Character.isDigit(u) ? v : v.substring(0, v.length() - 1);
        long k = Long.parseLong(n);
        d = switch (Character.isDigit(u) ? 's' : u) {
          case 's' -> Duration.ofSeconds(k);
          case 'm' -> Duration.ofMinutes(k);
          case 'h' -> Duration.ofHours(k);
          case 'd' -> Duration.ofDays(k);
          default -> throw new IllegalArgumentException();
        };
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("expected a duration such as 86400, 30d, 12h or P30D,"
          + " got " + s);
    }
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("expected a positive duration, got " + s);
    }
    return d;
  }
}
