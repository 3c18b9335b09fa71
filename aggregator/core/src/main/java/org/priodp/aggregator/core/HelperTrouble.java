package org.priodp.aggregator.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the operator, once and not per retry, what goes wrong between the Leader and a Helper
 * (DAP-18 "Leader Initialization", "Input Share Validation"): a failed attempt with its cause, the
 * fix and when the next comes, the Helper answering again after failures, and a Helper clock
 * (from its HTTP Date header) off by more than the skew the Helper tolerates. Also computes the
 * Leader's backoff. Thread-safe.
 */
final class HelperTrouble {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderAggregationDriver.class);
  private final Clock clock;
  private final Map<TaskId, Integer> failedInARow = new ConcurrentHashMap<>();
  private final Map<TaskId, Instant> skewLogged = new ConcurrentHashMap<>();

  HelperTrouble(Clock clock) {
    this.clock = clock;
  }

  /**
   * Logs one WARN for a job whose Helper call failed for a cause the operator can fix (see {@link
   * HelperPeer.HelperException#fixable}), naming the cause and the fix, and returns how long the
   * job waits: {@code retryDelay} doubled per failure up to {@link
   * LeaderAggregationDriver#MAX_REQUEUE_DELAY}.
   */
  Duration failed(TaskDefinition task, LeaderAggregationJob job, int failure,
      HelperPeer.HelperException e, Duration retryDelay) {
    Duration delay = backoff(retryDelay, failure);
    failedInARow.merge(job.taskId(), 1, Integer::sum);
    String fix = e.fix().isEmpty() ? "" : ": " + e.fix() + " ("
        + task.configuration().helperAggregatorEndpoint() + ")";
    LOG.warn("aggregation job {} of task {}: {}{}; failed attempt {}, next in {}",
        job.jobId().toBase64Url(), job.taskId().toBase64Url(), e.getMessage(), fix, failure,
        span(delay));
    return delay;
  }

  /** Logs one INFO when a job of the task finished after failed attempts. */
  void answered(TaskId taskId) {
    Integer before = failedInARow.remove(taskId);
    if (before != null && before > 0) {
      LOG.info("task {}: Helper reachable again after {} failed attempts", taskId.toBase64Url(),
          before);
    }
  }

  /**
   * Logs one WARN per task per hour when the Helper's clock, as its answer stated it, differs
   * from this Leader's by more than the clock skew the Helper tolerates (DAP-18 "Input Share
   * Validation": a Helper behind rejects reports as report_too_early).
   */
  void helperClock(TaskDefinition task, Instant helperTime) {
    Instant mine = clock.instant();
    Duration skew = Duration.between(mine, helperTime);
    if (skew.abs().compareTo(UploadService.DEFAULT_CLOCK_SKEW) <= 0) {
      return;
    }
    boolean[] log = {false};
    skewLogged.compute(task.taskId(), (t, last) -> {
      if (last == null || !mine.isBefore(last.plus(Duration.ofHours(1)))) {
        log[0] = true;
        return mine;
      }
      return last;
    });
    if (log[0]) {
      LOG.warn("task {}: the Helper's clock is {} {} this Leader's (its HTTP Date header); it"
          + " rejects reports as report_too_early while it is behind: check the clocks (NTP)"
          + " of both", task.taskId().toBase64Url(), span(skew.abs()),
          skew.isNegative() ? "behind" : "ahead of");
    }
  }

  /**
   * Returns {@code first} doubled {@code n - 1} times, at most {@link
   * LeaderAggregationDriver#MAX_REQUEUE_DELAY}.
   */
  static Duration backoff(Duration first, int n) {
    Duration d = first;
    for (int i = 1; i < n && d.compareTo(LeaderAggregationDriver.MAX_REQUEUE_DELAY) < 0; i++) {
      d = d.multipliedBy(2);
    }
    Duration max = LeaderAggregationDriver.MAX_REQUEUE_DELAY;
    return d.compareTo(max) > 0 ? max : d;
  }

  /** Returns a duration as {@code 1h 2m 3s}, leaving out leading zero units. */
  static String span(Duration d) {
    long s = d.getSeconds();
    if (s >= 3600) {
      return (s / 3600) + "h " + (s % 3600 / 60) + "m " + (s % 60) + "s";
    }
    return s >= 60 ? (s / 60) + "m " + (s % 60) + "s" : s + "s";
  }
}
