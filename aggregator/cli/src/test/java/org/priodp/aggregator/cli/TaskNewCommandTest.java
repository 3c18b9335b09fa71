package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.taskfile.ClientTaskFile;
import org.priodp.aggregator.taskfile.CollectorTaskFile;
import org.priodp.aggregator.taskfile.TaskFile;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * {@code task new}: the four files are read by their parties' readers and agree, the files with
 * secrets have mode 0600, no file holds a secret its party must not have, and existing files are
 * kept unless --force.
 */
class TaskNewCommandTest {
  @TempDir
  Path dir;

  private CliRun taskNew(Path out, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("task", "new", "--vdaf",
        "Prio3Histogram", "--length", "4", "--chunk-length", "2", "--epsilon", "1/2",
        "--leader-url", "https://leader.example/dap/", "--helper-url", "https://helper.example/",
        "--time-precision", "3600", "--min-batch-size", "10", "--out", out.toString()));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  private String read(String name) throws Exception {
    return Files.readString(dir.resolve(name));
  }

  @Test
  void theFilesParseAndBothAggregatorsAndTheCollectorAndClientsAgreeOnTheTask() throws Exception {
    CliRun r = taskNew(dir, "--task-interval", "2026-01-01T00:00:00Z/2592000", "--dp-binding");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("wrote " + dir.resolve("leader.json") + " (mode 0600)"), r.out());
    TaskDefinition leader = TaskFile.read(dir.resolve("leader.json")).get(0);
    TaskDefinition helper = TaskFile.read(dir.resolve("helper.json")).get(0);
    CollectorTask collector = CollectorTaskFile.read(dir.resolve("collector.json"));
    TaskParameters client = ClientTaskFile.read(dir.resolve("client.json"));

    assertEquals(Role.LEADER, leader.role());
    assertEquals(Role.HELPER, helper.role());
    assertEquals(leader.taskId(), helper.taskId());
    assertEquals(leader.configuration(), helper.configuration());
    assertEquals(leader.parameters(), helper.parameters());
    assertEquals(leader.parameters(), collector.parameters());
    assertEquals(leader.parameters(), client);
    assertEquals(new Prio3Variant.Histogram(4, 2), client.variant());
    assertEquals(DpStrategy.PureDpDiscreteLaplace.parse("1/2"), client.dpStrategy());
    assertTrue(leader.bindsDpSettings());
    assertEquals(BatchMode.TIME_INTERVAL, client.configuration().batchMode());
    assertEquals(Interval.of(1767225600L / 3600, 720), client.configuration().taskInterval()
        .orElseThrow());
    assertEquals("https://leader.example/dap/", client.configuration().leaderAggregatorEndpoint());

