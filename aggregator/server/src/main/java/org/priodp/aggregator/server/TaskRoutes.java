package org.priodp.aggregator.server;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;

/**
 * Where each task's resources live (DAP-18 "HTTP Usage": a resource URL is the aggregator's base
 * API URL followed by {@code tasks/{task-id}/...}, and the base URL may carry path components).
 * A Helper task is served under the path of its {@code helper_aggregator_endpoint} and a Leader
 * task under the path of its {@code leader_aggregator_endpoint}, each normalised to end with "/"
 * (an empty path is "/"), so tasks of both roles and with different paths share one server.
 * Immutable.
 */
public final class TaskRoutes {
  private final Map<String, Map<TaskId, TaskDefinition>> served;
  private final Set<String> basePaths;
  private final List<TaskDefinition> leaderTasks;
  private final List<TaskDefinition> tasks;

  private TaskRoutes(Map<String, Map<TaskId, TaskDefinition>> served, Set<String> basePaths,
      List<TaskDefinition> leaderTasks, List<TaskDefinition> tasks) {
    this.served = served;
    this.basePaths = basePaths;
    this.leaderTasks = leaderTasks;
    this.tasks = tasks;
  }

  /**
   * Builds the routes; throws IllegalArgumentException naming the task when its helper endpoint
   * is not an absolute http(s) URL or a task ID appears twice.
   */
  public static TaskRoutes of(List<TaskDefinition> tasks) {
    Map<String, Map<TaskId, TaskDefinition>> served = new HashMap<>();
    Set<String> bases = new HashSet<>();
    Set<TaskId> seen = new HashSet<>();
    List<TaskDefinition> leaders = new java.util.ArrayList<>();
    for (TaskDefinition t : tasks) {
      if (!seen.add(t.taskId())) {
        throw new IllegalArgumentException("task " + t.taskId().toBase64Url() + " appears twice");
      }
      boolean leader = t.role() == Role.LEADER;
      String base;
      try {
        base = basePath(leader ? t.configuration().leaderAggregatorEndpoint()
            : t.configuration().helperAggregatorEndpoint());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("task " + t.taskId().toBase64Url() + ": "
            + (leader ? "leader" : "helper") + "_aggregator_endpoint: " + e.getMessage(), e);
      }
      bases.add(base);
      if (leader) {
        leaders.add(t);
      }
      served.computeIfAbsent(base, b -> new HashMap<>()).put(t.taskId(), t);
    }
    Map<String, Map<TaskId, TaskDefinition>> frozen = new HashMap<>();
    served.forEach((b, m) -> frozen.put(b, Map.copyOf(m)));
    return new TaskRoutes(Map.copyOf(frozen), Set.copyOf(bases), List.copyOf(leaders),
        List.copyOf(tasks));
  }

