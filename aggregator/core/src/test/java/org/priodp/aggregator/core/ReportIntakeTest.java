package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.InputShareAad;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.PlaintextInputShare;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportMetadata;
import org.priodp.aggregator.dap.ReportShare;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.Time;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeSealed;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AttributionCodePoints;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * The report intake both roles share (DAP-19 and DAP-18 "Input Share Decryption", "Input Share
 * Validation"): each report error it gives, the same for the Leader and the Helper, and the
 * prepared state of a valid report. The task is Fixture's Prio3Histogram with time_precision 100
 * s and task_interval [990, 1000); the clock stands in unit 1005. The seed is printed.
 */
class ReportIntakeTest {
  private static final long NOW_UNIT = 1005;
  private static final Clock CLOCK = Clock.fixed(
      Instant.ofEpochSecond(NOW_UNIT * Fixture.PRECISION + 10), ZoneOffset.UTC);

  @TempDir
  Path dir;

  private JdbcDatastore store;
  private HelperHpkeKeys keys;
  private HpkeConfig key;
  private Fixture f;
  private byte[] verifyKey;
  private Random random;
  private DapVersion version = DapVersion.latest();

  @BeforeEach
  void setUp() {
    long seed = System.nanoTime();
    System.out.println("ReportIntakeTest seed " + seed);
    random = new Random(seed);
    store = JdbcDatastore.openSqlite(dir.resolve("intake.db"));
    keys = new HelperHpkeKeys(store, new SecureRandom(), CLOCK);
    key = keys.ensureActive().config();
    f = new Fixture(5, new DpStrategy.NoDifferentialPrivacy(), Fixture.PRECISION,
        Interval.of(990, 10), false);
    verifyKey = new byte[32];
    random.nextBytes(verifyKey);
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private TaskDefinition task(Role role) {
    TaskDefinition t = role == Role.HELPER ? f.task : new TaskDefinition(f.taskId, Role.LEADER,
        f.task.configuration(), f.variant, f.task.dpStrategy(), f.task.sensitivityRule(),
        f.collectorConfig, f.task.authToken());
    return t.withVdafVerifyKeys(Map.of(0, verifyKey)).withDapVersion(version);
  }

  private ReportIntake.Job job(Role role) {
    TaskDefinition t = task(role);
    return new ReportIntake(keys, CLOCK, Duration.ofMinutes(5)).job(t, new Prio3(f.variant),
        verifyKey);
  }

  /** One Client report: metadata, public share and both input shares, before sealing. */
  private final class Client {
    final ReportMetadata metadata;
    byte[] publicShare;
    final byte[][] inputShares = new byte[2][];
    List<ReportExtension> privateExtensions = List.of();

    Client(long time, List<ReportExtension> publicExtensions) {
      Prio3 prio3 = new Prio3(f.variant);
      byte[] id = new byte[16];
      random.nextBytes(id);
      byte[] rand = new byte[prio3.randSize()];
      random.nextBytes(rand);
      Prio3.ShardResult shard = prio3.shard(version.vdafContext(f.taskId),
          List.of(BigInteger.valueOf(random.nextInt(8))), id, rand);
      metadata = new ReportMetadata(new ReportId(id), new Time(time), publicExtensions);
      publicShare = shard.publicShare().encode();
      inputShares[0] = shard.inputShares().get(0).encode();
      inputShares[1] = shard.inputShares().get(1).encode();
    }

    Client(long time) {
      this(time, List.of());
    }

    /** Seals {@code plaintext} to {@code config} as a Client would for {@code role}. */
    ReportShare sealed(Role role, HpkeConfig config, byte[] plaintext) throws HpkeException {
      InputShareAad aad = new InputShareAad(f.taskId, f.task.configuration(), metadata,
          publicShare);
      HpkeSealed s = new Hpke(HpkeSuite.DAP_MANDATORY).seal(config.publicKey().toByteArray(),
          version.inputShareInfo(role), aad.encode(), plaintext);
      return new ReportShare(metadata, publicShare, new HpkeCiphertext(config.id(), s.enc(),
          s.ciphertext()));
    }

    /** The report share of {@code role} as an honest Client makes it. */
    ReportShare share(Role role) throws HpkeException {
      int aggregator = role == Role.LEADER ? 0 : 1;
      return sealed(role, key, new PlaintextInputShare(privateExtensions,
          inputShares[aggregator]).encode());
    }
  }

  private ReportError errorOf(Role role, ReportShare share) {
    ReportIntake.Outcome out = job(role).prepare(share);
    assertEquals(share.reportId(), out.reportId());
    assertEquals(share.reportMetadata().time().value(), out.time());
    return assertInstanceOf(ReportIntake.Rejected.class, out, role + " accepted it").error();
  }

  /** Asserts that both roles reject what {@code make} builds for them with {@code expected}. */
  private void assertRejected(ReportError expected, RoleShare make) throws Exception {
    for (Role role : new Role[] {Role.LEADER, Role.HELPER}) {
      assertEquals(expected, errorOf(role, make.share(role)), role.toString());
    }
  }

  /** Builds a report share for a role. */
  @FunctionalInterface
  private interface RoleShare {
    ReportShare share(Role role) throws Exception;
  }

  @Test
  void aValidReportIsPreparedByBothRolesAndTheirVerifierSharesAgree() throws Exception {
    Client c = new Client(995);
    ReportIntake.Prepared leader = assertInstanceOf(ReportIntake.Prepared.class,
        job(Role.LEADER).prepare(c.share(Role.LEADER)));
    ReportIntake.Prepared helper = assertInstanceOf(ReportIntake.Prepared.class,
        job(Role.HELPER).prepare(c.share(Role.HELPER)));
    assertEquals(995, leader.time());
    assertEquals(c.metadata.reportId(), helper.reportId());
    // the two verify_init results verify together: Prio3 ran as aggregator 0 and 1
    PingPong pingPong = new PingPong(new Prio3(f.variant), f.task.dapVersion(), f.taskId);
    PingPong.Continued sent = pingPong.leaderInitialized(leader.init());
    assertInstanceOf(PingPong.FinishedWithOutbound.class,
        pingPong.helperInitialized(helper.init(), sent.outbound().encode()));
  }

  @ParameterizedTest
  @EnumSource(DapVersion.class)
  void anUnknownConfigIdIsItsVersionsErrorAndAShareThatDoesNotOpenIsHpkeDecryptError(
      DapVersion v) throws Exception {
    version = v;
    Client c = new Client(995);
    HpkeConfig unknown = new HpkeConfig(new HpkeConfigId((key.id().value() + 1) % 256),
        key.kemId(), key.kdfId(), key.aeadId(), key.publicKey());
    // DAP-18 "Input Share Decryption": hpke_decrypt_error; DAP-19: hpke_unknown_config_id
    assertRejected(v == DapVersion.DAP_18 ? ReportError.HPKE_DECRYPT_ERROR
        : ReportError.HPKE_UNKNOWN_CONFIG_ID, role -> c.sealed(role, unknown,
        new PlaintextInputShare(List.of(), c.inputShares[0]).encode()));
    assertRejected(ReportError.HPKE_DECRYPT_ERROR, role -> {
      ReportShare s = c.share(role);
      byte[] payload = s.encryptedInputShare().payload().toByteArray();
      payload[0] ^= 1;
      return new ReportShare(s.reportMetadata(), s.publicShare(), new HpkeCiphertext(key.id(),
          s.encryptedInputShare().enc().toByteArray(), payload));
    });
    // sealed for the other role: the info string differs, so it does not open
    assertRejected(ReportError.HPKE_DECRYPT_ERROR,
        role -> c.share(role == Role.LEADER ? Role.HELPER : Role.LEADER));
  }

  @Test
  void whatDoesNotDecodeIsInvalidMessage() throws Exception {
    Client c = new Client(995);
    assertRejected(ReportError.INVALID_MESSAGE, role -> c.sealed(role, key, new byte[] {1, 2}));
    assertRejected(ReportError.INVALID_MESSAGE, role -> c.sealed(role, key,
        new PlaintextInputShare(List.of(), new byte[] {1, 2, 3}).encode()));
    c.publicShare = new byte[] {7};
    assertRejected(ReportError.INVALID_MESSAGE, c::share);
  }

  @ParameterizedTest
  @EnumSource(DapVersion.class)
  void aTimeBeyondNowPlusTheSkewIsReportTooEarly(DapVersion v) throws Exception {
    version = v;
    // now is 100510 s and the skew 300 s: unit 1009 starts at 100900 s, beyond 100810 s
    assertRejected(ReportError.REPORT_TOO_EARLY, new Client(1009)::share);
    // unit 1008 starts at 100800 s, within the skew: not too early, but past the task interval
    assertRejected(v == DapVersion.DAP_18 ? ReportError.TASK_EXPIRED : ReportError.REPORT_DROPPED,
        new Client(1008)::share);
  }

  @ParameterizedTest
  @EnumSource(DapVersion.class)
  void aTimeOutsideTheTaskIntervalIsTaskNotStartedOrTaskExpiredInDap18ReportDroppedInDap19(
      DapVersion v) throws Exception {
    version = v;
    // DAP-18 "Input Share Validation" has two errors; DAP-19 step 3 has report_dropped for both
    assertRejected(v == DapVersion.DAP_18 ? ReportError.TASK_NOT_STARTED
        : ReportError.REPORT_DROPPED, new Client(989)::share);
    assertRejected(v == DapVersion.DAP_18 ? ReportError.TASK_EXPIRED
        : ReportError.REPORT_DROPPED, new Client(1000)::share);
    assertInstanceOf(ReportIntake.Prepared.class,
        job(Role.LEADER).prepare(new Client(990).share(Role.LEADER)), "the first unit");
    assertInstanceOf(ReportIntake.Prepared.class,
        job(Role.HELPER).prepare(new Client(999).share(Role.HELPER)), "the last unit");
  }

  @Test
  void anyReportExtensionIsInvalidMessage() throws Exception {
    ReportExtension a = new ReportExtension(0x7a01, new byte[] {1});
    ReportExtension b = new ReportExtension(0x7a02, new byte[0]);
    assertRejected(ReportError.INVALID_MESSAGE, new Client(995, List.of(a))::share);
    Client priv = new Client(995);
    priv.privateExtensions = List.of(b);
    assertRejected(ReportError.INVALID_MESSAGE, priv::share);
    Client twice = new Client(995, List.of(a));
    twice.privateExtensions = List.of(a);
    assertRejected(ReportError.INVALID_MESSAGE, twice::share);
    assertRejected(ReportError.INVALID_MESSAGE, new Client(995, List.of(b, a))::share);
  }

  /** The attribution draft's privacy_budget under the default code point. */
  private static ReportExtension budget(byte[] data) {
    return new ReportExtension(AttributionCodePoints.DEFAULTS.privacyBudget(), data);
  }

  @Test
  void privacyBudgetIsReadFromThePublicExtensionsByBothRolesAndRefusedElsewhere() throws Exception {
    Client c = new Client(995, List.of(budget(new MicroEpsilon(250_000).encode())));
    for (Role role : new Role[] {Role.LEADER, Role.HELPER}) {
      ReportIntake.Prepared p = assertInstanceOf(ReportIntake.Prepared.class,
          job(role).prepare(c.share(role)), role.toString());
      assertEquals(Optional.of(new MicroEpsilon(250_000)), p.budget(), role.toString());
    }
    // in the private extensions the aggregators could see different values
    Client priv = new Client(995);
    priv.privateExtensions = List.of(budget(new MicroEpsilon(250_000).encode()));
    assertRejected(ReportError.INVALID_MESSAGE, priv::share);
    // not a 4-byte uint32
    assertRejected(ReportError.INVALID_MESSAGE,
        new Client(995, List.of(budget(new byte[] {1, 2, 3})))::share);
    // without one, a task with a fixed strategy counts the report without a budget
    ReportIntake.Prepared none = assertInstanceOf(ReportIntake.Prepared.class,
        job(Role.HELPER).prepare(new Client(995).share(Role.HELPER)));
    assertEquals(Optional.empty(), none.budget());
  }

  @Test
  void aReportBudgetTaskDropsAReportWithoutPrivacyBudget() throws Exception {
    f = new Fixture(5, new DpStrategy.ReportBudgetDiscreteLaplace(), Fixture.PRECISION,
        Interval.of(990, 10), false);
    assertRejected(ReportError.REPORT_DROPPED, new Client(995)::share);
    // a budget of zero: no finite noise could count it, and the batch would have no epsilon
    assertRejected(ReportError.REPORT_DROPPED,
        new Client(995, List.of(budget(new MicroEpsilon(0).encode())))::share);
    Client c = new Client(995, List.of(budget(new MicroEpsilon(1).encode())));
    for (Role role : new Role[] {Role.LEADER, Role.HELPER}) {
      assertEquals(Optional.of(new MicroEpsilon(1)), assertInstanceOf(ReportIntake.Prepared.class,
          job(role).prepare(c.share(role))).budget());
    }
  }

  @Test
  void aFailedVerifyInitIsVdafVerifyError() throws Exception {
    Client c = new Client(995);
    for (Role role : new Role[] {Role.LEADER, Role.HELPER}) {
      ReportIntake.Job shortKey = new ReportIntake(keys, CLOCK, Duration.ZERO).job(task(role),
          new Prio3(f.variant), new byte[5]);
      ReportIntake.Outcome out = shortKey.prepare(c.share(role));
      assertEquals(ReportError.VDAF_VERIFY_ERROR,
          assertInstanceOf(ReportIntake.Rejected.class, out).error(), role.toString());
    }
  }

  @Test
  void aNegativeClockSkewIsRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> new ReportIntake(keys, CLOCK, Duration.ofSeconds(-1)));
  }
}
