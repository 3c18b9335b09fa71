package org.priodp.aggregator.taskfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.task.DpBinding;
import org.priodp.noise.Rational;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Sensitivity;
import org.priodp.vdaf.dp.SensitivityRule;

class TaskFileTest {
  private static String example() throws IOException {
    try (InputStream in = TaskFileTest.class.getResourceAsStream("/tasks.example.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static final Map<String, String> ENV = Map.of("PRIODP_EXAMPLE_TOKEN", "env-token.1");

  private static List<TaskDefinition> parse(String json) {
    return TaskFile.parse(json, ENV::get);
  }

  private static String refusal(String json) {
    return assertThrows(IllegalArgumentException.class, () -> parse(json)).getMessage();
  }

  @Test
  void theExampleFileParses() throws IOException {
    List<TaskDefinition> tasks = parse(example());
    assertEquals(2, tasks.size());
    TaskDefinition h = tasks.get(0);
    assertEquals(Role.HELPER, h.role());
    assertEquals(new Prio3Variant.Histogram(4, 2), h.variant());
    assertEquals(new DpStrategy.PureDpDiscreteLaplace(Rational.of(1, 10)), h.dpStrategy());
    assertEquals(BatchMode.TIME_INTERVAL, h.configuration().batchMode());
    assertEquals(100, h.configuration().minBatchSize());
    assertTrue(h.authToken().matchesAuthorization("Bearer env-token.1"));
    assertFalse(h.toString().contains("env-token"));
    TaskDefinition s = tasks.get(1);
    assertEquals(new DpStrategy.ZCdpDiscreteGaussian(Rational.of(1, 2)), s.dpStrategy());
    assertEquals(SensitivityRule.JANUS_COMPATIBLE, s.sensitivityRule());
    // 2023-11-14T22:13:00Z = 1699999980 s = 28333333 minutes; 86400 s = 1440 minutes
    assertEquals(Optional.of(Interval.of(28333333, 1440)), s.configuration().taskInterval());
    assertTrue(s.bindsDpSettings());
    assertEquals(List.of(TaskExtension.TASK_INTERVAL, DpBinding.EXTENSION_TYPE),
        s.configuration().extensions().stream().map(TaskExtension::extensionType).toList());
    assertFalse(h.bindsDpSettings(), "the binding is opt-in");
    assertTrue(h.configuration().extensions().isEmpty());
  }

  @Test
  void taskIntervalIsConvertedExactlyToTimePrecisionUnits() throws IOException {
    String ex = example();
    assertEquals(Optional.of(Interval.of(28333333, 1440)), parse(ex.replace(
        "\"2023-11-14T22:13:00Z\"", "1699999980")).get(1).configuration().taskInterval(),
        "seconds and RFC 3339 agree");
    String notMultiple = refusal(ex.replace("\"2023-11-14T22:13:00Z\"", "1700000000"));
    assertTrue(notMultiple.startsWith("tasks[1].extensions[0].start: 1700000000 s is not a"
        + " multiple of the time_precision 60 s"), notMultiple);
    assertTrue(refusal(ex.replace("\"duration\": 86400", "\"duration\": 0"))
        .startsWith("tasks[1].extensions[0].duration: must be at least one"));
    assertTrue(refusal(ex.replace("2023-11-14T22:13:00Z", "yesterday"))
        .startsWith("tasks[1].extensions[0].start: expected seconds since the epoch or an RFC"));
    assertTrue(refusal(ex.replace("{\"type\": \"dp_binding\"}", "{\"type\": \"dp_binding\"},"
        + " {\"type\": \"dp_binding\"}")).startsWith("tasks[1].extensions[2].type: dp_binding is"
        + " listed twice"));
    assertTrue(refusal(ex.replace("\"dp_binding\"", "\"taskprov\""))
        .startsWith("tasks[1].extensions[1].type: unknown task extension 'taskprov'"));
    String legacy = refusal(ex.replace("\"extensions\": [", "\"task_interval\": {\"start\": 0,"
        + " \"duration\": 60}, \"extensions\": ["));
    assertTrue(legacy.startsWith("tasks[1].task_interval: the task interval is now the DAP-18"
        + " task extension"), legacy);
  }

  @Test
  void janusZcdpBudgetIsLibpriosEpsilonSoSigmaIsSensitivityOverEpsilon() throws IOException {
    // Janus serializes libprio's ZCdpBudget { epsilon }; libprio's discrete Gaussian strategy
    // uses sigma = l2_sensitivity / epsilon, i.e. rho = epsilon^2 / 2.
    String janus = example().replace("\"rho\": \"1/2\"", "\"budget\": {\"epsilon\": [[1], [10]]}");
    assertFalse(janus.equals(example()), "the replacement must apply");
    TaskDefinition t = parse(janus).get(1);
    assertEquals(new DpStrategy.ZCdpDiscreteGaussian(Rational.of(1, 200)), t.dpStrategy());
    Sensitivity sens = Sensitivity.of(t.variant(), t.sensitivityRule());
    Rational epsilon = Rational.of(1, 10);
    Rational libprioSigma2 = Rational.of(sens.l2Squared()).divide(epsilon.square());
    assertEquals(libprioSigma2, ((DpStrategy.ZCdpDiscreteGaussian) t.dpStrategy())
        .gaussian(sens).sigma2());
    // the readable shape gives rho itself
    assertEquals(new DpStrategy.ZCdpDiscreteGaussian(Rational.of(1, 2)),
        parse(example()).get(1).dpStrategy());
  }

  @Test
  void endpointsMustBeAbsoluteHttpUrls() throws IOException {
    String ex = example();
    assertTrue(refusal(ex.replaceFirst("https://helper.example/dap/", "not a url"))
        .startsWith("tasks[0].helper_aggregator_endpoint: not a URL"));
    assertTrue(refusal(ex.replaceFirst("https://helper.example/dap/", "helper.example/dap/"))
        .startsWith("tasks[0].helper_aggregator_endpoint: expected an absolute https://"));
    assertTrue(refusal(ex.replaceFirst("https://leader.example/dap/", "ftp://leader.example/"))
        .startsWith("tasks[0].leader_aggregator_endpoint: expected an absolute https://"));
    assertTrue(refusal(ex.replaceFirst("https://helper.example/dap/", "https:///dap/"))
        .startsWith("tasks[0].helper_aggregator_endpoint: the URL has no host"));
    assertEquals("http://127.0.0.1:8080/a/b/", parse(ex.replaceFirst(
        "https://helper.example/dap/", "http://127.0.0.1:8080/a/b/")).get(0).configuration()
        .helperAggregatorEndpoint());
  }

  @Test
  void fileErrorsNameTheFileAndTheReason(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws IOException {
    IOException missing = assertThrows(IOException.class,
        () -> TaskFile.read(dir.resolve("none.json")));
    assertEquals("task file " + dir.resolve("none.json") + ": no such file", missing.getMessage());
    IOException directory = assertThrows(IOException.class, () -> TaskFile.read(dir));
    assertEquals("task file " + dir + ": Is a directory", directory.getMessage());
    java.nio.file.Path binary = dir.resolve("b.json");
    java.nio.file.Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe});
    assertEquals("task file " + binary + ": not UTF-8 text",
        assertThrows(IOException.class, () -> TaskFile.read(binary)).getMessage());
  }

  @Test
  void errorTextsNameThePathOnce() throws IOException {
    String m = refusal(example().replace("EiJUV6PGSSKfoUuVBWIp5jt_W4e4UIfr-OxiRAwoVqA", "abc"));
    assertTrue(m.startsWith("tasks[0].task_id: "), m);
    assertFalse(m.substring("tasks[0].task_id: ".length()).startsWith("task_id"), m);
  }

  @Test
  void anUnusableCollectorKeyStopsLoadingNamingTheTask() throws IOException {
    // the all-zero X25519 point: every shared secret is zero (RFC 9180 section 7.1.4)
    String zero = example().replaceFirst("fiGxTG6BVvAyj29AqnKZrHrPwmAlup9_B6fXyt5YZXg",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    String m = refusal(zero);
    assertTrue(m.startsWith("tasks[0]: collector_hpke_config: cannot seal to this public key"), m);
    String shortKey = example().replaceFirst("fiGxTG6BVvAyj29AqnKZrHrPwmAlup9_B6fXyt5YZXg",
        "AAAA");
    assertTrue(refusal(shortKey).startsWith("tasks[0]"), refusal(shortKey));
  }

  @Test
  void janusAndReadableEpsilonAgree() throws IOException {
    String readable = example().replace("\"budget\": {\n          \"epsilon\": [[1], [10]]\n        }",
        "\"epsilon\": \"0.1\"");
    assertFalse(readable.equals(example()), "the replacement must apply");
    assertEquals(parse(example()).get(0).dpStrategy(), parse(readable).get(0).dpStrategy());
    assertEquals(new DpStrategy.PureDpDiscreteLaplace(Rational.of(1, 10)),
        parse(example().replace("[[1], [10]]", "[[1, 0], [10]]")).get(0).dpStrategy());
    // 2^32 + 1 over 10: two base-2^32 digits, little-endian
    assertEquals(new DpStrategy.PureDpDiscreteLaplace(Rational.of(4294967297L, 10)),
        parse(example().replace("[[1], [10]]", "[[1, 1], [10]]")).get(0).dpStrategy());
  }

  @Test
  void invalidTasksAreRefusedNamingTheField() throws IOException {
    String ex = example();
    assertTrue(refusal(ex.replace("[[1], [10]]", "[[0], [10]]"))
        .startsWith("tasks[0].dp_strategy.budget.epsilon"));
    assertTrue(refusal(ex.replace("[[1], [10]]", "[[1], [0]]"))
        .startsWith("tasks[0].dp_strategy.budget.epsilon"));
    assertTrue(refusal(ex.replace("\"rho\": \"1/2\"", "\"rho\": \"-1\""))
        .startsWith("tasks[1].dp_strategy.rho"));
    assertTrue(refusal(ex.replace("\"rho\": \"1/2\"", "\"rho\": 0.5"))
        .startsWith("tasks[1].dp_strategy.rho"));
    assertTrue(refusal(ex.replace("\"min_batch_size\": 100", "\"min_batch_size\": -1"))
        .startsWith("tasks[0].min_batch_size"));
    assertTrue(refusal(ex.replace("\"min_batch_size\": 100", "\"min_batchsize\": 100"))
        .startsWith("tasks[0].min_batchsize: unknown field"));
    assertTrue(refusal(ex.replace("Prio3Histogram", "Prio3Hist")).startsWith("tasks[0].vdaf"));
    assertTrue(refusal(ex.replace("\"length\": 4", "\"length\": 0")).startsWith("tasks[0].vdaf"));
    assertTrue(refusal(ex.replace("\"kem_id\": 32", "\"kem_id\": 99"))
        .startsWith("tasks[0].collector_hpke_config.kem_id"));
    assertTrue(refusal(ex.replace("PRIODP_EXAMPLE_TOKEN", "UNSET_VAR"))
        .startsWith("tasks[0].auth_token_env"));
    String badToken = refusal(ex.replace("example-token_not-for-production", "bad token!"));
    assertTrue(badToken.startsWith("tasks[1].auth_token"), badToken);
    assertFalse(badToken.contains("bad token"), "the token is not echoed");
    assertTrue(refusal(ex.replace("\"PureDpDiscreteLaplace\"", "\"PureDp\""))
        .startsWith("tasks[0].dp_strategy.dp_strategy"));
    assertTrue(refusal(ex.replace("\"dp_strategy\": {", "\"dp_strategyx\": {"))
        .startsWith("tasks[0].dp_strategyx"));
    assertTrue(refusal("{\"tasks\": []}").startsWith("tasks"));
    assertTrue(refusal("{").startsWith("task file: not valid JSON"));
    assertTrue(refusal(ex.replace("jMCjOEq_tC1sD8sfL58L4AhdlzUS2ODc6Eirto8l5XQ", "EiJUV6PGSSKfoUuVBWIp5jt_W4e4UIfr-OxiRAwoVqA"))
        .startsWith("tasks[1].task_id: duplicate"));
  }

  @Test
  void noiseSamplerSelectsTheFixedWorkSamplerWhichIsTheDefaultForEveryDpTask() throws IOException {
    String ex = example();
    assertTrue(parse(ex).get(0).mechanism().hardened(), "a Laplace task is hardened by default");
    assertTrue(parse(ex).get(1).mechanism().hardened(), "a Gaussian task is hardened by default");
    assertTrue(parse(ex).get(1).mechanism().describeNoise().startsWith("fixed-work discrete Gaussian"),
        parse(ex).get(1).mechanism().describeNoise());
    String hardened = ex.replaceFirst("\"role\": \"helper\",", "\"role\": \"helper\", \"noise_sampler\": \"hardened\",");
    assertFalse(hardened.equals(ex), "the replacement must apply");
    assertTrue(parse(hardened).get(0).mechanism().hardened());
    String exact = ex.replaceFirst("\"role\": \"helper\",", "\"role\": \"helper\", \"noise_sampler\": \"exact\",");
    assertFalse(parse(exact).get(0).mechanism().hardened(), "exact on request");
    String bad = ex.replaceFirst("\"role\": \"helper\",", "\"role\": \"helper\", \"noise_sampler\": \"fast\",");
    assertTrue(refusal(bad).startsWith("tasks[0].noise_sampler: expected exact or hardened"), refusal(bad));
  }

  /**
   * No silent fallback (issue 25): a scale beyond the fixed-work sampler's range is refused
   * whether "hardened" is asked for or implied, with one line naming the field, the reason, the
   * largest supported value and the way out; "exact" must be chosen explicitly.
   */
  @Test
  void aScaleBeyondTheFixedWorkRangeIsRefusedUnlessExactIsChosen() throws IOException {
    String ex = example();
    // Laplace: Histogram L1 = 2, epsilon 10^-14: scale 2 10^14 > 98388942814359
    String bigLaplace = ex.replaceFirst("\"budget\": \\{\\s*\"epsilon\": \\[\\[1\\], \\[10\\]\\]\\s*\\}",
        "\"epsilon\": \"1e-14\"");
    assertFalse(bigLaplace.equals(ex), "the replacement must apply");
    String absent = refusal(bigLaplace);
    assertEquals("tasks[0].noise_sampler: absent, so \"hardened\", but scale 200000000000000 is too large for the"
        + " fixed-work discrete Laplace sampler: the largest supported integer scale is 98388942814359 (about 9.84e13) for"
        + " delta 2^-64; set \"noise_sampler\": \"exact\" to use the exact sampler (its running time depends on"
        + " the noise: docs/PRIVACY.md, \"Timing\")", absent);
    assertFalse(absent.contains("\n"), "one line");
    String asked = refusal(bigLaplace.replaceFirst("\"role\": \"helper\",", "\"role\": \"helper\", \"noise_sampler\": \"hardened\","));
    assertTrue(asked.startsWith("tasks[0].noise_sampler: \"hardened\", but scale 200000000000000"), asked);
    assertFalse(parse(bigLaplace.replaceFirst("\"role\": \"helper\",",
        "\"role\": \"helper\", \"noise_sampler\": \"exact\",")).get(0).mechanism().hardened());
    // Gaussian: rho 10^-19 gives sigma^2 above 10^18
    String bigGaussian = ex.replace("\"rho\": \"1/2\"", "\"rho\": \"1e-19\"");
    String gaussian = refusal(bigGaussian);
    assertTrue(gaussian.startsWith("tasks[1].noise_sampler: absent, so \"hardened\", but sigma^2 "), gaussian);
    assertTrue(gaussian.contains("the largest supported sigma^2 is 1000000000000000000; set \"noise_sampler\": \"exact\""),
        gaussian);
    assertFalse(parse(bigGaussian.replace("\"sensitivity_rule\": \"janus\",",
        "\"sensitivity_rule\": \"janus\", \"noise_sampler\": \"exact\",")).get(1).mechanism().hardened());
  }

  @Test
  void attributionTaskExtensionsAndCodePointsAreReadAndRefusedNamingTheField() throws IOException {
    String ext = "\"extensions\": [{\"type\": \"budget_source\", \"source\": \"shop.example\"},"
        + " {\"type\": \"collector_identity\", \"url\": \"https://collector.example/\"}]";
    TaskDefinition t = parse(withField(ext)).get(0);
    assertEquals(Optional.of(java.net.URI.create("https://collector.example/")),
        t.attribution().collectorIdentity());
    assertEquals(Optional.of("shop.example"), t.attribution().budgetSource());
    assertEquals(List.of(0xFA03, 0xFA04),
        t.configuration().extensions().stream().map(TaskExtension::extensionType).toList(),
        "sorted by type, under the default code points");
    TaskDefinition moved = parse(withField(ext + ", \"attribution_code_points\":"
        + " {\"collector_identity\": 4096}")).get(0);
    assertEquals(List.of(4096, 0xFA04),
        moved.configuration().extensions().stream().map(TaskExtension::extensionType).toList());
    assertEquals(4096, moved.attribution().codePoints().collectorIdentity());
    assertEquals(moved.attribution().collectorIdentity(), t.attribution().collectorIdentity());
    String http = refusal(withField(ext.replace("https://collector", "http://collector")));
    assertTrue(http.startsWith("tasks[0].extensions[1].url: collector_identity: an https URL"), http);
    String clash = refusal(withField("\"attribution_code_points\": {\"budget_source\": 64003}"));
    assertTrue(clash.startsWith("tasks[0].attribution_code_points.budget_source: "), clash);
    String unknown = refusal(withField("\"attribution_code_points\": {\"privacy\": 5}"));
    assertTrue(unknown.startsWith("tasks[0].attribution_code_points.privacy"), unknown);
  }

  /** The example file with one field added to its first task. */
  private static String withField(String field) throws IOException {
    String ex = example();
    int i = ex.indexOf('{', ex.indexOf("\"tasks\""));
    return ex.substring(0, i + 1) + field + ", " + ex.substring(i + 1);
  }

  @Test
  void dapVersionIsDap19UnlessTheTaskSaysDap18AndDap18NeedsATaskInfo() throws IOException {
    assertEquals(org.priodp.aggregator.dap.DapVersion.DAP_19, parse(example()).get(0).dapVersion(),
        "absent: DAP-19");
    assertEquals(org.priodp.aggregator.dap.DapVersion.DAP_18,
        parse(withField("\"dap_version\": \"dap-18\"")).get(0).dapVersion());
    assertEquals(org.priodp.aggregator.dap.DapVersion.DAP_19,
        parse(withField("\"dap_version\": \"dap-19\"")).get(0).dapVersion());
    assertTrue(refusal(withField("\"dap_version\": \"dap-17\"")).startsWith(
        "tasks[0].dap_version: \"dap-17\" is not one prio-dp speaks"));
    // an empty task_info is DAP-19's; the example's own task_info is replaced by the first one
    String empty = example().replaceFirst("\"task_info\": \"[^\"]*\"", "\"task_info\": \"\"");
    assertEquals(0, parse(empty).get(0).configuration().taskInfo().length());
    String empty18 = empty.replaceFirst("\\{", "{").replaceFirst("\"task_info\": \"\"",
        "\"task_info\": \"\", \"dap_version\": \"dap-18\"");
    assertTrue(refusal(empty18).startsWith("tasks[0]: task_info: empty, dap-18 needs"),
        refusal(empty18));
  }

  @Test
  void vdafVerifyKeysAreOptionalBase64UrlOfThePrio3KeySize() throws IOException {
    assertFalse(parse(example()).get(0).canAggregate(), "no key: cannot aggregate");
    String key = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32]);
    TaskDefinition one = parse(withField("\"vdaf_verify_key\": \"" + key + "\"")).get(0);
    assertTrue(one.canAggregate());
    assertEquals(java.util.Set.of(0), one.vdafVerifyKeyIds());
    assertEquals(32, one.vdafVerifyKey(0).orElseThrow().length);
    assertTrue(one.vdafVerifyKey(1).isEmpty());
    TaskDefinition two = parse(withField("\"vdaf_verify_keys\": {\"0\": \"" + key
        + "\", \"7\": \"" + key + "\"}")).get(0);
    assertEquals(java.util.Set.of(0, 7), two.vdafVerifyKeyIds());
    String shortKey = java.util.Base64.getUrlEncoder().withoutPadding()
        .encodeToString(new byte[16]);
    assertEquals("tasks[0].vdaf_verify_key: 16 bytes, Prio3 needs 32",
        refusal(withField("\"vdaf_verify_key\": \"" + shortKey + "\"")));
    assertTrue(refusal(withField("\"vdaf_verify_keys\": {\"256\": \"" + key + "\"}"))
        .startsWith("tasks[0].vdaf_verify_keys.256: "));
    assertTrue(refusal(withField("\"vdaf_verify_key\": \"a b\""))
        .startsWith("tasks[0].vdaf_verify_key: not base64url"));
  }

  @Test
  void aLeaderTaskNeedsTheCollectorsTokenAndAHelperTaskRefusesIt() throws IOException {
    String leader = example().replaceFirst("\"role\": \"helper\"", "\"role\": \"leader\"");
    assertEquals("tasks[0]: a leader task needs collector_auth_token or collector_auth_token_env"
        + " (the token the Collector presents)", refusal(leader));
    int i = leader.indexOf('{', leader.indexOf("\"tasks\""));
    String withToken = leader.substring(0, i + 1) + "\"collector_auth_token\": \"collector-1\", "
        + leader.substring(i + 1);
    TaskDefinition t = parse(withToken).get(0);
    assertEquals(Role.LEADER, t.role());
    assertTrue(t.collectorAuthToken().orElseThrow().matchesAuthorization("Bearer collector-1"));
    assertFalse(t.authToken().matchesAuthorization("Bearer collector-1"));
    String fromEnv = leader.substring(0, i + 1)
        + "\"collector_auth_token_env\": \"PRIODP_EXAMPLE_TOKEN\", " + leader.substring(i + 1);
    assertTrue(parse(fromEnv).get(0).collectorAuthToken().orElseThrow()
        .matchesAuthorization("Bearer env-token.1"));
    assertTrue(parse(example()).get(0).collectorAuthToken().isEmpty());
    assertEquals("tasks[0].collector_auth_token: only a leader task has one (the Helper never"
        + " sees the Collector's token)",
        refusal(withField("\"collector_auth_token\": \"collector-1\"")));
  }
}
