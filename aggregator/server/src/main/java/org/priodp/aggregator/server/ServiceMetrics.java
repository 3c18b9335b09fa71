package org.priodp.aggregator.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.priodp.aggregator.core.PipelineObserver;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;

/**
 * The service's metrics in a Micrometer {@link PrometheusMeterRegistry}, served as Prometheus
 * text by {@code GET /metrics}, and the {@link PipelineObserver} that counts what the pipeline
 * does (DAP-18 "Uploading Reports", "Aggregating Reports", "Collecting Results"). Labels are
 * bounded: {@code task} is a configured task ID (base64url), {@code reason} a DAP report error
 * (its spec name, or {@code none}), {@code role} {@code leader} or {@code helper}, the others
 * the values listed here.
 *
 * <ul>
 *   <li>{@code priodp_http_requests_seconds} (count, sum, max and histogram buckets) by {@code
 *       route} (a template such as {@code /dap/tasks/{task-id}/aggregate_shares}, never the raw
 *       path), {@code method} and {@code status};
 *   <li>{@code priodp_reports_uploaded_total{task,outcome,reason}}: reports the Leader decided
 *       at upload, {@code outcome} {@code accepted} (reason {@code none}; a repeat of a stored
 *       report too) or {@code rejected} with the report error ({@code report_too_early}, {@code
 *       report_dropped}, {@code report_replayed}, {@code outdated_config} / {@code
 *       hpke_unknown_config_id}, {@code invalid_message}, {@code unsupported_extension});
 *   <li>{@code priodp_reports_aggregated_total{task,role}}: reports an aggregation job added to
 *       this aggregator's batch buckets;
 *   <li>{@code priodp_reports_rejected_total{task,role,reason}}: reports an aggregation job
 *       rejected, by report error (on the Leader, its own rejections and the Helper's);
 *   <li>{@code priodp_aggregation_jobs_total{task,role,outcome}}: steps of aggregation jobs by
 *       how they ended: the Leader's {@code finished}, {@code retry} (the Helper failed
 *       retryably; leased again later), {@code abandoned}, {@code lease_lost}; the Helper's
 *       {@code finished} (new jobs only, never a repeat answered from the store);
 *   <li>{@code priodp_helper_requests_total{task,resource,outcome}} and the histogram {@code
 *       priodp_helper_request_seconds{task,resource}} (buckets 10 ms to 60 s): the Leader's HTTP
 *       exchanges with the Helper ({@code resource} {@code aggregation_jobs} or {@code aggregate_shares}; {@code
 *       outcome} {@code ok}, {@code 4xx}, {@code 5xx}, {@code timeout}, {@code connection}),
 *       every retry and poll counted;
 *   <li>{@code priodp_collection_jobs_total{task,state}}: the Leader's collection jobs by change
 *       of state ({@code created}, {@code ready}, {@code failed}, {@code deleted}) and the
 *       histogram {@code priodp_collection_job_ready_seconds{task}} of the time from creation
 *       to ready (buckets 1 minute to 2 days);
 *   <li>{@code priodp_collection_jobs_pending{task}}, {@code
 *       priodp_collection_job_oldest_pending_seconds{task}} and {@code
 *       priodp_reports_outstanding{task}} (1 while uploaded reports wait for or are in an
 *       aggregation job, else 0): gauges of the Leader's store, read every {@link
 *       PipelineGauges#DEFAULT_PERIOD} (one short transaction per Leader task, not per scrape);
 *   <li>{@code priodp_shares_released_total{task,role}}: batches whose aggregate share this
 *       aggregator released for the first time (a repeat answered from the stored share is not
 *       counted), on the Leader at collection and on the Helper at aggregate_shares;
 *   <li>{@code priodp_privacy_budget_spent{task,unit}}, {@code
 *       priodp_privacy_budget_remaining{task,unit}} and {@code priodp_privacy_budget_cap{task,unit}}
 *       ({@code unit} {@code epsilon} or {@code rho}): gauges of each DP task's privacy ledger
 *       (issue 25; docs/PRIVACY.md "Privacy over time"), what one privacy unit has lost in the
 *       worst window, what the cap leaves and the cap (the last two for a capped task only),
 *       read with the pipeline gauges; both roles;
 *   <li>{@code priodp_batch_overlap_refusals_total}: requests refused with batchOverlap;
 *   <li>{@code priodp_store_errors_total}: requests that failed (500) on a store error;
 *   <li>{@code priodp_retention_deleted_total}: rows deleted by the retention rounds;
 *   <li>JVM memory and threads, CPU and uptime from Micrometer's binders.
 * </ul>
 *
 * Thread-safe.
 */
