package org.priodp.aggregator.core;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.TaskTransaction;

/**
 * The Leader's handling of a Client's upload (DAP-18 "Upload Request", "Leader Behavior", "Report
 * Extensions", "Distributed Systems and Synchronization Concerns"): decides each report of an
 * {@link UploadRequest} for a Leader task and stores the accepted ones in {@code client_reports}
 * until a Leader aggregation job claims them. A task that is not a Leader task is refused with
 * {@link Refusal} (unrecognizedTask); everything else is a per-report outcome, in request order.
 *
 * <p>Per report, first without the store:
 * <ul>
 *   <li>the {@code config_id} of the Leader's encrypted input share names none of this
 *       aggregator's HPKE keys ({@link HelperHpkeKeys}, active or retired): {@code
 *       outdated_config} in DAP-18, {@code hpke_unknown_config_id} in DAP-19 ({@link
 *       org.priodp.aggregator.dap.DapVersion#uploadUnknownHpkeConfig});
 *   <li>the time, in time_precision units, lies more than the clock skew (default five minutes)
 *       after now: {@code report_too_early};
 *   <li>the time lies outside the task's {@code task_interval} extension: {@code report_dropped};
 *   <li>a public extension that is unrecognized (every type but the attribution draft's
 *       privacy_budget under the task's code point): DAP-19's {@code unsupported_extension};
 *       a malformed privacy_budget: {@code invalid_message}; none in a report-budget task:
 *       {@code report_dropped} ({@link ReportBudgetRules}); repeated or out of order:
 *       {@code invalid_message}; in DAP-18 both are {@code invalid_message} (DAP-18 allows
 *       aborting the whole request; one bad report does not fail the others here) ({@link
 *       org.priodp.aggregator.dap.DapVersion#uploadExtensionError}).
 * </ul>
 * Then, for the remaining reports, in ONE task transaction ({@link
 * Datastore#inTaskTransaction}, serialized per task across processes; uploads of the
 * same task that arrive in this process while another commits share the next transaction, so
 * concurrent uploads cost one disk sync, not one each): a time below the
 * task's retention cutoff is {@code report_dropped}; a time whose time_precision bucket was
 * already collected is {@code report_replayed} (the spec's MAY for reports of a collected batch);
 * otherwise the report is inserted if its ID is absent ({@link
 * org.priodp.aggregator.datastore.ClientReportRepository#insertIfAbsent}). If the ID is taken,
 * a byte-identical report is accepted again and nothing is stored (the upload is idempotent,
 * RFC 9110 section 9.2.2), and a different report with the same ID is discarded with {@code
 * report_replayed}. The same transaction counts the stored reports and every refusal of the
 * upload by report error ({@link PipelineCounters}), so the counts are exact across replicas.
 * The Leader's input share is not decrypted: DAP-18 lets the Leader defer decryption, private
 * extensions and replay checks against aggregated reports to aggregation. Thread-safe.
 */
public final class UploadService {
  /** The default clock skew tolerated before a report is too early: five minutes. */
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofMinutes(5);

  private final Datastore store;
  private final HelperHpkeKeys keys;
  private final Clock clock;
  private final Duration clockSkew;
  private final PipelineObserver observer;

  /** Creates the service over a store and this aggregator's key ring, tolerating {@code clockSkew}. */
  public UploadService(Datastore store, HelperHpkeKeys keys, Clock clock,
      Duration clockSkew) {
    this(store, keys, clock, clockSkew, PipelineObserver.NONE);
  }

  /** Creates the service as above, telling {@code observer} of each report it decided. */
  public UploadService(Datastore store, HelperHpkeKeys keys, Clock clock,
      Duration clockSkew, PipelineObserver observer) {
    this.observer = Objects.requireNonNull(observer, "observer");
    this.store = Objects.requireNonNull(store, "store");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
    if (clockSkew.isNegative()) {
      throw new IllegalArgumentException("clock skew must not be negative");
    }
  }

  /** Returns the key ring (whose active keys the Leader advertises at hpke_config). */
  public HelperHpkeKeys keys() {
    return keys;
  }

  /** The outcome of one report: accepted (no error) or the report error, and whether a row was stored. */
  public record Outcome(ReportId reportId, Optional<ReportError> error, boolean stored) {
    /** Rejects null fields and a stored row for a refused report. */
    public Outcome {
      Objects.requireNonNull(reportId, "reportId");
      Objects.requireNonNull(error, "error");
      if (stored && error.isPresent()) {
        throw new IllegalArgumentException("a refused report is not stored");
      }
    }

    /** Returns whether the report was accepted. */
    public boolean accepted() {
      return error.isEmpty();
    }
  }

  /** The outcomes of one upload, in request order. */
  public record Result(List<Outcome> outcomes) {
    /** Copies the list. */
    public Result {
      outcomes = List.copyOf(outcomes);
    }

