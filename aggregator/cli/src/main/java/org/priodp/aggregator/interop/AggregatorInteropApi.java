package org.priodp.aggregator.interop;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Objects;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.server.TaskRegistry;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.vdaf.Prio3Variant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Leader's and Helper's interoperation test API (draft-dcook-ppm-dap-interop-test-design,
 * "Aggregator (Leader or Helper)"), mounted by {@code serve --interop-test-api} on the DAP port:
 *
 * <ul>
 *   <li>{@code ready}: 200 {@code {}} once the server listens;
 *   <li>{@code endpoint_for_task}: {@code {"status": "success", "endpoint": "/"}}, since every
 *       task is served under the base path of its own endpoint and the harness's URLs end in
 *       "/";
 *   <li>{@code add_task}: builds the task from the request (as {@link InteropTasks} does for all
 *       four parties) and adds it to the aggregator's {@link TaskRegistry}, in memory only: it is
 *       gone when the process stops.
 * </ul>
 *
 * add_task reads task_id, leader, helper, vdaf, role, leader_authentication_token,
 * collector_authentication_token (Leader only; ignored for a Helper), vdaf_verify_key
 * (base64url, 32 bytes: verification_key_id 0), batch_mode (or the older query_type),
 * min_batch_size, time_precision (seconds) and collector_hpke_config (a base64url HpkeConfig);
 * prio-dp's optional task_info and prio_dp. It refuses max_batch_query_count other than 1 (each
 * batch is released once) and ignores max_batch_size, task_start, task_end, task_duration and
 * task_expiration (see docs/DAP.md, "The interop test API"). The tokens are DAP-18 bearer tokens
 * ({@code Authorization: Bearer}), not the draft's DAP-Auth-Token header.
 */
public final class AggregatorInteropApi extends InteropApi {
  private static final Logger LOG = LoggerFactory.getLogger(AggregatorInteropApi.class);
  private final TaskRegistry tasks;

  /** Creates the API that adds tasks to {@code tasks}. */
  public AggregatorInteropApi(TaskRegistry tasks) {
    this.tasks = Objects.requireNonNull(tasks, "tasks");
    endpoint("ready", r -> JSON.createObjectNode());
    endpoint("endpoint_for_task", this::endpointForTask);
    endpoint("add_task", this::addTask);
  }

  @Override
  protected String role() {
    return "Leader or Helper";
  }

  private ObjectNode endpointForTask(Request r) {
    r.taskId();
    role(r);
    r.optText("hostname");
    return success().put("endpoint", "/");
  }

  private ObjectNode addTask(Request r) {
    TaskDefinition task = task(r);
    TaskId id = task.taskId();
    if (tasks.tasks().stream().anyMatch(t -> t.taskId().equals(id))) {
      throw new IllegalArgumentException("task_id: task " + id.toBase64Url()
          + " is already served here");
    }
    tasks.add(task);
    LOG.info("interop test API: added {} task {} ({}, {}, {}, min_batch_size {})",
        task.role() == Role.LEADER ? "Leader" : "Helper", id.toBase64Url(),
        task.variant().describe(), task.configuration().batchMode().specName(),
        task.dpStrategy().describe(), task.configuration().minBatchSize());
    return success();
  }

  /** Builds the task of an add_task request; IllegalArgumentException names the bad field. */
  static TaskDefinition task(Request r) {
    Role role = role(r);
    String leader = InteropTasks.endpoint(r, "leader");
    String helper = InteropTasks.endpoint(r, "helper");
    Prio3Variant variant = InteropTasks.vdaf(r);
    BatchMode mode = InteropTasks.batchMode(r);
    long precision = r.number("time_precision");
    long minBatch = r.number("min_batch_size");
    if (r.has("max_batch_query_count") && r.number("max_batch_query_count") != 1) {
      throw new IllegalArgumentException("max_batch_query_count: prio-dp releases each batch"
          + " once (1), got " + r.number("max_batch_query_count"));
    }
    AuthToken leaderToken = token(r, "leader_authentication_token");
    byte[] verifyKey = r.base64Url("vdaf_verify_key");
    HpkeConfig collectorConfig;
    byte[] encoded = r.base64Url("collector_hpke_config");
    try {
      collectorConfig = HpkeConfig.decode(encoded);
    } catch (DapDecodeException e) {
      throw new IllegalArgumentException("collector_hpke_config: not an encoded HpkeConfig ("
          + e.getMessage() + ")", e);
    }
    TaskParameters p = InteropTasks.parameters(r, leader, helper, variant, precision, minBatch,
        mode);
    TaskDefinition t = new TaskDefinition(p.taskId(), role, p.configuration(), p.variant(),
        p.dpStrategy(), p.sensitivityRule(), collectorConfig, leaderToken)
        .withVdafVerifyKeys(Map.of(0, verifyKey)).withDapVersion(p.dapVersion());
    return role == Role.LEADER
        ? t.withCollectorAuthToken(token(r, "collector_authentication_token")) : t;
  }

  private static Role role(Request r) {
    String role = r.text("role");
    return switch (role) {
      case "leader" -> Role.LEADER;
      case "helper" -> Role.HELPER;
      default -> throw new IllegalArgumentException("role: expected \"leader\" or \"helper\","
          + " got \"" + role + "\"");
    };
  }

  /** Reads a bearer token field (DAP-18 "Request Authentication"). */
  static AuthToken token(Request r, String field) {
    String text = r.text(field);
    try {
      return AuthToken.of(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(r.name(field) + ": " + e.getMessage(), e);
    }
  }
}
