package org.priodp.aggregator.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.taskfile.TaskFile;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

class ProvisionedTaskTest {
  private static final Prio3Variant VARIANT = new Prio3Variant.Histogram(4, 2);

  private static ProvisionedTask task(SecureRandom random) {
    TaskConfiguration config = TaskDefinition.configurationFor(VARIANT,
        "test".getBytes(StandardCharsets.UTF_8), "http://127.0.0.1:1/", "http://127.0.0.1:2/",
        60, 10, BatchMode.TIME_INTERVAL, List.of());
    return ProvisionedTask.generate(DapVersion.DAP_19, config, VARIANT,
        DpStrategy.PureDpDiscreteLaplace.parse("1"),
        SensitivityRule.parse("--sensitivity-rule", "priodp"), random);
  }

  @Test
  void theInMemoryTasksAreWhatTheFilesSay() {
    ProvisionedTask t = task(new SecureRandom());
    Map<String, String> files = t.render();
    assertEquals(ProvisionedTask.FILES, List.copyOf(files.keySet()));
    TaskDefinition leader = TaskFile.parse(files.get("leader.json"), n -> null).get(0);
    TaskDefinition helper = TaskFile.parse(files.get("helper.json"), n -> null).get(0);
    assertEquals(Role.LEADER, t.leader().role());
    assertEquals(Role.HELPER, t.helper().role());
    assertEquals(leader.configuration(), t.leader().configuration());
    assertEquals(helper.configuration(), t.helper().configuration());
    assertEquals(t.parameters().taskId(), t.leader().taskId());
    // the Leader-Helper token in both, the Collector's token only on the Leader
    assertEquals(t.leaderToken(), t.leader().authToken());
    assertEquals(t.leaderToken(), t.helper().authToken());
    assertEquals(t.collectorToken(), t.leader().collectorAuthToken().orElseThrow());
    assertTrue(t.helper().collectorAuthToken().isEmpty());
    assertTrue(t.leader().canAggregate() && t.helper().canAggregate());
    CollectorTask c = t.collectorFile();
    assertEquals(t.collectorConfig(), c.hpkeConfig());
    assertEquals(t.collectorConfig(), t.leader().collectorHpkeConfig());
    // client.json has no secret
    assertFalse(files.get("client.json").contains("token"), files.get("client.json"));
    assertFalse(files.get("client.json").contains("vdaf_verify_key"), files.get("client.json"));
  }

  @Test
  void twoTasksShareNoIdNorSecret() {
    SecureRandom random = new SecureRandom();
    ProvisionedTask a = task(random);
    ProvisionedTask b = task(random);
    assertNotEquals(a.parameters().taskId(), b.parameters().taskId());
    assertNotEquals(a.leaderToken(), b.leaderToken());
    assertNotEquals(a.collectorToken(), b.collectorToken());
    assertFalse(java.util.Arrays.equals(a.verifyKey(), b.verifyKey()));
  }
}
