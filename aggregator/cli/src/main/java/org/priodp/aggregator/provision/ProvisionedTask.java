package org.priodp.aggregator.provision;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.taskfile.ClientTaskFile;
import org.priodp.aggregator.taskfile.CollectorTaskFile;
import org.priodp.aggregator.taskfile.TaskFile;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * A newly provisioned DAP task ("Task Configuration", in the version its parameters name): the task ID, the VDAF verification key,
 * the Leader-Helper bearer token, the Collector's bearer token and the Collector's X25519 HPKE key
 * pair, and the four files that give each party only the secrets it needs (leader.json and
 * helper.json task files, collector.json, client.json). {@code task new} writes the files; the
 * demo reads them in memory.
 *
 * @param parameters the task's public parameters (task ID, configuration, VDAF, DP settings)
 * @param verifyKey the VDAF verification key both aggregators hold
 * @param leaderToken the Leader-to-Helper bearer token
 * @param collectorToken the Collector-to-Leader bearer token
 * @param collectorConfig the Collector's HPKE config
 * @param collectorKey the Collector's HPKE key pair
 */
public record ProvisionedTask(TaskParameters parameters, byte[] verifyKey, AuthToken leaderToken,
    AuthToken collectorToken, HpkeConfig collectorConfig, HpkeKeyPair collectorKey) {

  /** The names of the files, in the order they are written. */
  public static final List<String> FILES = List.of("leader.json", "helper.json",
      "collector.json", "client.json");

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * Generates the task ID, keys and tokens of a task configuration speaking {@code version} from
   * {@code random}.
   */
  public static ProvisionedTask generate(DapVersion version, TaskConfiguration config,
      Prio3Variant variant, DpStrategy strategy, SensitivityRule rule, SecureRandom random) {
    TaskId taskId = new TaskId(bytes(random, TaskId.LENGTH));
    byte[] verifyKey = bytes(random, Prio3.VERIFY_KEY_SIZE);
    AuthToken leaderToken = AuthToken.of(base64Url(bytes(random, 32)));
    AuthToken collectorToken = AuthToken.of(base64Url(bytes(random, 32)));
    HpkeKeyPair key = new Hpke(HpkeSuite.DAP_MANDATORY).generateKeyPair();
    HpkeConfig hpke = new HpkeConfig(new HpkeConfigId(random.nextInt(256)),
        HpkeSuite.DAP_MANDATORY.kem(), HpkeSuite.DAP_MANDATORY.kdf(),
        HpkeSuite.DAP_MANDATORY.aead(), key.publicKey());
    return new ProvisionedTask(new TaskParameters(taskId, version, config, variant, strategy, rule),
        verifyKey, leaderToken, collectorToken, hpke, key);
  }

  /**
   * Returns the four files' text by name ({@link #FILES}), each checked by the reader of its
   * party: TaskFile for the aggregators (whose configurations must agree), CollectorTask, and
   * TaskParameters.
   */
  public Map<String, String> render() {
    ObjectNode collectorJson = CollectorTaskFile.toJson(collectorFile());
    Map<String, String> files = new LinkedHashMap<>();
    files.put("leader.json", json(taskFile("leader", collectorJson)));
    files.put("helper.json", json(taskFile("helper", collectorJson)));
    files.put("collector.json", json(collectorJson));
    files.put("client.json", json(ClientTaskFile.toJson(parameters)));
    // what each party's reader makes of its file
    TaskDefinition l = TaskFile.parse(files.get("leader.json"), n -> null).get(0);
    TaskDefinition h = TaskFile.parse(files.get("helper.json"), n -> null).get(0);
    if (!l.configuration().equals(h.configuration())
        || !l.configuration().equals(parameters.configuration())) {
      throw new IllegalStateException("the Leader's and the Helper's task configurations differ");
    }
    return files;
  }

  /**
   * Returns the rendered files with {@code fields} (e.g. the privacy unit and budget) added to the
   * task of leader.json and helper.json, each checked again by TaskFile.
   *
   * @throws IllegalArgumentException if TaskFile refuses a task with the fields
   */
  public static Map<String, String> withTaskFields(Map<String, String> files, ObjectNode fields) {
    if (fields.isEmpty()) {
      return files;
    }
    Map<String, String> out = new LinkedHashMap<>(files);
    for (String f : List.of("leader.json", "helper.json")) {
      try {
        ObjectNode root = (ObjectNode) MAPPER.readTree(files.get(f));
        ((ObjectNode) root.get("tasks").get(0)).setAll(fields.deepCopy());
        out.put(f, json(root));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
      TaskFile.parse(out.get(f), n -> null);
    }
    return out;
  }

  /** Returns the Leader's task, as {@code serve} reads it from leader.json. */
  public TaskDefinition leader() {
    return TaskFile.parse(json(taskFile("leader", CollectorTaskFile.toJson(collectorFile()))), n -> null).get(0);
  }

  /** Returns the Helper's task, as {@code serve} reads it from helper.json. */
  public TaskDefinition helper() {
    return TaskFile.parse(json(taskFile("helper", CollectorTaskFile.toJson(collectorFile()))), n -> null).get(0);
  }

  /** Returns the Collector's file: its token, HPKE config and private key. */
  public CollectorTask collectorFile() {
    return new CollectorTask(parameters, collectorToken, collectorConfig, collectorKey);
  }

  private ObjectNode taskFile(String role, ObjectNode collectorJson) {
    ObjectNode task = ClientTaskFile.toJson(parameters);
    task.put("role", role);
    task.set("collector_hpke_config", collectorJson.get("collector_hpke_config").deepCopy());
    task.put("auth_token", token(leaderToken));
    if (role.equals("leader")) {
      task.put("collector_auth_token", token(collectorToken));
    }
    task.put("vdaf_verify_key", base64Url(verifyKey));
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.putArray("tasks").add(task);
    return root;
  }

  private static String json(ObjectNode n) {
    try {
      return MAPPER.writeValueAsString(n) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String token(AuthToken t) {
    return t.authorizationHeader().substring("Bearer ".length());
  }

  private static byte[] bytes(SecureRandom random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private static String base64Url(byte[] b) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