public final class ServiceMetrics implements PipelineObserver {
  /** The content type of {@link #scrape()} (Prometheus text exposition format 0.0.4). */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private static final Set<String> METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

  /**
   * The buckets of the per-task histograms, few and fixed so that each task adds a bounded number
   * of series: a Helper exchange from 10 ms to a minute, a collection from a minute to two days.
   */
  private static final Duration[] HELPER_BUCKETS = {Duration.ofMillis(10),
      Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
      Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
      Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
      Duration.ofSeconds(60)};
  private static final Duration[] READY_BUCKETS = {Duration.ofMinutes(1), Duration.ofMinutes(5),
      Duration.ofMinutes(15), Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(2),
      Duration.ofHours(6), Duration.ofHours(12), Duration.ofDays(1), Duration.ofDays(2)};

  private final PrometheusMeterRegistry registry;
  private final Counter overlaps;
  private final Counter storeErrors;
  private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> doubleGauges = new ConcurrentHashMap<>();

  /** Creates a registry with the service's meters and the JVM binders. */
  public ServiceMetrics() {
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    overlaps = Counter.builder("priodp.batch.overlap.refusals")
        .description("requests refused with batchOverlap")
        .register(registry);
    storeErrors = Counter.builder("priodp.store.errors")
        .description("requests that failed with 500 because the store failed")
        .register(registry);
  }

  /** Returns the registry (to add meters, or to read them in tests). */
  public MeterRegistry registry() {
    return registry;
  }

