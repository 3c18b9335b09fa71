package org.priodp.aggregator.taskfile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.priodp.aggregator.core.PrivacySettings;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;
import org.priodp.aggregator.task.AttributionCodePoints;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.DpBinding;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.task.TimeText;
import org.priodp.vdaf.Prio3Algorithm;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * Reads the service's task list from JSON (the task parameters of DAP-18 "Task Configuration" plus
 * this project's DP settings). Every problem is an IllegalArgumentException whose message starts
 * with the JSON path of the offending field, e.g. {@code tasks[0].dp_strategy.budget.epsilon}.
 * Unknown fields are refused so that a typo is not silently ignored.
 *
 * <p>The DP strategy is accepted in Janus's serde shape, {@code {"dp_strategy":
 * "PureDpDiscreteLaplace", "budget": {"epsilon": [[1], [10]]}}} (a ratio of BigUint values, each a
 * little-endian array of base-2^32 digits), and in a readable one, {@code {"dp_strategy":
 * "PureDpDiscreteLaplace", "epsilon": "0.1"}} (or "1/10"); likewise ZCdpDiscreteGaussian with
 * {@code rho}, or Janus's {@code "budget": {"epsilon": ...}} read as libprio does (rho =
 * epsilon^2/2, so sigma = sensitivity/epsilon), and
 * {@code {"dp_strategy": "NoDifferentialPrivacy"}}. See docs/DAP.md for the whole format.
 */
public final class TaskFile {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Set<String> TASK_FIELDS = Set.of("task_id", "dap_version", "role",
      "task_info",
      "leader_aggregator_endpoint", "helper_aggregator_endpoint", "time_precision",
      "min_batch_size", "batch_mode", "extensions", "task_interval", "vdaf", "dp_strategy", "sensitivity_rule",
      "noise_sampler", "privacy_unit", "privacy_budget", AttributionJson.CODE_POINTS, "collector_hpke_config", "auth_token", "auth_token_env", "vdaf_verify_key",
      "vdaf_verify_keys", "collector_auth_token", "collector_auth_token_env");

  private TaskFile() {
  }