  /**
   * Returns the path of an aggregator endpoint URL, as sent on the wire (percent-encoding kept),
   * ending with "/". Throws IllegalArgumentException unless it is an absolute http or https URL
   * with a host and without query or fragment.
   */
  public static String basePath(String endpoint) {
    URI u;
    try {
      u = new URI(endpoint);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a URL: " + e.getMessage(), e);
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (u.isOpaque() || !(scheme.equals("http") || scheme.equals("https"))
        || u.getRawAuthority() == null || u.getRawAuthority().isEmpty()) {
      throw new IllegalArgumentException("must be an absolute http or https URL, got " + endpoint);
    }
    if (u.getRawQuery() != null || u.getRawFragment() != null) {
      throw new IllegalArgumentException("must not have a query or fragment, got " + endpoint);
    }
    String p = u.getRawPath() == null ? "" : u.getRawPath();
    if (p.isEmpty()) {
      return "/";
    }
    return p.endsWith("/") ? p : p + "/";
  }

  /** Returns the creation URL path {@code {base}tasks/{task-id}/aggregate_shares} of a task. */
  public static String aggregateSharesPath(TaskDefinition task) {
    return basePath(task.configuration().helperAggregatorEndpoint()) + "tasks/"
        + task.taskId().toBase64Url() + "/aggregate_shares";
  }

  /** Returns the task (of either role) served at this base path, or null. */
  TaskDefinition task(String basePath, TaskId taskId) {
    return served.getOrDefault(basePath, Map.of()).get(taskId);
  }

  /** Returns true if some configured task (of either role) has this base path. */
  boolean isBasePath(String basePath) {
    return basePaths.contains(basePath);
  }

  /** Returns the base paths of the configured tasks, sorted. */
  public Set<String> basePaths() {
    return Collections.unmodifiableSet(new TreeSet<>(basePaths));
  }

  /** Returns the served Helper tasks. */
  public List<TaskDefinition> helperTasks() {
    return served.values().stream().flatMap(m -> m.values().stream())
        .filter(t -> t.role() == Role.HELPER).toList();
  }

  /** Returns every served task, of either role, in the order given to {@link #of}. */
  public List<TaskDefinition> tasks() {
    return tasks;
  }

  /** Returns the served Leader tasks. */
  public List<TaskDefinition> leaderTasks() {
    return leaderTasks;
  }

  /** Returns the creation URL path {@code {base}tasks/{task-id}/aggregation_jobs} of a task. */
  public static String aggregationJobsPath(TaskDefinition task) {
    return basePath(task.configuration().helperAggregatorEndpoint()) + "tasks/"
        + task.taskId().toBase64Url() + "/aggregation_jobs";
  }

  /** The collection segment of an aggregate-share URL. */
  static final String AGGREGATE_SHARES = "aggregate_shares";
  /** The collection segment of an aggregation-job URL (DAP-18 "Aggregating Reports"). */
  static final String AGGREGATION_JOBS = "aggregation_jobs";
  /** The Leader's reports resource (DAP-18 "Upload Request"); it has no resource ID. */
  static final String REPORTS = "reports";
  /** The Leader's collection jobs (DAP-18 "Collection Job Initialization"). */
  static final String COLLECTION_JOBS = "collection_jobs";

  /**
   * A request path split into its parts: the base path, the task ID segment, for a resource URL
   * the resource ID segment (null for the creation URL), and the collection ({@link
   * #AGGREGATE_SHARES}, {@link #AGGREGATION_JOBS}, {@link #REPORTS} or {@link #COLLECTION_JOBS}).
   */
  record Target(String basePath, String taskId, String resourceId, String collection) {
  }

  /**
   * Splits {@code {base}tasks/{task-id}/{collection}[/{id}]} from the end
   * (the base path may itself contain "tasks"); returns null for any other shape.
   */
  static Target parse(String path) {
    if (path == null || !path.startsWith("/")) {
      return null;
    }
    String[] s = path.split("/", -1);
    int n = s.length;
    if (n >= 4 && isCollection(s[n - 1]) && s[n - 3].equals("tasks")) {
      return new Target(join(s, n - 3), s[n - 2], null, s[n - 1]);
    }
    if (n >= 5 && isCollection(s[n - 2]) && s[n - 4].equals("tasks")) {
      return new Target(join(s, n - 4), s[n - 3], s[n - 1], s[n - 2]);
    }
    return null;
  }

  private static boolean isCollection(String segment) {
    return segment.equals(AGGREGATE_SHARES) || segment.equals(AGGREGATION_JOBS)
        || segment.equals(REPORTS) || segment.equals(COLLECTION_JOBS);
  }

  /**
   * Returns the base path of {@code {base}hpke_config} (DAP-18 "HPKE Configuration Request"), or
   * null if the path has another shape.
   */
  static String hpkeConfigBase(String path) {
    if (path == null || !path.startsWith("/") || !path.endsWith("/hpke_config")) {
      return null;
    }
    return path.substring(0, path.length() - "hpke_config".length());
  }

  private static String join(String[] segments, int count) {
    return String.join("/", java.util.Arrays.asList(segments).subList(0, count)) + "/";
  }
}
