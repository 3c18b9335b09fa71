package org.priodp.aggregator.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.Role;
import org.priodp.noise.Rational;
import org.priodp.vdaf.DpStrategy;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.SensitivityRule;

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
    assertTrue(s.configuration().taskInterval().isPresent());
    assertEquals(1, s.boundConfiguration().extensions().stream()
        .filter(e -> e.extensionType() == DpBinding.EXTENSION_TYPE).count());
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
  void noiseSamplerSelectsTheFixedWorkLaplace() throws IOException {
    String ex = example();
    assertFalse(parse(ex).get(0).mechanism().hardened(), "exact by default");
    String hardened = ex.replaceFirst("\"role\": \"helper\",", "\"role\": \"helper\", \"noise_sampler\": \"hardened\",");
    assertFalse(hardened.equals(ex), "the replacement must apply");
    assertTrue(parse(hardened).get(0).mechanism().hardened());
    String bad = ex.replaceFirst("\"role\": \"helper\",", "\"role\": \"helper\", \"noise_sampler\": \"fast\",");
    assertTrue(refusal(bad).startsWith("tasks[0].noise_sampler: expected exact or hardened"), refusal(bad));
  }
}
