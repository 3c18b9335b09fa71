package org.priodp.aggregator.taskfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.task.DpBinding;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.noise.Rational;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The public task parameters (client.json): validation, and JSON in the task file's format that
 * reads back to equal parameters for every VDAF and DP strategy, with field-named errors.
 */
class ClientTaskFileTest {
  @TempDir
  Path dir;

  private static TaskParameters parameters(Prio3Variant v, DpStrategy s, boolean bind) {
    List<TaskExtension> ext = new java.util.ArrayList<>();
    ext.add(TaskExtension.taskInterval(Interval.of(490_896, 720)));
    if (bind) {
      ext.add(DpBinding.extension(v, s, SensitivityRule.JANUS_COMPATIBLE));
    }
    return new TaskParameters(new TaskId(new byte[32]), DapVersion.DAP_19,
        TaskDefinition.configurationFor(v,
        "info é".getBytes(StandardCharsets.UTF_8), "https://l.example/dap/", "http://h:8/", 3600,
        7, BatchMode.LEADER_SELECTED, ext), v, s, SensitivityRule.JANUS_COMPATIBLE);
  }

  @Test
  void theJsonReadsBackToEqualParametersForEveryVdafAndStrategy() throws Exception {
    List<Prio3Variant> variants = List.of(new Prio3Variant.Count(),
        new Prio3Variant.Sum(BigInteger.valueOf(1000)),
        Prio3Variant.SumVec.of(5, BigInteger.valueOf(3), 2),
        new Prio3Variant.Histogram(10, 3), new Prio3Variant.MultihotCountVec(6, 2, 2),
        new Prio3Variant.L1BoundSum(8, BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE), 65));
    List<DpStrategy> strategies = List.of(new DpStrategy.NoDifferentialPrivacy(),
        new DpStrategy.PureDpDiscreteLaplace(Rational.parse("1/3")),
        new DpStrategy.ZCdpDiscreteGaussian(Rational.parse("0.25")));
    for (Prio3Variant v : variants) {
      for (DpStrategy s : strategies) {
        TaskParameters p = parameters(v, s, true);
        Path f = dir.resolve("client.json");
        Files.writeString(f, ClientTaskFile.toJson(p).toString());
        assertEquals(p, ClientTaskFile.read(f), v.describe() + " " + s.describe());
      }
    }
    ObjectNode n = ClientTaskFile.toJson(parameters(new Prio3Variant.Count(), new DpStrategy.NoDifferentialPrivacy(),
        false));
    assertEquals("2026-01-01T00:00:00Z", n.get("extensions").get(0).get("start").asText());
    assertEquals(2_592_000, n.get("extensions").get(0).get("duration").asLong());
  }

  @Test
  void attributionExtensionsAndCodePointsReadBack() throws Exception {
    org.priodp.aggregator.task.AttributionCodePoints codes =
        org.priodp.aggregator.task.AttributionCodePoints.of(Map.of("budget_source", 4096,
            "privacy_budget", 17));
    org.priodp.aggregator.task.AttributionSettings a = new org.priodp.aggregator.task.AttributionSettings(
        codes, java.util.Optional.of(java.net.URI.create("https://c.example/")),
        java.util.Optional.of("shop.example"));
    Prio3Variant v = new Prio3Variant.Histogram(4, 2);
    List<TaskExtension> ext = new java.util.ArrayList<>(a.taskExtensions());
    ext.add(0, TaskExtension.taskInterval(Interval.of(490_896, 720)));
    TaskParameters p = new TaskParameters(new TaskId(new byte[32]), DapVersion.DAP_19,
        TaskDefinition.configurationFor(v, new byte[] {1}, "https://l.example/", "https://h/",
            3600, 7, BatchMode.LEADER_SELECTED, ext), v, new DpStrategy.NoDifferentialPrivacy(),
        SensitivityRule.JANUS_COMPATIBLE, codes);
    Path f = dir.resolve("client.json");
    Files.writeString(f, ClientTaskFile.toJson(p).toString());
    TaskParameters back = ClientTaskFile.read(f);
    assertEquals(p, back);
    assertEquals(a, back.attribution());
    assertEquals(17, ClientTaskFile.toJson(p).get("attribution_code_points").get("privacy_budget")
        .asInt());
  }

  @Test
  void errorsNameTheFieldAndUnknownFieldsAreRefused() {
    ObjectNode n = ClientTaskFile.toJson(parameters(new Prio3Variant.Histogram(4, 2),
        new DpStrategy.NoDifferentialPrivacy(), false));
    ObjectMapper m = new ObjectMapper();
    ObjectNode bad = n.deepCopy();
    ((ObjectNode) bad.get("vdaf")).put("length", 0);
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ClientTaskFile.fromJson(bad, "client", Set.of())).getMessage()
        .startsWith("client.vdaf"));
    ObjectNode extra = n.deepCopy().put("auth_token", "x");
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ClientTaskFile.fromJson(extra, "client", Set.of())).getMessage()
        .startsWith("client.auth_token: unknown field"));
    assertEquals(ClientTaskFile.fromJson(n, "client", Set.of()),
        ClientTaskFile.fromJson(extra, "client", Set.of("auth_token")));
    ObjectNode noPrecision = n.deepCopy().put("time_precision", 0);
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ClientTaskFile.fromJson(noPrecision, "client", Set.of())).getMessage()
        .startsWith("client.time_precision"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ClientTaskFile.fromJson(m.createArrayNode(), "client", Set.of())).getMessage()
        .startsWith("client: expected a JSON object"));
  }

  @Test
  void aConfigurationThatDoesNotNameTheVariantOrCarriesAnotherBindingIsRefused() {
    TaskParameters p = parameters(new Prio3Variant.Histogram(4, 2),
        DpStrategy.PureDpDiscreteLaplace.parse("1"), true);
    assertThrows(IllegalArgumentException.class, () -> new TaskParameters(p.taskId(),
        p.dapVersion(), p.configuration(), new Prio3Variant.Histogram(5, 2), p.dpStrategy(),
        p.sensitivityRule()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TaskParameters(p.taskId(), p.dapVersion(), p.configuration(), p.variant(),
            DpStrategy.PureDpDiscreteLaplace.parse("2"), p.sensitivityRule()));
    assertTrue(e.getMessage().contains("dp_binding"), e.getMessage());
  }

  @Test
  void ofATaskDefinitionKeepsItsPublicParameters() throws Exception {
    String json = new String(ClientTaskFileTest.class.getResourceAsStream("/tasks.example.json")
        .readAllBytes(), StandardCharsets.UTF_8);
    TaskDefinition t = TaskFile.parse(json, k -> "env-token.1").get(0);
    TaskParameters p = t.parameters();
    assertEquals(t.configuration(), p.configuration());
    assertEquals(t.dpStrategy(), p.dpStrategy());
    assertEquals(p, ClientTaskFile.fromJson(ClientTaskFile.toJson(p), "client", Set.of()));
  }
}