    /** Returns the refused reports in request order (DAP-18 "Leader Behavior"). */
    public UploadErrors errors() {
      List<ReportUploadStatus> s = new ArrayList<>();
      for (Outcome o : outcomes) {
        o.error().ifPresent(e -> s.add(new ReportUploadStatus(o.reportId(), e)));
      }
      return new UploadErrors(s);
    }

    /** Returns whether every report was accepted (an empty answer). */
    public boolean allAccepted() {
      return outcomes.stream().allMatch(Outcome::accepted);
    }

    /** Returns how many reports were accepted, repeats included. */
    public int accepted() {
      return (int) outcomes.stream().filter(Outcome::accepted).count();
    }

    /** Returns how many rows this upload inserted. */
    public int stored() {
      return (int) outcomes.stream().filter(Outcome::stored).count();
    }
  }

  /**
   * Decides every report of the upload for the Leader task and stores the accepted new ones in
   * one task transaction; throws {@link Refusal} (unrecognizedTask) for a task that is not a
   * Leader task.
   */
  public Result upload(TaskDefinition task, UploadRequest request) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(request, "request");
    CollectorSelectedUploads.refusePlainUpload(task);
    List<Report> reports = request.reports();
    ReportError[] errors = checkAll(task, reports);
    boolean[] stored = new boolean[reports.size()];
    if (!reports.isEmpty()) {
      // also when every report was refused without the store: the refusals are counted in the
      // task transaction (issue 24 "See the pipeline")
      commitGrouped(task, new Pending(reports, errors, stored));
    }
    return result(task, reports, errors, stored);
  }

  /**
   * Decides every report uploaded to the collection job {@code jobId} of a collector_selected
   * Leader task (draft-ietf-ppm-dap-attribution-00 section 4.1, {@code POST
   * {leader}/tasks/{task-id}/reports/{collection-job-id}}): the checks of {@link #upload}, then in
   * one task transaction those of {@link CollectorSelectedUploads}; throws {@link Refusal} for a
   * task or job that takes no such upload.
   */
  public Result uploadToJob(TaskDefinition task, org.priodp.aggregator.dap.CollectionJobId jobId,
      UploadRequest request) {
    Objects.requireNonNull(request, "request");
    CollectorSelectedUploads.checkTask(task, jobId);
    List<Report> reports = request.reports();
    ReportError[] errors = checkAll(task, reports);
    boolean[] stored = new boolean[reports.size()];
    CollectorSelectedUploads.commit(store, task, jobId, reports, errors, stored);
    return result(task, reports, errors, stored);
  }

  /** Runs the checks that need no store on each report, for a Leader task. */
  private ReportError[] checkAll(TaskDefinition task, List<Report> reports) {
    if (task.role() != Role.LEADER) {
      throw Refusal.of(DapError.UNRECOGNIZED_TASK, task.taskId(), "this aggregator is not"
          + " the Leader of the task");
    }
    ReportError[] errors = new ReportError[reports.size()];
    Set<Integer> configIds = new HashSet<>();
    for (HelperHpkeKey k : keys.all()) {
      configIds.add(k.config().id().value());
    }
    long latest = latestAcceptedTime(task.configuration().timePrecision());
    Optional<Interval> taskInterval = task.configuration().taskInterval();
    for (int i = 0; i < reports.size(); i++) {
      errors[i] = check(task, reports.get(i), configIds, latest, taskInterval);
    }
    return errors;
  }

  private Result result(TaskDefinition task, List<Report> reports, ReportError[] errors,
      boolean[] stored) {
    List<Outcome> out = new ArrayList<>(reports.size());
    for (int i = 0; i < reports.size(); i++) {
      out.add(new Outcome(reports.get(i).reportMetadata().reportId(),
          Optional.ofNullable(errors[i]), stored[i]));
      observer.reportUploaded(task.taskId(), Optional.ofNullable(errors[i]));
    }
    return new Result(out);
  }

  /**
   * Returns the latest report time (time_precision units, unsigned) that is not too early:
   * floor((now + skew) / precision), so that time * precision <= now + skew exactly; -1 (none)
   * before the epoch.
   */
  private long latestAcceptedTime(long precision) {
    long now = clock.instant().getEpochSecond();
    long skew = clockSkew.getSeconds();
    long limit = now > Long.MAX_VALUE - skew ? Long.MAX_VALUE : now + skew;
    return limit < 0 ? -1 : Long.divideUnsigned(limit, precision);
  }

  /**
   * The checks that need no store (DAP-19 and DAP-18 "Leader Behavior" of upload, the error
   * chosen by the task's version); null if the report passes them.
   */
  private static ReportError check(TaskDefinition task, Report r, Set<Integer> configIds,
      long latest, Optional<Interval> taskInterval) {
    DapVersion version = task.dapVersion();
    if (!configIds.contains(r.leaderEncryptedInputShare().configId().value())) {
      return version.uploadUnknownHpkeConfig();
    }
    long time = r.reportMetadata().time().value();
    if (latest == -1 || Long.compareUnsigned(time, latest) > 0) {
      return ReportError.REPORT_TOO_EARLY;
    }
    if (taskInterval.isPresent()) {
      Interval ti = taskInterval.get();
      if (Long.compareUnsigned(time, ti.start().value()) < 0
          || !ti.isWellFormed() || Long.compareUnsigned(time, ti.end().value()) >= 0) {
        return ReportError.REPORT_DROPPED;
      }
    }
    Optional<ReportExtension.Failure> failure = ReportExtension.validate(
        r.reportMetadata().publicExtensions(), List.of(), ReportBudgetRules.recognized(task));
    if (failure.isPresent()) {
      return version.uploadExtensionError(failure.get());
    }
    return ReportBudgetRules.check(task, r.reportMetadata().publicExtensions(), List.of())
        .error().orElse(null);
  }

  /** One upload's reports waiting for the task transaction; filled in by whoever commits it. */
  private static final class Pending {
    final List<Report> reports;
    final ReportError[] errors;
    final boolean[] stored;
    boolean done;
    RuntimeException failure;

    Pending(List<Report> reports, ReportError[] errors, boolean[] stored) {
      this.reports = reports;
      this.errors = errors;
      this.stored = stored;
    }
  }

  /** The uploads of one task waiting to be committed, and the lock of the one committing. */
  private static final class Group {
    final java.util.concurrent.locks.ReentrantLock lock =
        new java.util.concurrent.locks.ReentrantLock();
    final java.util.concurrent.ConcurrentLinkedQueue<Pending> queue =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
  }

  private final java.util.concurrent.ConcurrentHashMap<org.priodp.aggregator.dap.TaskId, Group>
      groups = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Commits an upload together with the task's other uploads waiting in this process (group
   * commit: one transaction, so one disk sync, for all of them). Whoever holds the task's lock
   * commits everything queued, in arrival order, in ONE task transaction; an upload committed by
   * another thread meanwhile is done when its owner gets the lock. The lock only saves syncs:
   * the once-only rules hold by the task transaction and the insert-if-absent alone. If the
   * transaction fails, every upload in it fails with that exception.
   */
  private void commitGrouped(TaskDefinition task, Pending mine) {
    Group g = groups.computeIfAbsent(task.taskId(), k -> new Group());
    g.queue.add(mine);
    g.lock.lock();
    try {
      if (!mine.done) {
        List<Pending> batch = new ArrayList<>();
        for (Pending p = g.queue.poll(); p != null; p = g.queue.poll()) {
          batch.add(p);
        }
        RuntimeException failure = null;
        boolean committed = false;
        try {
          store.inTaskTransaction(task.taskId(), tx -> {
            long accepted = 0;
            java.util.Map<ReportError, Long> rejected = new java.util.EnumMap<>(ReportError.class);
            for (Pending p : batch) {
              commit(tx, p.reports, p.errors, p.stored);
              for (int i = 0; i < p.reports.size(); i++) {
                accepted += p.stored[i] ? 1 : 0;
                if (p.errors[i] != null) {
                  rejected.merge(p.errors[i], 1L, Long::sum);
                }
              }
            }
            PipelineCounters.add(tx, PipelineCounters.UPLOAD_ACCEPTED, accepted,
                PipelineCounters.UPLOAD_REJECTED, rejected);
            return null;
          });
          committed = true;
        } catch (RuntimeException e) {
          failure = e;
        } finally {
          // whatever ended the transaction, no upload in it may pass for accepted unless it
          // committed (an Error also fails the others, who would otherwise find their reports
          // taken from the queue but never decided)
          for (Pending p : batch) {
            if (!committed) {
              p.failure = failure != null ? failure
                  : new IllegalStateException("the upload transaction did not complete");
            }
            p.done = true;
          }
        }
      }
    } finally {
      g.lock.unlock();
    }
    if (mine.failure != null) {
      throw mine.failure;
    }
  }

  /** The checks and inserts inside the task transaction. */
  private static void commit(TaskTransaction tx, List<Report> reports, ReportError[] errors,
      boolean[] stored) {
    Optional<Long> cutoff = tx.retention().cutoff();
    for (int i = 0; i < reports.size(); i++) {
      if (errors[i] != null) {
        continue;
      }
      Report r = reports.get(i);
      long time = r.reportMetadata().time().value();
      if (cutoff.isPresent() && Long.compareUnsigned(time, cutoff.get()) < 0) {
        errors[i] = ReportError.REPORT_DROPPED;
        continue;
      }
      // time + 1 exists: a time of 2^64 - 1 units is always too early
      if (tx.releases().collectedIntervalOverlaps(new CollectedInterval(time, time + 1))) {
        errors[i] = ReportError.REPORT_REPLAYED;
        continue;
      }
      ReportId id = r.reportMetadata().reportId();
      ByteString encoded = ByteString.copyOf(r.encode());
      if (tx.clientReports().insertIfAbsent(id, time, encoded)) {
        stored[i] = true;
        continue;
      }
      // the ID is taken: the same report again is accepted (idempotent), another is a replay
      if (!tx.clientReports().get(id).map(encoded::equals).orElse(false)) {
        errors[i] = ReportError.REPORT_REPLAYED;
      }
    }
  }
}
