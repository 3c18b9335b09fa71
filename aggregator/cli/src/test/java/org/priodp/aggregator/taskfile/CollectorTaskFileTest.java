package org.priodp.aggregator.taskfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * collector.json: the public parameters, the Collector's token, HPKE config and private key;
 * reads back equal, refuses a private key that is not the config's, never prints a secret.
 */
class CollectorTaskFileTest {
  @TempDir
  Path dir;

  private static final HpkeSuite S = HpkeSuite.DAP_MANDATORY;

  private static CollectorTask file(HpkeKeyPair key) {
    Prio3Variant v = new Prio3Variant.Count();
    TaskParameters p = new TaskParameters(new TaskId(new byte[32]), DapVersion.DAP_19,
        TaskDefinition.configurationFor(v, "x".getBytes(StandardCharsets.US_ASCII),
            "https://l/", "https://h/", 60, 1, BatchMode.TIME_INTERVAL, List.of()),
        v, DpStrategy.PureDpDiscreteLaplace.parse("1"), SensitivityRule.PRIODP);
    return new CollectorTask(p, AuthToken.of("collector-secret-token"),
        new HpkeConfig(new HpkeConfigId(200), S.kem(), S.kdf(), S.aead(), key.publicKey()), key);
  }

  @Test
  void readsBackEqualAndDerivesThePublicKeyFromThePrivateOne() throws Exception {
    HpkeKeyPair key = new Hpke(S).generateKeyPair();
    CollectorTask f = file(key);
    Path p = dir.resolve("collector.json");
    Files.writeString(p, CollectorTaskFile.toJson(f).toString());
    CollectorTask back = CollectorTaskFile.read(p);
    assertEquals(f.parameters(), back.parameters());
    assertEquals(f.collectorAuthToken(), back.collectorAuthToken());
    assertEquals(f.hpkeConfig(), back.hpkeConfig());
    assertEquals(key, back.hpkeKey());
    assertFalse(f.toString().contains("collector-secret-token"), f.toString());
    assertFalse(f.toString().contains(Base64.getUrlEncoder().withoutPadding()
        .encodeToString(key.secretKey())));
  }

  @Test
  void aPrivateKeyOfAnotherPublicKeyIsRefusedNamingTheField() {
    HpkeKeyPair key = new Hpke(S).generateKeyPair();
    HpkeKeyPair other = new Hpke(S).generateKeyPair();
    ObjectNode n = CollectorTaskFile.toJson(file(key));
    n.put("collector_hpke_private_key", Base64.getUrlEncoder().withoutPadding()
        .encodeToString(other.secretKey()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CollectorTaskFile.fromJson(n, "collector"));
    assertTrue(e.getMessage().startsWith("collector.collector_hpke_private_key: not the private"
        + " key"), e.getMessage());
    n.put("collector_hpke_private_key", "AAAA");
    e = assertThrows(IllegalArgumentException.class, () -> CollectorTaskFile.fromJson(n, "collector"));
    assertTrue(e.getMessage().startsWith("collector.collector_hpke_private_key: 3 bytes"),
        e.getMessage());
    ObjectNode noToken = CollectorTaskFile.toJson(file(key));
    noToken.remove("collector_auth_token");
    e = assertThrows(IllegalArgumentException.class,
        () -> CollectorTaskFile.fromJson(noToken, "collector"));
    assertTrue(e.getMessage().contains("collector_auth_token"), e.getMessage());
  }

  /**
   * Issue 25: noise_sampler says which sampler the aggregators use, so collect states the
   * guarantee exactly; absent, the aggregators' default (fixed-work for a Laplace task).
   */
  @Test
  void noiseSamplerIsReadWrittenAndCheckedAgainstTheStrategy() {
    HpkeKeyPair key = new Hpke(S).generateKeyPair();
    ObjectNode n = CollectorTaskFile.toJson(file(key));
    assertEquals("hardened", n.get("noise_sampler").asText());
    n.remove("noise_sampler");
    assertTrue(CollectorTaskFile.fromJson(n, "collector").hardenedSampler(), "the default");
    n.put("noise_sampler", "exact");
    CollectorTask exact = CollectorTaskFile.fromJson(n, "collector");
    assertFalse(exact.hardenedSampler());
    assertFalse(exact.mechanism().hardened());
    assertEquals("exact", CollectorTaskFile.toJson(exact).get("noise_sampler").asText());
    n.put("noise_sampler", "fast");
    assertEquals("collector.noise_sampler: expected exact or hardened",
        assertThrows(IllegalArgumentException.class,
            () -> CollectorTaskFile.fromJson(n, "collector")).getMessage());
    ObjectNode gauss = CollectorTaskFile.toJson(file(key));
    gauss.putObject("dp_strategy").put("dp_strategy", "ZCdpDiscreteGaussian").put("rho", "1/2");
    gauss.remove("noise_sampler");
    // the aggregators' default, whichever it is for a Gaussian (branch gauss adds a fixed-work one)
    boolean gaussHardened = DpStrategy.ZCdpDiscreteGaussian.parse("1/2").hasHardenedSampler();
    assertEquals(gaussHardened, CollectorTaskFile.fromJson(gauss, "collector").hardenedSampler());
    gauss.put("noise_sampler", "hardened");
    if (!gaussHardened) {
      assertTrue(assertThrows(IllegalArgumentException.class,
          () -> CollectorTaskFile.fromJson(gauss, "collector")).getMessage()
          .startsWith("collector.noise_sampler: hardened: "));
    }
  }

  /**
   * A report-budget task's Collector states the guarantee with the aggregators' sampler: the
   * fixed-work one by default, as the aggregators' task files have it (issue 26; it was "exact").
   */
  @Test
  void aReportBudgetTaskRecordsTheAggregatorsFixedWorkSampler() throws Exception {
    HpkeKeyPair key = new Hpke(S).generateKeyPair();
    Prio3Variant v = new Prio3Variant.Histogram(4, 2);
    TaskParameters p = new TaskParameters(new TaskId(new byte[32]), DapVersion.DAP_19,
        TaskDefinition.configurationFor(v, "x".getBytes(StandardCharsets.US_ASCII),
            "https://l/", "https://h/", 60, 1, BatchMode.TIME_INTERVAL, List.of()),
        v, new DpStrategy.ReportBudgetDiscreteLaplace(), SensitivityRule.PRIODP);
    CollectorTask f = new CollectorTask(p, AuthToken.of("collector-secret-token"),
        new HpkeConfig(new HpkeConfigId(200), S.kem(), S.kdf(), S.aead(), key.publicKey()), key);
    assertTrue(f.hardenedSampler());
    assertEquals("hardened", CollectorTaskFile.toJson(f).get("noise_sampler").asText());
    Path file = dir.resolve("collector.json");
    Files.writeString(file, CollectorTaskFile.toJson(f).toString());
    assertTrue(CollectorTaskFile.read(file).hardenedSampler());
  }
}
