package org.priodp.aggregator.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The service's metrics in a Micrometer {@link PrometheusMeterRegistry}, served as Prometheus
 * text by {@code GET /metrics}:
 *
 * <ul>
 *   <li>{@code priodp_http_requests_seconds} (count, sum, max and histogram buckets) by {@code
 *       route} (a template such as {@code /dap/tasks/{task-id}/aggregate_shares}, never the raw
 *       path), {@code method} and {@code status};
 *   <li>{@code priodp_shares_released_total}: POSTs to aggregate_shares answered with a share;
 *   <li>{@code priodp_batch_overlap_refusals_total}: requests refused with batchOverlap;
 *   <li>{@code priodp_store_errors_total}: requests that failed (500) on a store error;
 *   <li>JVM memory and threads, CPU and uptime from Micrometer's binders.
 * </ul>
 */
public final class ServiceMetrics {
  /** The content type of {@link #scrape()} (Prometheus text exposition format 0.0.4). */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private static final Set<String> METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

  private final PrometheusMeterRegistry registry;
  private final Counter released;
  private final Counter overlaps;
  private final Counter storeErrors;

  /** Creates a registry with the service's meters and the JVM binders. */
  public ServiceMetrics() {
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    released = Counter.builder("priodp.shares.released")
        .description("POST aggregate_shares requests answered with an aggregate share")
        .register(registry);
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

  void shareReleased() {
    released.increment();
  }

  void batchOverlap() {
    overlaps.increment();
  }

  void storeError() {
    storeErrors.increment();
  }

  /** Returns the metrics in the Prometheus text format. */
  public String scrape() {
    return registry.scrape();
  }
}
