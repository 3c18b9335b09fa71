package org.priodp.aggregator.interop;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.client.DapProblemException;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.task.TimeText;

/**
 * The Collector's interoperation test API (draft-dcook-ppm-dap-interop-test-design,
 * "Collector"), served by {@code prio-dp interop-collector}; its tasks and jobs live in memory:
 *
 * <ul>
 *   <li>{@code add_task}: generates an HPKE key pair of DAP-18's mandatory suite (X25519,
 *       HKDF-SHA256, AES-128-GCM) and answers its configuration, base64url, as {@code
 *       collector_hpke_config}. It reads task_id, leader, vdaf, collector_authentication_token
 *       and batch_mode, and, because DAP-18 seals the aggregate shares over the whole
 *       TaskConfiguration, what the draft gives only the aggregators: helper, time_precision and
 *       min_batch_size (refused when missing), prio-dp's task_info and prio_dp when they got
 *       them.
 *   <li>{@code collection_start}: starts {@link DapCollector#collect} in the background (DAP-18
 *       "Collecting Results") and answers a {@code handle}. agg_param must be empty (Prio3);
 *       the query's batch mode is {@code batch_mode} (or the older {@code type}); a
 *       time_interval query gives batch_interval_start and batch_interval_duration in seconds,
 *       multiples of the time precision.
 *   <li>{@code collection_poll}: {@code "in progress"}, {@code "error"} with why, or {@code
 *       "complete"} with report_count, interval_start and interval_duration (seconds) and
 *       result (decimal strings). DAP-18's CollectionJobResp carries no batch ID, so a
 *       leader-selected result has no batch_id.
 * </ul>
 */
public final class CollectorInteropApi extends InteropApi {
  /** How long one collection may wait for the Leader before it fails. */
  static final Duration COLLECT_TIMEOUT = Duration.ofMinutes(10);

  private final HttpClient http;
  private final SecureRandom random;
  private final ExecutorService executor;
  private final Map<TaskId, CollectorTask> tasks = new ConcurrentHashMap<>();
  private final Map<String, Job> jobs = new ConcurrentHashMap<>();

  private record Job(long timePrecision, Future<CollectionResult> result) {}

  /**
   * Creates the API: collections call the Leader over {@code http} and run on {@code executor}
   * (owned by the caller); HPKE config IDs and handles come from {@code random}.
   */
  public CollectorInteropApi(HttpClient http, SecureRandom random, ExecutorService executor) {
    this.http = Objects.requireNonNull(http, "http");
    this.random = Objects.requireNonNull(random, "random");
    this.executor = Objects.requireNonNull(executor, "executor");
    endpoint("ready", r -> JSON.createObjectNode());
    endpoint("add_task", this::addTask);
    endpoint("collection_start", this::collectionStart);
    endpoint("collection_poll", this::collectionPoll);
  }

  @Override
  protected String role() {
    return "Collector";
  }

  private ObjectNode addTask(Request r) {
    String leader = InteropTasks.endpoint(r, "leader");
    InteropTasks.requireForAad(r, "Collector", "helper", "time_precision", "min_batch_size");
    String helper = InteropTasks.endpoint(r, "helper");
    TaskParameters p = InteropTasks.parameters(r, leader, helper, InteropTasks.vdaf(r),
        r.number("time_precision"), r.number("min_batch_size"), InteropTasks.batchMode(r));
    AuthToken token = AggregatorInteropApi.token(r, "collector_authentication_token");
    HpkeSuite suite = HpkeSuite.DAP_MANDATORY;
    HpkeKeyPair key = new Hpke(suite).generateKeyPair();
    HpkeConfig config;
    synchronized (random) {
      config = new HpkeConfig(new HpkeConfigId(random.nextInt(256)), suite.kem(), suite.kdf(),
          suite.aead(), key.publicKey());
    }
    if (tasks.putIfAbsent(p.taskId(), new CollectorTask(p, token, config, key)) != null) {
      throw new IllegalArgumentException("task_id: task " + p.taskId().toBase64Url()
          + " was added before");
    }
    return success().put("collector_hpke_config",
        Base64.getUrlEncoder().withoutPadding().encodeToString(config.encode()));
  }

  private ObjectNode collectionStart(Request r) {
    TaskId id = r.taskId();
    CollectorTask task = tasks.get(id);
    if (task == null) {
      throw new IllegalArgumentException("task_id: task " + id.toBase64Url() + " was not added"
          + " to this Collector (add_task first)");
    }
    if (r.has("agg_param") && r.base64Url("agg_param").length != 0) {
      throw new IllegalArgumentException("agg_param: Prio3 takes no aggregation parameter"
          + " (expected \"\")");
    }
    long precision = task.parameters().configuration().timePrecision();
    Query query = query(r.object("query"), precision);
    BatchMode mode = task.parameters().configuration().batchMode();
    if (query.batchMode() != mode) {
      throw new IllegalArgumentException("query: the task's batch mode is " + mode.specName()
          + ", the query's " + query.batchMode().specName());
    }
    DapCollector collector = DapCollector.of(task, http, COLLECT_TIMEOUT);
    byte[] b = new byte[16];
    synchronized (random) {
      random.nextBytes(b);
    }
    String handle = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    jobs.put(handle, new Job(precision, executor.submit(
        () -> collector.collect(query, (poll, wait, waited) -> { }))));
    return success().put("handle", handle);
  }

  /** Reads the query object ("Batch Mode"); times are seconds, as the draft writes them. */
  private static Query query(Request q, long precision) {
    String field = q.has("batch_mode") || !q.has("type") ? "batch_mode" : "type";
    long mode = q.number(field);
    if (mode == 2) {
      return new Query.LeaderSelected();
    }
    if (mode != 1) {
      throw new IllegalArgumentException(q.name(field) + ": expected 1 (time_interval) or 2"
          + " (leader_selected), got " + mode);
    }
    long start = q.number("batch_interval_start");
    long duration = q.number("batch_interval_duration");
    return new Query.TimeInterval(TimeText.toUnits(start, duration, precision,
        q.name("batch_interval")));
  }

  private ObjectNode collectionPoll(Request r) throws InterruptedException {
    String handle = r.text("handle");
    Job job = jobs.get(handle);
    if (job == null) {
      throw new IllegalArgumentException("handle: no collection job " + handle
          + " (collection_start answers the handle)");
    }
    if (!job.result().isDone()) {
      return JSON.createObjectNode().put("status", "in progress");
    }
    CollectionResult c;
    try {
      c = job.result().get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      String why = cause instanceof DapProblemException p ? p.getMessage()
          : cause.getClass().getSimpleName() + ": " + cause.getMessage();
      return error("the collection failed: " + why);
    }
    ObjectNode out = JSON.createObjectNode().put("status", "complete")
        .put("report_count", c.reportCount())
        .put("interval_start", c.interval().start().value() * job.timePrecision())
        .put("interval_duration", c.interval().duration().value() * job.timePrecision());
    out.set("result", InteropTasks.result(c.result()));
    return out;
  }
}