    assertEquals(leader.authToken(), helper.authToken());
    assertNotEquals(leader.authToken(), leader.collectorAuthToken().orElseThrow());
    assertEquals(collector.collectorAuthToken(), leader.collectorAuthToken().orElseThrow());
    assertTrue(helper.collectorAuthToken().isEmpty());
    assertArrayEquals(leader.vdafVerifyKey(0).orElseThrow(), helper.vdafVerifyKey(0).orElseThrow());
    assertEquals(collector.hpkeConfig(), leader.collectorHpkeConfig());
    assertEquals(collector.hpkeConfig(), helper.collectorHpkeConfig());
  }

  /**
   * {@code task new --vdaf Prio3L1BoundSum --length N --max-value M --chunk-length C}: the four
   * files name the variant, its DAP configuration is draft-ietf-ppm-l1-bound-sum-02's
   * Prio3L1BoundSumConfig, and the task file spells max_value as the draft does.
   */
  @Test
  void l1BoundSumTasksCarryTheirParametersAndConfiguration() throws Exception {
    CliRun r = CliRun.of("task", "new", "--vdaf", "Prio3L1BoundSum", "--length", "10", "--max-value", "240",
        "--chunk-length", "9", "--epsilon", "1", "--leader-url", "https://leader.example/",
        "--helper-url", "https://helper.example/", "--out", dir.toString());
    assertEquals(0, r.code(), r.err());
    Prio3Variant expected = new Prio3Variant.L1BoundSum(10, java.math.BigInteger.valueOf(240), 9);
    TaskDefinition leader = TaskFile.read(dir.resolve("leader.json")).get(0);
    assertEquals(expected, leader.parameters().variant());
    assertEquals(expected, TaskFile.read(dir.resolve("helper.json")).get(0).parameters().variant());
    assertEquals(expected, CollectorTaskFile.read(dir.resolve("collector.json")).parameters().variant());
    assertEquals(expected, ClientTaskFile.read(dir.resolve("client.json")).variant());
    assertEquals(7L, leader.configuration().vdafType());
    assertEquals("0000000a00000000000000f000000009",
        java.util.HexFormat.of().formatHex(leader.configuration().vdafConfiguration().toByteArray()));
    assertTrue(read("client.json").contains("\"max_value\""), read("client.json"));
    assertTrue(CliRun.of("task", "new", "--vdaf", "Prio3L1BoundSum", "--length", "10", "--chunk-length", "9",
        "--leader-url", "https://l/", "--helper-url", "https://h/", "--out", dir.resolve("x").toString())
        .failedWithOneLine("Prio3L1BoundSum needs --max-value"));
  }

  @Test
  void theTaskIsDap19UnlessDapVersionSaysDap18InAllFourFiles() throws Exception {
    assertEquals(0, taskNew(dir.resolve("d19")).code());
    assertEquals(0, taskNew(dir.resolve("d18"), "--dap-version", "dap-18").code());
    for (String f : List.of("leader.json", "helper.json", "collector.json", "client.json")) {
      assertTrue(Files.readString(dir.resolve("d19").resolve(f)).contains(
          "\"dap_version\" : \"dap-19\""), f);
      assertTrue(Files.readString(dir.resolve("d18").resolve(f)).contains(
          "\"dap_version\" : \"dap-18\""), f);
    }
    assertEquals(org.priodp.aggregator.dap.DapVersion.DAP_18,
        TaskFile.read(dir.resolve("d18").resolve("helper.json")).get(0).dapVersion());
    assertEquals(org.priodp.aggregator.dap.DapVersion.DAP_18,
        ClientTaskFile.read(dir.resolve("d18").resolve("client.json")).dapVersion());
    assertTrue(taskNew(dir.resolve("x"), "--dap-version", "dap-20")
        .failedWithOneLine("--dap-version"));
    assertTrue(taskNew(dir.resolve("y"), "--dap-version", "dap-18", "--task-info", "")
        .failedWithOneLine("--task-info: must be 1 to 255 bytes in dap-18"));
    assertEquals(0, taskNew(dir.resolve("z"), "--task-info", "").code(), "DAP-19: may be empty");
  }

  @Test
  void filesWithSecretsHaveMode0600() throws Exception {
    assertEquals(0, taskNew(dir).code());
    for (String f : List.of("leader.json", "helper.json", "collector.json")) {
      assertEquals("rw-------", PosixFilePermissions.toString(
          Files.getPosixFilePermissions(dir.resolve(f))), f);
    }
    String client = PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dir.resolve("client.json")));
    assertFalse(client.charAt(4) == 'w' || client.charAt(7) == 'w', client);
    try (var s = Files.list(dir)) {
      assertEquals(4, s.count(), "no temporary file left");
    }
  }

  @Test
  void noFileHoldsASecretItsPartyMustNotHave() throws Exception {
    assertEquals(0, taskNew(dir).code());
    TaskDefinition leader = TaskFile.read(dir.resolve("leader.json")).get(0);
    CollectorTask collector = CollectorTaskFile.read(dir.resolve("collector.json"));
    String b64 = "";
    String privateKey = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(collector.hpkeKey().secretKey());
    String verifyKey = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(leader.vdafVerifyKey(0).orElseThrow());
    String leaderToken = leader.authToken().authorizationHeader().substring(7);
    String collectorToken = collector.collectorAuthToken().authorizationHeader().substring(7);
    Map<String, List<String>> allowed = Map.of(
        privateKey, List.of("collector.json"),
        verifyKey, List.of("leader.json", "helper.json"),
        leaderToken, List.of("leader.json", "helper.json"),
        collectorToken, List.of("leader.json", "collector.json"));
    for (var secret : allowed.entrySet()) {
      assertTrue(secret.getKey().length() >= 40, b64 + secret.getKey());
      for (String f : TaskNewCommand.FILES) {
        assertEquals(secret.getValue().contains(f), read(f).contains(secret.getKey()),
            f + " and the secret allowed in " + secret.getValue());
      }
    }
    assertFalse(read("client.json").contains("token") || read("client.json").contains("key\""),
        read("client.json"));
  }

  @Test
  void existingFilesAreKeptUnlessForce() throws Exception {
    assertEquals(0, taskNew(dir).code());
    String before = read("leader.json");
    CliRun again = taskNew(dir);
    assertTrue(again.failedWithOneLine("already holds leader.json, helper.json, collector.json,"
        + " client.json (give --force to replace them)"), again.err());
    assertEquals(2, again.code());
    assertEquals(before, read("leader.json"));
    Files.delete(dir.resolve("leader.json"));
    Files.delete(dir.resolve("client.json"));
    CliRun partial = taskNew(dir);
    assertTrue(partial.failedWithOneLine("already holds helper.json, collector.json"),
        partial.err());
    assertFalse(Files.exists(dir.resolve("leader.json")), "nothing written");

    CliRun forced = taskNew(dir, "--force");
    assertEquals(0, forced.code(), forced.err());
    assertNotEquals(before, read("leader.json"));
    assertEquals(TaskFile.read(dir.resolve("leader.json")).get(0).taskId(),
        CollectorTaskFile.read(dir.resolve("collector.json")).parameters().taskId());
    assertEquals("rw-------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dir.resolve("helper.json"))));
  }

  /**
   * draft-ietf-ppm-dap-attribution-00 section 4: collector_selected goes into all four files and
   * reads back (the Client's and Collector's too, which write it back); DAP-18 has no such mode.
   */
  @Test
  void collectorSelectedIsWrittenToEveryFileAndRefusedForDap18() throws Exception {
    assertEquals(0, taskNew(dir, "--batch-mode", "collector_selected").code());
    for (String f : List.of("leader.json", "helper.json", "collector.json", "client.json")) {
      assertTrue(Files.readString(dir.resolve(f)).contains(
          "\"batch_mode\" : \"collector_selected\""), f);
    }
    TaskParameters p = ClientTaskFile.read(dir.resolve("client.json"));
    assertEquals(BatchMode.COLLECTOR_SELECTED, p.configuration().batchMode());
    assertEquals(0xFA, p.configuration().batchModeCode());
    CliRun old = taskNew(dir.resolve("d18"), "--batch-mode", "collector_selected",
        "--dap-version", "dap-18");
    assertTrue(old.failedWithOneLine("collector_selected needs dap-19"), old.err());
  }

  @Test
  void withoutEpsilonOrRhoTheTaskAddsNoNoiseAndLeaderSelectedIsAccepted() throws Exception {
    CliRun r = CliRun.of("task", "new", "--vdaf", "Prio3Count", "--batch-mode",
        "leader_selected", "--leader-url", "http://127.0.0.1:8080/", "--helper-url",
        "http://127.0.0.1:8081/", "--out", dir.toString());
    assertEquals(0, r.code(), r.err());
    TaskParameters p = ClientTaskFile.read(dir.resolve("client.json"));
    assertEquals(new DpStrategy.NoDifferentialPrivacy(), p.dpStrategy());
    assertEquals(BatchMode.LEADER_SELECTED, p.configuration().batchMode());
    assertEquals(100, p.configuration().minBatchSize());
  }

  @Test
  void badOptionsAreOneLineNamingTheOption() {
    assertTrue(taskNew(dir, "--task-interval", "2026-01-01T00:30:00Z/3600")
        .failedWithOneLine("--task-interval.start: 1767227400 s is not a multiple of the"
            + " time_precision 3600 s"));
    assertTrue(taskNew(dir, "--batch-mode", "weekly").failedWithOneLine("--batch-mode"));
    assertTrue(CliRun.of("task", "new", "--vdaf", "Prio3Count", "--leader-url", "ftp://x/",
        "--helper-url", "https://h/", "--out", dir.toString()).failedWithOneLine("--leader-url"));
    assertTrue(CliRun.of("task", "new", "--vdaf", "Prio3Count", "--time-precision", "0",
        "--leader-url", "https://l/", "--helper-url", "https://h/", "--out", dir.toString())
        .failedWithOneLine("--time-precision: must be positive"));
    assertTrue(CliRun.of("task", "new", "--vdaf", "Prio3Histogram", "--leader-url", "https://l/",
        "--helper-url", "https://h/", "--out", dir.toString()).failedWithOneLine("--length"));
    try (var s = Files.list(dir)) {
      assertEquals(0, s.count(), "nothing written");
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  /** The privacy unit and budget options land in both aggregators' files (issue 25). */
  @Test
  void privacyUnitAndBudgetGoIntoBothAggregatorsFiles() throws Exception {
    CliRun r = taskNew(dir, "--privacy-unit", "client", "--max-reports", "1", "--period", "1d",
        "--budget-epsilon", "1", "--budget-window", "30d");
    assertEquals(0, r.code(), r.err());
    org.priodp.aggregator.core.PrivacySettings want = new org.priodp.aggregator.core.PrivacySettings(
        new org.priodp.noise.ledger.PrivacyUnit.ClientBound(1, 86400), java.util.Optional.of(
            org.priodp.noise.ledger.BudgetCap.window(org.priodp.noise.Budget.PureDp.parse("1"), 30 * 86400L)));
    for (String f : List.of("leader.json", "helper.json")) {
      assertEquals(want, org.priodp.aggregator.taskfile.TaskFile.read(dir.resolve(f)).get(0).privacy(), f);
      assertTrue(read(f).replaceAll("\\s", "").contains("\"privacy_budget\":{\"epsilon\":\"1\",\"window\":\"30d\"}"),
          read(f));
    }
    assertTrue(taskNew(dir.resolve("a"), "--privacy-unit", "client", "--max-reports", "1")
        .failedWithOneLine("--privacy-unit client needs --max-reports and --period"));
    assertTrue(taskNew(dir.resolve("b"), "--budget-epsilon", "1", "--budget-rho", "1")
        .failedWithOneLine("give at most one of --budget-epsilon and --budget-rho"));
    assertTrue(taskNew(dir.resolve("c"), "--budget-epsilon", "0")
        .failedWithOneLine("--budget-epsilon: epsilon must be > 0"));
    assertTrue(taskNew(dir.resolve("d"), "--budget-window", "30d")
        .failedWithOneLine("--budget-window needs --budget-epsilon or --budget-rho"));
    assertTrue(CliRun.of("task", "new", "--vdaf", "Prio3Count", "--budget-epsilon", "1",
        "--leader-url", "https://l/", "--helper-url", "https://h/", "--out", dir.resolve("e").toString())
        .failedWithOneLine("privacy_budget: the task adds no noise"));
  }

  /** The attribution task extensions land in all four files, bound into the configuration. */
  @Test
  void collectorIdentityAndBudgetSourceAreTaskExtensionsEveryPartySees() throws Exception {
    CliRun r = taskNew(dir, "--collector-identity", "https://shop.example/dap/",
        "--budget-source", "shop.example");
    assertEquals(0, r.code(), r.err());
    TaskParameters client = ClientTaskFile.read(dir.resolve("client.json"));
    assertEquals(java.util.Optional.of(java.net.URI.create("https://shop.example/dap/")),
        client.attribution().collectorIdentity());
    assertEquals(java.util.Optional.of("shop.example"), client.attribution().budgetSource());
    for (String f : List.of("leader.json", "helper.json")) {
      TaskDefinition t = TaskFile.read(dir.resolve(f)).get(0);
      assertEquals(client.configuration(), t.configuration(), f);
      assertEquals(client.attribution(), t.attribution(), f);
    }
    assertEquals(client.configuration(),
        CollectorTaskFile.read(dir.resolve("collector.json")).parameters().configuration());
    assertTrue(taskNew(dir.resolve("a"), "--collector-identity", "http://shop.example/")
        .failedWithOneLine("--collector-identity: an https URL"));
  }
}