  /** Reads and validates a task file; environment variables come from the process. */
  public static List<TaskDefinition> read(Path file) throws IOException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IOException("task file " + file + ": no such file", e);
    } catch (java.nio.file.AccessDeniedException e) {
      throw new IOException("task file " + file + ": permission denied", e);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new IOException("task file " + file + ": not UTF-8 text");
    } catch (IOException e) {
      String reason = e instanceof java.nio.file.FileSystemException f && f.getReason() != null
          ? f.getReason() : e.getMessage();
      throw new IOException("task file " + file + ": " + reason, e);
    }
    return parse(text, System::getenv);
  }

  /** Parses and validates task JSON, looking environment variables up with {@code env}. */
  public static List<TaskDefinition> parse(String json, Function<String, String> env) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("task file: not valid JSON (line "
          + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")");
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("task file: expected a JSON object {\"tasks\": [...]}");
    }
    only(root, "", Set.of("tasks"));
    JsonNode tasks = root.get("tasks");
    if (tasks == null || !tasks.isArray() || tasks.isEmpty()) {
      throw new IllegalArgumentException("tasks: expected a non-empty array");
    }
    List<TaskDefinition> out = new ArrayList<>();
    Set<TaskId> seen = new HashSet<>();
    for (int i = 0; i < tasks.size(); i++) {
      String path = "tasks[" + i + "]";
      TaskDefinition t = task(tasks.get(i), path, env);
      if (!seen.add(t.taskId())) {
        throw new IllegalArgumentException(path + ".task_id: duplicate task " + t.taskId().toBase64Url());
      }
      out.add(t);
    }
    return List.copyOf(out);
  }

  private static TaskDefinition task(JsonNode n, String path, Function<String, String> env) {
    if (!n.isObject()) {
      throw new IllegalArgumentException(path + ": expected an object");
    }
    only(n, path, TASK_FIELDS);
    TaskId taskId = wrap(path + ".task_id", () -> TaskId.fromBase64Url(text(n, path, "task_id")));
    DapVersion version = dapVersion(n, path);
    Role role = role(n, path);
    byte[] info = taskInfo(n, path);
    String leader = endpoint(n, path, "leader_aggregator_endpoint");
    String helper = endpoint(n, path, "helper_aggregator_endpoint");
    long precision = uint64(n, path, "time_precision");
    long minBatch = uint64(n, path, "min_batch_size");
    BatchMode mode = batchMode(n, path);
    if (n.has("task_interval")) {
      throw new IllegalArgumentException(path + ".task_interval: the task interval is now the"
          + " DAP-18 task extension: \"extensions\": [{\"type\": \"task_interval\","
          + " \"start\": \"2026-01-01T00:00:00Z\", \"duration\": 86400}] (seconds)");
    }
    if (!n.has("time_precision") || uint64(n, path, "time_precision") == 0) {
      throw new IllegalArgumentException(path + ".time_precision: must be a positive number of"
          + " seconds");
    }
    Prio3Variant variant = wrap(path + ".vdaf", () -> vdaf(need(n, path, "vdaf"), path + ".vdaf"));
    DpStrategy strategy = DpSettingsJson.dpStrategy(need(n, path, "dp_strategy"),
        path + ".dp_strategy");
    SensitivityRule rule = DpSettingsJson.sensitivityRule(n, path);
    HpkeConfig hpke = hpkeConfig(need(n, path, "collector_hpke_config"),
        path + ".collector_hpke_config");
    AuthToken token = authToken(n, path, env, "auth_token");
    AttributionCodePoints codePoints = AttributionJson.codePoints(n, path);
    List<TaskExtension> ext = n.has("extensions")
        ? extensions(n.get("extensions"), path + ".extensions", precision, variant, strategy, rule,
            codePoints)
        : List.of();
    TaskConfiguration config = wrap(path, () -> TaskDefinition.configurationFor(variant, info,
        leader, helper, precision, minBatch, mode, ext));
    boolean hardened = DpSettingsJson.hardenedSampler(n, path, variant, strategy, rule);
    java.util.Map<Integer, byte[]> keys = verifyKeys(n, path);
    TaskDefinition t = wrap(path, () -> new TaskDefinition(taskId, role, config, variant, strategy,
        rule, hpke, token, hardened, codePoints));
    PrivacySettings privacy = DpSettingsJson.privacy(n, path);
    TaskDefinition keyed = wrap(path, () -> t.withVdafVerifyKeys(keys).withDapVersion(version)
        .withPrivacy(privacy));
    boolean collectorToken = n.has("collector_auth_token") || n.has("collector_auth_token_env");
    if (role == Role.LEADER) {
      if (!collectorToken) {
        throw new IllegalArgumentException(path + ": a leader task needs collector_auth_token or"
            + " collector_auth_token_env (the token the Collector presents)");
      }
      AuthToken collector = authToken(n, path, env, "collector_auth_token");
      return wrap(path, () -> keyed.withCollectorAuthToken(collector));
    }
    if (collectorToken) {
      throw new IllegalArgumentException(path + ".collector_auth_token: only a leader task has"
          + " one (the Helper never sees the Collector's token)");
    }
    return keyed;
  }

  /**
   * "vdaf_verify_key" (base64url, the key with verification_key_id 0) or "vdaf_verify_keys"
   * ({@code {"0": "...", "1": "..."}}), optional: DAP-18 "Task Configuration". Without either the
   * task cannot aggregate.
   */
  private static java.util.Map<Integer, byte[]> verifyKeys(JsonNode n, String path) {
    java.util.Map<Integer, byte[]> out = new java.util.TreeMap<>();
    if (n.has("vdaf_verify_key") && n.has("vdaf_verify_keys")) {
      throw new IllegalArgumentException(path + ".vdaf_verify_keys: give vdaf_verify_key or"
          + " vdaf_verify_keys, not both");
    }
    if (n.has("vdaf_verify_key")) {
      out.put(0, base64Url(text(n, path, "vdaf_verify_key"), path + ".vdaf_verify_key"));
    } else if (n.has("vdaf_verify_keys")) {
      JsonNode m = n.get("vdaf_verify_keys");
      String p = path + ".vdaf_verify_keys";
      if (!m.isObject() || m.isEmpty()) {
        throw new IllegalArgumentException(p + ": expected an object {\"0\": \"<base64url>\", ...}");
      }
      Iterator<String> it = m.fieldNames();
      while (it.hasNext()) {
        String id = it.next();
        if (!id.matches("[0-9]{1,3}") || Integer.parseInt(id) > 255) {
          throw new IllegalArgumentException(p + "." + id + ": a key id must be 0..255");
        }
        out.put(Integer.parseInt(id), base64Url(text(m, p, id), p + "." + id));
      }
    }
    for (var e : out.entrySet()) {
      if (e.getValue().length != org.priodp.vdaf.Prio3.VERIFY_KEY_SIZE) {
        throw new IllegalArgumentException(path + (n.has("vdaf_verify_key") ? ".vdaf_verify_key"
            : ".vdaf_verify_keys." + e.getKey()) + ": " + e.getValue().length
            + " bytes, Prio3 needs " + org.priodp.vdaf.Prio3.VERIFY_KEY_SIZE);
      }
    }
    return out;
  }

  static <T> T wrap(String path, java.util.function.Supplier<T> s) {
    try {
      return s.get();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(prefixed(path, e), e);
    }
  }

  /**
   * Returns the message prefixed with the JSON path once: an inner message that already names the
   * path, or starts with the path's last field names (such as "task_id: "), is not prefixed twice.
   */
  static String prefixed(String path, Exception e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (m.startsWith(path)) {
      return m;
    }
    String last = path.substring(path.lastIndexOf('.') + 1);
    int bracket = last.indexOf('[');
    String bare = bracket >= 0 ? last.substring(0, bracket) : last;
    while (!bare.isEmpty() && m.startsWith(bare + ": ")) {
      m = m.substring(bare.length() + 2);
    }
    return path + ": " + m;
  }

  /**
   * An endpoint URL (DAP-18 "Task Configuration"): absolute, http or https, with a host; it may
   * carry a path. Spaces and other characters a URI may not hold are refused.
   */
  private static String endpoint(JsonNode n, String path, String field) {
    String v = text(n, path, field);
    String p = path + "." + field;
    java.net.URI uri;
    try {
      uri = new java.net.URI(v);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException(p + ": not a URL (" + e.getReason() + ")");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !scheme.equals("http")) {
      throw new IllegalArgumentException(p + ": expected an absolute https:// (or http://) URL,"
          + " got \"" + v + "\"");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw new IllegalArgumentException(p + ": the URL has no host");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException(p + ": the URL must not have a query or fragment");
    }
    return v;
  }

  /**
   * Reads "extensions" (DAP-18 "Task Extensions"), listed by name: {@code {"type":
   * "task_interval", "start": S, "duration": D}} with S in seconds since the epoch or RFC 3339
   * and D in seconds, both multiples of time_precision, stored as an Interval in time_precision
   * units; {@code {"type": "dp_binding"}}, prio-dp's opt-in {@link DpBinding}; the attribution
   * draft's collector_identity and budget_source ({@link AttributionJson}). Each at most once.
   */
  private static List<TaskExtension> extensions(JsonNode n, String path, long precision,
      Prio3Variant variant, DpStrategy strategy, SensitivityRule rule,
      AttributionCodePoints codePoints) {
    if (!n.isArray()) {
      throw new IllegalArgumentException(path + ": expected an array of {\"type\": ...} objects");
    }
    List<TaskExtension> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n.size(); i++) {
      String p = path + "[" + i + "]";
      JsonNode e = n.get(i);
      if (!e.isObject()) {
        throw new IllegalArgumentException(p + ": expected an object with a \"type\"");
      }
      String type = text(e, p, "type");
      if (!seen.add(type)) {
        throw new IllegalArgumentException(p + ".type: " + type + " is listed twice");
      }
      switch (type) {
        case "task_interval" -> {
          only(e, p, Set.of("type", "start", "duration"));
          long start = seconds(need(e, p, "start"), p + ".start");
          long duration = uint64(e, p, "duration");
          out.add(TaskExtension.taskInterval(TimeText.toUnits(start, duration, precision, p)));
        }
        case "dp_binding" -> {
          only(e, p, Set.of("type"));
          out.add(DpBinding.extension(variant, strategy, rule));
        }
        default -> out.add(AttributionJson.extension(type, e, p, codePoints).orElseThrow(() ->
            new IllegalArgumentException(p + ".type: unknown task extension '" + type
                + "' (task_interval, dp_binding, collector_identity, budget_source)")));
      }
    }
    out.sort(java.util.Comparator.comparingInt(TaskExtension::extensionType));
    return out;
  }

  static void only(JsonNode n, String path, Set<String> allowed) {
    Iterator<String> it = n.fieldNames();
    while (it.hasNext()) {
      String f = it.next();
      if (!allowed.contains(f)) {
        throw new IllegalArgumentException((path.isEmpty() ? "" : path + ".") + f
            + ": unknown field (expected one of " + new java.util.TreeSet<>(allowed) + ")");
      }
    }
  }

  static JsonNode need(JsonNode n, String path, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      throw new IllegalArgumentException(path + "." + field + ": missing");
    }
    return v;
  }

  static String text(JsonNode n, String path, String field) {
    JsonNode v = need(n, path, field);
    if (!v.isTextual() || v.asText().isEmpty()) {
      throw new IllegalArgumentException(path + "." + field + ": expected a non-empty string");
    }
    return v.asText();
  }

  private static long uint64(JsonNode n, String path, String field) {
    JsonNode v = need(n, path, field);
    BigInteger b;
    if (v.isIntegralNumber()) {
      b = v.bigIntegerValue();
    } else if (v.isTextual() && v.asText().matches("[0-9]{1,20}")) {
      b = new BigInteger(v.asText());
    } else {
      throw new IllegalArgumentException(path + "." + field + ": expected an unsigned integer");
    }
    if (b.signum() < 0 || b.bitLength() > 64) {
      throw new IllegalArgumentException(path + "." + field + ": out of uint64 range");
    }
    return b.longValue();
  }

  private static Role role(JsonNode n, String path) {
    if (!n.has("role")) {
      return Role.HELPER;
    }
    return switch (text(n, path, "role").toLowerCase(Locale.ROOT)) {
      case "helper" -> Role.HELPER;
      case "leader" -> Role.LEADER;
      default -> throw new IllegalArgumentException(path + ".role: expected helper or leader");
    };
  }

  private static BatchMode batchMode(JsonNode n, String path) {
    return switch (text(n, path, "batch_mode").toLowerCase(Locale.ROOT)) {
      case "time_interval", "timeinterval" -> BatchMode.TIME_INTERVAL;
      case "leader_selected", "leaderselected" -> BatchMode.LEADER_SELECTED;
      case "collector_selected", "collectorselected" -> BatchMode.COLLECTOR_SELECTED;
      default -> throw new IllegalArgumentException(path
          + ".batch_mode: expected time_interval, leader_selected or collector_selected");
    };
  }

  /** The VDAFs a task may name: the registered Prio3 variants. */
  private static final List<String> VDAF_TYPES = java.util.Arrays.stream(Prio3Algorithm.values())
      .filter(Prio3Algorithm::registered).map(Prio3Algorithm::specName).toList();

  /**
   * Reads {"type": name, parameter: value, ...} with each value an unsigned JSON integer or a
   * string of digits; {@link Prio3Variant#parse} checks the names and values.
   */
  private static Prio3Variant vdaf(JsonNode n, String path) {
    if (!n.isObject()) {
      throw new IllegalArgumentException(path + ": expected an object with a \"type\"");
    }
    String type = text(n, path, "type");
    if (!VDAF_TYPES.contains(type)) {
      throw new IllegalArgumentException(path + ".type: unknown VDAF '" + type + "' ("
          + String.join(", ", VDAF_TYPES) + ")");
    }
    java.util.Map<String, String> parameters = new java.util.LinkedHashMap<>();
    Iterator<String> it = n.fieldNames();
    while (it.hasNext()) {
      String field = it.next();
      if (field.equals("type")) {
        continue;
      }
      JsonNode v = n.get(field);
      if (v.isIntegralNumber()) {
        parameters.put(field, v.bigIntegerValue().toString());
      } else if (v.isTextual() && v.asText().matches("[0-9]+")) {
        parameters.put(field, v.asText());
      } else {
        throw new IllegalArgumentException(path + "." + field + ": expected an unsigned integer");
      }
    }
    return Prio3Variant.parse(type, parameters);
  }

  private static HpkeConfig hpkeConfig(JsonNode n, String path) {
    if (n.isTextual()) {
      byte[] b = base64Url(n.asText(), path);
      return wrap(path, () -> HpkeConfig.decode(b));
    }
    if (!n.isObject()) {
      throw new IllegalArgumentException(path + ": expected an object or the base64url encoding"
          + " of an HpkeConfig");
    }
    only(n, path, Set.of("id", "kem_id", "kdf_id", "aead_id", "public_key"));
    long id = uint64(n, path, "id");
    if (id > 255) {
      throw new IllegalArgumentException(path + ".id: out of uint8 range");
    }
    HpkeKemId kem = wrap(path + ".kem_id", () -> HpkeKemId.fromCode((int) Math.min(uint64(n, path, "kem_id"), 0x10000)));
    HpkeKdfId kdf = wrap(path + ".kdf_id", () -> HpkeKdfId.fromCode((int) Math.min(uint64(n, path, "kdf_id"), 0x10000)));
    HpkeAeadId aead = wrap(path + ".aead_id", () -> HpkeAeadId.fromCode((int) Math.min(uint64(n, path, "aead_id"), 0x10000)));
    byte[] pk = base64Url(text(n, path, "public_key"), path + ".public_key");
    return wrap(path, () -> new HpkeConfig(new HpkeConfigId((int) id), kem, kdf, aead, pk));
  }

  private static byte[] base64Url(String s, String path) {
    try {
      return Base64.getUrlDecoder().decode(s.replace("=", ""));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ": not base64url");
    }
  }

  private static AuthToken authToken(JsonNode n, String path, Function<String, String> env,
      String field) {
    String envField = field + "_env";
    boolean direct = n.has(field);
    boolean fromEnv = n.has(envField);
    if (direct == fromEnv) {
      throw new IllegalArgumentException(path + ": give exactly one of " + field + " or "
          + envField);
    }
    if (direct) {
      return wrap(path + "." + field, () -> AuthToken.of(text(n, path, field)));
    }
    String name = text(n, path, envField);
    String value = env.apply(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(path + "." + envField + ": environment variable " + name
          + " is not set");
    }
    return wrap(path + "." + envField, () -> AuthToken.of(value));
  }

  /**
   * Reads the public parameters of a task object (what client.json and collector.json hold, read
   * with the same rules as a task; see {@link ClientTaskFile#fromJson}).
   */
  static TaskParameters parameters(JsonNode n, String path, Set<String> otherFields) {
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException(path + ": expected a JSON object");
    }
    Set<String> allowed = new HashSet<>(ClientTaskFile.FIELDS);
    allowed.addAll(otherFields);
    only(n, path, allowed);
    TaskId taskId = wrap(path + ".task_id", () -> TaskId.fromBase64Url(text(n, path, "task_id")));
    DapVersion version = dapVersion(n, path);
    byte[] info = taskInfo(n, path);
    String leader = endpoint(n, path, "leader_aggregator_endpoint");
    String helper = endpoint(n, path, "helper_aggregator_endpoint");
    long precision = uint64(n, path, "time_precision");
    if (precision == 0) {
      throw new IllegalArgumentException(path + ".time_precision: must be a positive number of"
          + " seconds");
    }
    long minBatch = uint64(n, path, "min_batch_size");
    BatchMode mode = batchMode(n, path);
    Prio3Variant variant = wrap(path + ".vdaf", () -> vdaf(need(n, path, "vdaf"), path + ".vdaf"));
    DpStrategy strategy = DpSettingsJson.dpStrategy(need(n, path, "dp_strategy"),
        path + ".dp_strategy");
    SensitivityRule rule = DpSettingsJson.sensitivityRule(n, path);
    AttributionCodePoints codePoints = AttributionJson.codePoints(n, path);
    List<TaskExtension> ext = n.has("extensions")
        ? extensions(n.get("extensions"), path + ".extensions", precision, variant, strategy, rule,
            codePoints)
        : List.of();
    TaskConfiguration config = wrap(path, () -> TaskDefinition.configurationFor(variant, info,
        leader, helper, precision, minBatch, mode, ext));
    return wrap(path, () -> new TaskParameters(taskId, version, config, variant, strategy,
        rule, codePoints));
  }

  /**
   * Reads "dap_version": "dap-19" or "dap-18", the DAP draft the task speaks; absent means
   * {@link DapVersion#latest()} (DAP-19).
   */
  private static DapVersion dapVersion(JsonNode n, String path) {
    if (!n.has("dap_version")) {
      return DapVersion.latest();
    }
    return wrap(path + ".dap_version", () -> DapVersion.fromTag(text(n, path, "dap_version")));
  }

  /**
   * Reads "task_info" as UTF-8 bytes; it may be empty (DAP-19), which the task's version checks
   * (DAP-18 needs at least one byte).
   */
  private static byte[] taskInfo(JsonNode n, String path) {
    JsonNode v = need(n, path, "task_info");
    if (!v.isTextual()) {
      throw new IllegalArgumentException(path + ".task_info: expected a string");
    }
    return v.asText().getBytes(StandardCharsets.UTF_8);
  }

  /** Reads an HpkeConfig field: the object of a task file or the base64url of its encoding. */
  static HpkeConfig hpkeConfigField(JsonNode n, String path, String field) {
    return hpkeConfig(need(n, path, field), path + "." + field);
  }

  /** Reads a bearer token field, or its {@code _env} twin from the process environment. */
  static AuthToken authTokenField(JsonNode n, String path, String field) {
    return authToken(n, path, System::getenv, field);
  }

  /** Reads a base64url string field. */
  static byte[] base64UrlField(JsonNode n, String path, String field) {
    return base64Url(text(n, path, field), path + "." + field);
  }

  /** The Client's file, as {@link #kind} names it. */
  static final String CLIENT_FILE = "a Client's task file";

  /** The Collector's file, as {@link #kind} names it. */
  static final String COLLECTOR_FILE = "the Collector's task file";

  /**
   * Returns which of the files of {@code task new} (docs/DAP.md "Task file") a JSON object looks
   * like: a Leader's or a Helper's task file ({@code tasks}), the Collector's (its private key)
   * or a Client's ({@code task_id}); null if none.
   */
  static String kind(JsonNode n) {
    if (n.has("tasks")) {
      String role = n.path("tasks").path(0).path("role").asText("helper");
      return role.equalsIgnoreCase("leader") ? "a Leader's task file" : "a Helper's task file";
    }
    if (n.has("collector_hpke_private_key") || n.has("collector_auth_token")
        || n.has("collector_auth_token_env")) {
      return COLLECTOR_FILE;
    }
    return n.has("task_id") ? CLIENT_FILE : null;
  }

  /**
   * Refuses a file of task new's other kinds before its fields are read, naming the file, what
   * it is and what the command needs ({@code need}), instead of its first unknown field.
   */
  static void requireKind(JsonNode n, Path file, String wanted, String need) {
    String kind = kind(n);
    if (kind != null && !kind.equals(wanted)) {
      throw new IllegalArgumentException(file.getFileName() + " is " + kind + "; " + need);
    }
  }

  /** Reads a JSON object from a file; IOException and IllegalArgumentException name the file. */
  static JsonNode readObject(Path file) throws IOException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IOException(file + ": no such file", e);
    } catch (java.nio.file.AccessDeniedException e) {
      throw new IOException(file + ": permission denied", e);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new IOException(file + ": not UTF-8 text");
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(file + ": not valid JSON (line "
          + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")");
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(file + ": expected a JSON object");
    }
    return root;
  }

  /** Parses a time from a JSON number or string (see {@link TimeText#seconds(String, String)}). */
  private static long seconds(JsonNode n, String field) {
    if (n.isIntegralNumber()) {
      if (n.bigIntegerValue().signum() < 0 || n.bigIntegerValue().bitLength() > 63) {
        throw new IllegalArgumentException(field + ": out of range");
      }
      return n.longValue();
    }
    if (n.isTextual()) {
      return TimeText.seconds(n.asText(), field);
    }
    throw new IllegalArgumentException(field + ": expected seconds since the epoch or an RFC 3339"
        + " time string");
  }
}
