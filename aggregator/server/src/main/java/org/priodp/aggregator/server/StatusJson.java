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
import org.priodp.aggregator.core.PipelineCounters;
import org.priodp.aggregator.core.PipelineStatus;
import org.priodp.aggregator.datastore.StatusRepository;

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
    return t;
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