  /** Records one answered request. */
  public void request(String route, String method, int status, long nanos) {
    Timer.builder("priodp.http.requests")
        .description("HTTP requests by route template, method and status")
        .tags("route", route, "method", METHODS.contains(method) ? method : "other",
            "status", Integer.toString(status))
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  void batchOverlap() {
    overlaps.increment();
  }

  void storeError() {
    storeErrors.increment();
  }

  private static String task(TaskId task) {
    return task.toBase64Url();
  }

  private static String reason(ReportError error) {
    return error.specName();
  }

  private static String role(Role role) {
    return role.name().toLowerCase(Locale.ROOT);
  }

  private void count(String name, String description, double amount, String... tags) {
    Counter.builder(name).description(description).tags(tags).register(registry)
        .increment(amount);
  }

  private void rejected(TaskId task, Role role, Map<ReportError, Integer> rejected) {
    rejected.forEach((e, n) -> count("priodp.reports.rejected",
        "reports an aggregation job rejected, by report error", n,
        "task", task(task), "role", role(role), "reason", reason(e)));
  }

  private void aggregated(TaskId task, Role role, long n) {
    count("priodp.reports.aggregated", "reports an aggregation job added to the batch buckets",
        n, "task", task(task), "role", role(role));
  }

  private void job(TaskId task, Role role, String outcome) {
    count("priodp.aggregation.jobs", "steps of aggregation jobs by how they ended", 1,
        "task", task(task), "role", role(role), "outcome", outcome);
  }

  /** Counts one report the Leader decided at upload. */
  @Override
  public void reportUploaded(TaskId task, Optional<ReportError> rejection) {
    count("priodp.reports.uploaded", "reports the Leader decided at upload, by outcome and"
        + " report error", 1, "task", task(task),
        "outcome", rejection.isPresent() ? "rejected" : "accepted",
        "reason", rejection.map(ServiceMetrics::reason).orElse("none"));
  }

  /** Counts one step of a Leader aggregation job and, if it finished, its reports. */
  @Override
  public void leaderJob(TaskId task, JobOutcome outcome, long aggregated,
      Map<ReportError, Integer> rejected) {
    job(task, Role.LEADER, outcome.label());
    if (outcome == JobOutcome.FINISHED) {
      aggregated(task, Role.LEADER, aggregated);
      rejected(task, Role.LEADER, rejected);
    }
  }

  /** Counts one new Helper aggregation job and its reports. */
  @Override
  public void helperJob(TaskId task, long aggregated, Map<ReportError, Integer> rejected) {
    job(task, Role.HELPER, JobOutcome.FINISHED.label());
    aggregated(task, Role.HELPER, aggregated);
    rejected(task, Role.HELPER, rejected);
  }

  /** Counts one exchange with the Helper and records its latency. */
  @Override
  public void helperCall(TaskId task, HelperResource resource, CallOutcome outcome,
      Duration latency) {
    count("priodp.helper.requests", "the Leader's HTTP exchanges with the Helper, by outcome",
        1, "task", task(task), "resource", resource.label(), "outcome", outcome.label());
    Timer.builder("priodp.helper.request")
        .description("latency of the Leader's HTTP exchanges with the Helper")
        .tags("task", task(task), "resource", resource.label())
        .serviceLevelObjectives(HELPER_BUCKETS)
        .register(registry)
        .record(latency);
  }

  /** Counts a collection job's change of state and, when ready, its time to ready. */
  @Override
  public void collectionJob(TaskId task, CollectionState state, Optional<Duration> timeToReady) {
    count("priodp.collection.jobs", "the Leader's collection jobs by change of state", 1,
        "task", task(task), "state", state.label());
    timeToReady.ifPresent(d -> Timer.builder("priodp.collection.job.ready")
        .description("time from a collection job's creation to ready")
        .tags("task", task(task))
        .serviceLevelObjectives(READY_BUCKETS)
        .register(registry)
        .record(d.isNegative() ? Duration.ZERO : d));
  }

  /** Counts a batch whose aggregate share this aggregator released for the first time. */
  @Override
  public void shareReleased(TaskId task, Role role) {
    count("priodp.shares.released", "batches whose aggregate share was released for the first"
        + " time", 1, "task", task(task), "role", role(role));
  }

  /**
   * Sets the gauges of a Leader task's state in the store (read by {@link PipelineGauges}): the
   * pending collection jobs, the age of the oldest one (0 if none) and whether reports wait for
   * or are in an aggregation job.
   */
  void pipelineState(TaskId task, long pendingCollectionJobs, Duration oldestPending,
      boolean reportsOutstanding) {
    gauge("priodp.collection.jobs.pending", "the Leader's pending collection jobs", null, task)
        .set(pendingCollectionJobs);
    gauge("priodp.collection.job.oldest.pending", "age of the oldest pending collection job"
        + " (0 if none)", "seconds", task).set(Math.max(0, oldestPending.getSeconds()));
    gauge("priodp.reports.outstanding", "1 while uploaded reports wait for or are in an"
        + " aggregation job, else 0", null, task).set(reportsOutstanding ? 1 : 0);
  }

  /**
   * Sets the gauges of a task's privacy ledger (read by {@link PipelineGauges}): the spend of the
   * worst window and, for a capped task, what the cap leaves and the cap, in {@code measure}
   * ("epsilon" or "rho"). The values are figures for people (doubles); the ledger is exact.
   */
  void privacyBudget(TaskId task, String measure, double spent, Optional<Double> remaining,
      Optional<Double> cap) {
    budgetGauge("priodp.privacy.budget.spent", "what one privacy unit has lost, worst window",
        task, measure).accept(spent);
    remaining.ifPresent(r -> budgetGauge("priodp.privacy.budget.remaining", "what the privacy"
        + " budget cap leaves, worst window", task, measure).accept(r));
    cap.ifPresent(c -> budgetGauge("priodp.privacy.budget.cap", "the privacy budget cap per"
        + " privacy unit", task, measure).accept(c));
  }

  /** Returns the setter of a ledger gauge; the value is held as its IEEE 754 bits. */
  private java.util.function.DoubleConsumer budgetGauge(String name, String description,
      TaskId task, String measure) {
    AtomicLong bits = doubleGauges.computeIfAbsent(name + "/" + task(task) + "/" + measure,
        k -> {
          AtomicLong b = new AtomicLong(Double.doubleToLongBits(0));
          Gauge.builder(name, b, x -> Double.longBitsToDouble(x.get()))
              .description(description).tags("task", task(task), "unit", measure)
              .register(registry);
          return b;
        });
    return v -> bits.set(Double.doubleToLongBits(v));
  }

  private AtomicLong gauge(String name, String description, String unit, TaskId task) {
    return gauges.computeIfAbsent(name + "/" + task(task), k -> {
      AtomicLong v = new AtomicLong();
      Gauge.builder(name, v, AtomicLong::doubleValue).description(description).baseUnit(unit)
          .tags("task", task(task)).register(registry);
      return v;
    });
  }

  /** Returns the metrics in the Prometheus text format. */
  public String scrape() {
    return registry.scrape();
  }
}
