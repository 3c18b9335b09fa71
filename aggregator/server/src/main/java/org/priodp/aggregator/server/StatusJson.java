package org.priodp.aggregator.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.priodp.aggregator.core.BudgetStatus;
import org.priodp.aggregator.core.PipelineCounters;
import org.priodp.aggregator.core.PipelineStatus;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.StatusRepository;
import org.priodp.noise.Budget;
import org.priodp.noise.ledger.LedgerEntry;
import org.priodp.noise.ledger.PrivacyUnit;

/**
 * Renders {@link PipelineStatus}es as the JSON of {@code GET /admin/status} and of {@code
 * prio-dp status --json} (issue 24 "See the pipeline"; docs/DAP.md "Pipeline status"): an object
 * with {@code "at"} and {@code "tasks"}, one object per task; times are ISO-8601 UTC, counts are
 * numbers, reasons are the report errors' spec names.
 */
public final class StatusJson {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private StatusJson() {
  }

  /** Returns the JSON document of the tasks' statuses at {@code at}. */
  public static String of(Instant at, List<PipelineStatus> tasks) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("at", at.toString());
    List<Object> list = new ArrayList<>();
    for (PipelineStatus s : tasks) {
      list.add(task(s));
    }
    doc.put("tasks", list);
    try {
      return MAPPER.writeValueAsString(doc);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("status JSON", e);
    }
  }

  private static Map<String, Object> task(PipelineStatus s) {
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("task_id", s.taskId().toBase64Url());
    t.put("role", s.role().name().toLowerCase(Locale.ROOT));
    t.put("dap_version", s.dapVersion().tag());
    t.put("uploads", counted(s, PipelineCounters.UPLOAD_ACCEPTED, "accepted",
        PipelineCounters.UPLOAD_REJECTED));
    t.put("leader_aggregation", counted(s, PipelineCounters.LEADER_COUNTED, "counted",
        PipelineCounters.LEADER_REJECTED));
    t.put("helper_aggregation", counted(s, PipelineCounters.HELPER_COUNTED, "counted",
        PipelineCounters.HELPER_REJECTED));
    Map<String, Object> backlog = new LinkedHashMap<>();
    backlog.put("unclaimed_reports", s.backlog().unclaimed());
    backlog.put("oldest_report", text(s.oldestReport()));
    backlog.put("waiting_for_retry", s.backlog().waitingForRetry());
    backlog.put("next_retry", text(s.backlog().nextRetry()));
    t.put("backlog", backlog);
    Map<String, Object> jobs = new LinkedHashMap<>();
    jobs.put("leader", groups(s.leaderJobs()));
    jobs.put("helper", groups(s.helperJobs()));
    t.put("aggregation_jobs", jobs);
    List<Object> leases = new ArrayList<>();
    for (StatusRepository.Lease l : s.leases()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", l.kind());
      m.put("job_id", l.jobId());
      m.put("owner", l.owner());
      m.put("expires", l.expires().toString());
      m.put("attempts", l.attempts());
      leases.add(m);
    }
    t.put("leases", leases);
    List<Object> pending = new ArrayList<>();
    for (PipelineStatus.PendingCollection p : s.pendingCollections()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("job_id", p.jobId().toBase64Url());
      m.put("batch", p.batch());
      m.put("created", p.createdAt().toString());
      m.put("waiting", p.reason().kind());
      m.put("why", p.reason().describe());
      pending.add(m);
    }
    t.put("pending_collection_jobs", pending);
    Map<String, Object> released = new LinkedHashMap<>();
    released.put("batches", s.releases().batches());
    released.put("last", text(s.releases().last()));
    t.put("released", released);
    t.put("privacy_budget", s.budget().map(StatusJson::budget).orElse(null));
    return t;
  }

  /**
   * Returns a task's privacy ledger as JSON (issue 25; docs/PRIVACY.md "Privacy over time"): the
   * unit, the cap, the spend of the worst window, what the cap leaves and what a batch starting
   * now could still spend (exact rationals as text, in {@code measure}), the stated guarantee, and
   * each release with its batch, span, group size, per-report and per-unit cost, total variation,
   * sampler and draw time.
   */
  public static Map<String, Object> budget(BudgetStatus b) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("unit", b.unit().describe());
    if (b.unit() instanceof PrivacyUnit.ClientBound c) {
      m.put("unit_max_reports", c.maxReports());
      m.put("unit_period_seconds", c.periodSeconds());
    }
    m.put("cap", b.cap().map(c -> c.describe(b.unit())).orElse(null));
    m.put("measure", b.measure());
    m.put("cap_total", b.cap().map(c -> c.total().parameter().toString()).orElse(null));
    m.put("window_seconds", b.cap().flatMap(c -> c.windowSeconds()).orElse(null));
    m.put("spent", b.spent().toString());
    m.put("remaining", b.remaining().map(Object::toString).orElse(null));
    m.put("remaining_for_a_batch_starting_now", b.remainingNow().map(Object::toString)
        .orElse(null));
    m.put("guarantee", b.statement().map(g -> g.describe()).orElse(null));
    m.put("guarantee_epsilon", b.statement().map(g -> g.epsilon().toString()).orElse(null));
    m.put("guarantee_delta", b.statement().map(g -> g.delta().toString()).orElse(null));
    List<Object> releases = new ArrayList<>();
    for (LedgerRecord r : b.releases()) {
      LedgerEntry e = r.entry();
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("batch", e.batch());
      x.put("span_start", Instant.ofEpochSecond(e.span().start()).toString());
      x.put("span_end", Instant.ofEpochSecond(e.span().end()).toString());
      x.put("mechanism", e.perReport().perRelease() instanceof Budget.PureDp
          ? "discrete Laplace" : "discrete Gaussian");
      x.put("sampler", r.sampler());
      x.put("per_report", e.perReport().perRelease().parameter().toString());
      x.put("group_size", e.groupSize());
      x.put("per_unit", e.perUnit().perRelease().parameter().toString());
      x.put("cost", b.cost(r).toString());
      x.put("total_variation", e.perUnit().totalVariation().toString());
      x.put("drawn_at", Instant.ofEpochSecond(e.drawnAt()).toString());
      releases.add(x);
    }
    m.put("releases", releases);
    return m;
  }

  private static Map<String, Object> counted(PipelineStatus s, String countedName, String key,
      String rejectedName) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(key, s.counter(countedName, ""));
    m.put("rejected", new LinkedHashMap<>(s.byReason(rejectedName)));
    return m;
  }

  private static List<Object> groups(List<StatusRepository.JobGroup> groups) {
    List<Object> out = new ArrayList<>();
    for (StatusRepository.JobGroup g : groups) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("state", g.state());
      m.put("error", g.error().orElse(null));
      m.put("count", g.count());
      out.add(m);
    }
    return out;
  }

  private static String text(Optional<Instant> t) {
    return t.map(Instant::toString).orElse(null);
  }
}
