package org.priodp.aggregator.testing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportMetadata;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.Time;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * Leader tasks (time-interval Prio3Count, no DP, time_precision {@link #PRECISION}) and uploaded
 * reports whose encrypted shares are opaque bytes (the Leader does not decrypt at upload), for
 * the upload tests of the service layer.
 */
public final class LeaderFixture {
  /** The time precision in seconds. */
  public static final long PRECISION = 3600;
  /** The Collector's bearer token. */
  public static final String COLLECTOR_TOKEN = "collector-token_0123456789";

  private LeaderFixture() {
  }

  /** Returns a Leader task served under {@code leaderEndpoint}, with an optional task_interval. */
  public static TaskDefinition task(byte[] taskId, String leaderEndpoint, Interval taskInterval) {
    byte[] ikm = new byte[32];
    Arrays.fill(ikm, (byte) 9);
    HpkeKeyPair collector = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
    HpkeConfig cc = new HpkeConfig(new HpkeConfigId(7), HpkeSuite.DAP_MANDATORY.kem(),
        HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), collector.publicKey());
    Prio3Variant v = new Prio3Variant.Count();
    List<TaskExtension> ext = taskInterval == null ? List.of()
        : List.of(TaskExtension.taskInterval(taskInterval));
    TaskConfiguration c = TaskDefinition.configurationFor(v,
        "upload".getBytes(StandardCharsets.US_ASCII), leaderEndpoint, "https://helper.example/",
        PRECISION, 10, BatchMode.TIME_INTERVAL, ext);
    return new TaskDefinition(new TaskId(taskId), Role.LEADER, c, v,
        new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP, cc,
        AuthToken.of(Fixture.TOKEN)).withCollectorAuthToken(AuthToken.of(COLLECTOR_TOKEN));
  }

  /** Returns a Leader task at {@code https://leader.example/} whose ID bytes are all {@code seed}. */
  public static TaskDefinition task(int seed) {
    byte[] id = new byte[32];
    Arrays.fill(id, (byte) seed);
    return task(id, "https://leader.example/", null);
  }

  /** Returns the current DAP-18 time of these tasks (time_precision units). */
  public static long now() {
    return System.currentTimeMillis() / 1000 / PRECISION;
  }

  /** Returns report ID {@code n} (distinct for n below 2^16). */
  public static ReportId id(int n) {
    byte[] b = new byte[16];
    b[0] = (byte) 0xb0;
    b[14] = (byte) (n >>> 8);
    b[15] = (byte) n;
    return new ReportId(b);
  }

  /** Returns a report whose public share and ciphertexts are bytes filled with {@code fill}. */
  public static Report report(ReportId id, long time, int leaderConfigId,
      List<ReportExtension> publicExtensions, int fill) {
    byte[] share = new byte[24];
    Arrays.fill(share, (byte) fill);
    return new Report(new ReportMetadata(id, new Time(time), publicExtensions), share,
        new HpkeCiphertext(new HpkeConfigId(leaderConfigId), new byte[32], share),
        new HpkeCiphertext(new HpkeConfigId(200), new byte[32], share));
  }

  /** Returns a report without public extensions. */
  public static Report report(ReportId id, long time, int leaderConfigId) {
    return report(id, time, leaderConfigId, List.of(), 1);
  }
}
