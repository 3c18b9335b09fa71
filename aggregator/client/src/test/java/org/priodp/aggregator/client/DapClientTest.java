package org.priodp.aggregator.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.hpke.HPKE;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.testing.FakeHttp.Response;
import org.priodp.aggregator.testing.FakeHttp;
import org.priodp.aggregator.testing.SpecReader;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The Client against a Leader and a Helper written in this test from DAP-18's structs ("HPKE
 * Configuration Request", "Upload Request"): they serve HpkeConfigList bytes encoded by hand
 * and the Leader decodes the UploadRequest by hand; the test opens each input share with Bouncy
 * Castle's HPKE, info "dap-NN input share" || 0x01 || server_role and an InputShareAad it encodes
 * itself over the TaskConfiguration (with a task_interval extension), then verifies and
 * aggregates the shares with Prio3 under the context "dap-NN" || task_id and the report ID as the
 * nonce, and unshards the measurements the Client was given.
 */
class DapClientTest {
  private static final long PRECISION = 3600;
  private static final long NOW_UNITS = 400_500;
  private static final Clock CLOCK = Clock.fixed(
      Instant.ofEpochSecond(NOW_UNITS * PRECISION + 1234), ZoneOffset.UTC);
  private static final byte[] TASK_ID = new byte[32];
  private static final Prio3Variant VARIANT = new Prio3Variant.Histogram(4, 2);

  static {
    for (int i = 0; i < 32; i++) {
      TASK_ID[i] = (byte) (7 * i + 1);
    }
  }

  private static final HPKE BC = new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256,
      HPKE.kdf_HKDF_SHA256, HPKE.aead_AES_GCM128);

  /** An aggregator's key: its config id and Bouncy Castle key pair. */
  private record Key(int id, AsymmetricCipherKeyPair pair) {
    static Key fresh(int id) {
      return new Key(id, BC.generatePrivateKey());
    }

    byte[] publicKey() {
      return BC.serializePublicKey(pair.getPublic());
    }

    /** HpkeConfig { id; kem_id; kdf_id; aead_id; public_key<1..2^16-1> }, X25519/HKDF-SHA256/AES-128-GCM. */
    byte[] config() {
      return new SpecTls().u8(id).u16(0x0020).u16(0x0001).u16(0x0001).opaque16(publicKey())
          .bytes();
    }
  }

  /** HpkeConfigList: HpkeConfig configs<10..2^16-1>. */
  private static byte[] configList(byte[]... configs) {
    SpecTls all = new SpecTls();
    for (byte[] c : configs) {
      all.raw(c);
    }
    return new SpecTls().opaque16(all.bytes()).bytes();
  }

  /** An HpkeConfig of a registered suite this project does not implement (DHKEM P-384). */
  private static byte[] unsupportedConfig(int id) {
    return new SpecTls().u8(id).u16(0x0011).u16(0x0002).u16(0x0002).opaque16(new byte[97])
        .bytes();
  }

  private static String leaderEndpoint(FakeHttp leader) {
    return leader.url() + "/dap/";
  }

  private static TaskParameters task(FakeHttp leader, FakeHttp helper) {
    return task(leader, helper, DapVersion.DAP_19);
  }

  private static TaskParameters task(FakeHttp leader, FakeHttp helper, DapVersion version) {
    return new TaskParameters(new TaskId(TASK_ID), version,
        TaskDefinition.configurationFor(VARIANT,
        "client test".getBytes(StandardCharsets.US_ASCII), leaderEndpoint(leader), helper.url(),
        PRECISION, 10, BatchMode.TIME_INTERVAL,
        List.of(TaskExtension.taskInterval(Interval.of(400_000, 1000)))),
        VARIANT, new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP);
  }

  /** The TaskConfiguration as the spec encodes it, for this test's task. */
  private static byte[] specTaskConfiguration(FakeHttp leader, FakeHttp helper) {
    byte[] extension = new SpecTls().u16(1).opaque16(new SpecTls().u64(400_000).u64(1000)
        .bytes()).bytes();
    return new SpecTls().u8(11).raw("client test".getBytes(StandardCharsets.US_ASCII))
        .opaque16(leaderEndpoint(leader).getBytes(StandardCharsets.US_ASCII))
        .opaque16(helper.url().getBytes(StandardCharsets.US_ASCII))
        .u64(PRECISION).u64(10).u8(1).opaque16(new byte[0])
        .u32(4).opaque16(new SpecTls().u32(4).u32(2).bytes()) // Prio3Histogram {length, chunk}
        .opaque16(extension).bytes();
  }

  /** One Report as the Leader received it, decoded from the spec's struct. */
  private record SpecReport(byte[] reportId, long time, byte[] metadata, byte[] publicShare,
      int leaderConfigId, byte[] leaderEnc, byte[] leaderPayload, int helperConfigId,
      byte[] helperEnc, byte[] helperPayload) {
  }

  /** UploadRequest { Report reports[message_length]; } decoded by hand. */
  private static List<SpecReport> decodeUpload(byte[] body) {
    SpecReader r = new SpecReader(body);
    List<SpecReport> out = new ArrayList<>();
    while (r.remaining() > 0) {
      byte[] id = r.raw(16);
      long time = r.u64();
      byte[] ext = r.opaque16();
      assertEquals(0, ext.length, "no public extensions");
      byte[] metadata = new SpecTls().raw(id).u64(time).opaque16(ext).bytes();
      byte[] publicShare = r.opaque32();
      int lid = r.u8();
      byte[] lenc = r.opaque16();
      byte[] lpay = r.opaque32();
      int hid = r.u8();
      byte[] henc = r.opaque16();
      byte[] hpay = r.opaque32();
      out.add(new SpecReport(id, time, metadata, publicShare, lid, lenc, lpay, hid, henc, hpay));
    }
    return out;
  }

  /** The draft's version tag: "dap-18" or "dap-19", spelled as the drafts do. */
  private static String tag(DapVersion v) {
    return switch (v) {
      case DAP_18 -> "dap-18";
      case DAP_19 -> "dap-19";
    };
  }

  /** Opens an input share and returns PlaintextInputShare.payload (no private extensions). */
  private static byte[] open(String tag, Key key, int serverRole, byte[] aad, byte[] enc,
      byte[] payload) throws InvalidCipherTextException {
    byte[] info = new SpecTls().raw((tag + " input share").getBytes(StandardCharsets.US_ASCII))
        .u8(1).u8(serverRole).bytes();
    SpecReader p = new SpecReader(BC.open(enc, key.pair(), info, aad, payload, null, null, null));
    assertEquals(0, p.opaque16().length, "no private extensions");
    byte[] share = p.opaque32();
    assertEquals(0, p.remaining());
    return share;
  }

  /**
   * Opens both shares of every report, verifies them with Prio3 as the two aggregators would and
   * returns the unsharded histogram.
   */
  private static List<BigInteger> openVerifyAndUnshard(List<SpecReport> reports, Key leaderKey,
      Key helperKey, byte[] specConfig) throws InvalidCipherTextException {
    return openVerifyAndUnshard("dap-19", reports, leaderKey, helperKey, specConfig);
  }

  private static List<BigInteger> openVerifyAndUnshard(String tag, List<SpecReport> reports,
      Key leaderKey, Key helperKey, byte[] specConfig) throws InvalidCipherTextException {
    Prio3 prio3 = new Prio3(VARIANT);
    byte[] ctx = new SpecTls().raw(tag.getBytes(StandardCharsets.US_ASCII)).raw(TASK_ID)
        .bytes();
    byte[] verifyKey = new byte[Prio3.VERIFY_KEY_SIZE];
    List<FieldVector> leaderOut = new ArrayList<>();
    List<FieldVector> helperOut = new ArrayList<>();
    for (SpecReport rep : reports) {
      byte[] aad = new SpecTls().raw(TASK_ID).raw(specConfig).raw(rep.metadata())
          .opaque32(rep.publicShare()).bytes();
      assertEquals(leaderKey.id(), rep.leaderConfigId());
      assertEquals(helperKey.id(), rep.helperConfigId());
      byte[] l = open(tag, leaderKey, 2, aad, rep.leaderEnc(), rep.leaderPayload());
      byte[] h = open(tag, helperKey, 3, aad, rep.helperEnc(), rep.helperPayload());
      Prio3.PublicShare ps = prio3.decodePublicShare(rep.publicShare());
      Prio3.VerifyInitResult lv = prio3.verifyInit(verifyKey, ctx, 0, rep.reportId(), ps,
          prio3.decodeInputShare(0, l));
      Prio3.VerifyInitResult hv = prio3.verifyInit(verifyKey, ctx, 1, rep.reportId(), ps,
          prio3.decodeInputShare(1, h));
      Prio3.VerifierMessage m = prio3.verifierSharesToMessage(ctx,
          List.of(lv.verifierShare(), hv.verifierShare()));
      leaderOut.add(prio3.verifyNext(lv.state(), m));
      helperOut.add(prio3.verifyNext(hv.state(), m));
    }
    return prio3.unshard(List.of(prio3.aggregate(leaderOut), prio3.aggregate(helperOut)),
        reports.size());
  }

  private static SecureRandom seeded(long seed) throws Exception {
    System.out.println("DapClientTest seed " + seed);
    SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
    r.setSeed(seed);
    return r;
  }

  private static Function<FakeHttp.Request, Response> serving(byte[] configList,
      Function<FakeHttp.Request, Response> reports) {
    return req -> {
      if (req.method().equals("GET") && req.path().endsWith("/hpke_config")) {
        return new Response(200, Map.of("Content-Type",
            "application/ppm-dap;message=hpke-config-list"), configList);
      }
      return reports.apply(req);
    };
  }

  private static List<List<BigInteger>> histogram(int... buckets) {
    List<List<BigInteger>> m = new ArrayList<>();
    for (int b : buckets) {
      m.add(List.of(BigInteger.valueOf(b)));
    }
    return m;
  }

  @ParameterizedTest
  @EnumSource(DapVersion.class)
  void uploadsReportsThatTheSpecsAggregatorsOpenVerifyAndUnshardToTheMeasurements(DapVersion v)
      throws Exception {
    Key leaderKey = Key.fresh(17);
    Key helperKey = Key.fresh(3);
    List<byte[]> uploads = new ArrayList<>();
    try (FakeHttp helper = new FakeHttp(serving(configList(helperKey.config()), r ->
            Response.of(404, new byte[0])));
        FakeHttp leader = new FakeHttp(serving(
            configList(unsupportedConfig(9), leaderKey.config()), r -> {
              uploads.add(r.body());
              return Response.of(200, new byte[0]);
            }))) {
      DapClient client = new DapClient(task(leader, helper, v), HttpClient.newHttpClient(),
          seeded(11), CLOCK, 3);
      List<List<BigInteger>> measurements = histogram(0, 1, 1, 3, 2, 1, 0);
      UploadErrors errors = client.upload(measurements);
      assertEquals(List.of(), errors.status());

      // hpke_config under each base URL (the Leader's carries a path), uploads in requests of 3
      assertEquals("/dap/hpke_config", leader.requests.get(0).path());
      assertEquals("/hpke_config", helper.requests.get(0).path());
      assertEquals(1, helper.requests.size(), "the configs are cached");
      assertEquals(3, uploads.size());
      FakeHttp.Request post = leader.requests.get(1);
      assertEquals("POST", post.method());
      assertEquals("/dap/tasks/" + new TaskId(TASK_ID).toBase64Url() + "/reports", post.path());
      assertEquals("application/ppm-dap;message=upload-req", post.header("Content-Type"));

      List<SpecReport> reports = new ArrayList<>();
      uploads.forEach(b -> reports.addAll(decodeUpload(b)));
      assertEquals(7, reports.size());
      Set<String> ids = new HashSet<>();
      for (SpecReport r : reports) {
        assertEquals(NOW_UNITS, r.time(), "the time in time_precision units, rounded down");
        assertTrue(ids.add(java.util.HexFormat.of().formatHex(r.reportId())));
      }
      assertEquals(List.of(BigInteger.TWO, BigInteger.valueOf(3), BigInteger.ONE, BigInteger.ONE),
          openVerifyAndUnshard(tag(v), reports, leaderKey, helperKey,
              specTaskConfiguration(leader, helper)));
      // sealed and sharded for this version only: the other version's aggregators cannot open
      String other = tag(v == DapVersion.DAP_18 ? DapVersion.DAP_19 : DapVersion.DAP_18);
      assertThrows(InvalidCipherTextException.class, () -> openVerifyAndUnshard(other, reports,
          leaderKey, helperKey, specTaskConfiguration(leader, helper)));
    }
  }

  @Test
  void aTaskConfigurationThatDiffersFromTheAadTheAggregatorsUseDoesNotOpen() throws Exception {
    Key leaderKey = Key.fresh(1);
    Key helperKey = Key.fresh(2);
    List<byte[]> uploads = new ArrayList<>();
    try (FakeHttp helper = new FakeHttp(serving(configList(helperKey.config()), r -> null));
        FakeHttp leader = new FakeHttp(serving(configList(leaderKey.config()), r -> {
          uploads.add(r.body());
          return Response.of(200, new byte[0]);
        }))) {
      new DapClient(task(leader, helper), HttpClient.newHttpClient(), seeded(12), CLOCK)
          .upload(histogram(2));
      byte[] otherConfig = specTaskConfiguration(leader, helper);
      otherConfig[otherConfig.length - 1] ^= 1; // another task_interval duration
      List<SpecReport> reports = decodeUpload(uploads.get(0));
      assertThrows(InvalidCipherTextException.class,
          () -> openVerifyAndUnshard(reports, leaderKey, helperKey, otherConfig));
    }
  }

  /** UploadErrors { ReportUploadStatus { ReportID id; ReportError error; } status[...]; }. */
  private static byte[] uploadErrors(List<SpecReport> reports, int error) {
    SpecTls t = new SpecTls();
    for (SpecReport r : reports) {
      t.raw(r.reportId()).u8(error);
    }
    return t.bytes();
  }

  /** The code of the unknown-HPKE-config upload error: outdated_config(11), DAP-19 4. */
  private static int unknownConfigCode(DapVersion v) {
    return v == DapVersion.DAP_18 ? 11 : 4; // DAP-19 hpke_unknown_config_id(4)
  }

  @ParameterizedTest
  @EnumSource(DapVersion.class)
  void onAnUnknownConfigTheClientRefetchesTheConfigsAndRetriesOnceWithFreshReports(DapVersion v)
      throws Exception {
    Key oldKey = Key.fresh(1);
    Key newKey = Key.fresh(2);
    Key helperKey = Key.fresh(5);
    AtomicInteger leaderConfigGets = new AtomicInteger();
    List<List<SpecReport>> posts = new ArrayList<>();
    try (FakeHttp helper = new FakeHttp(serving(configList(helperKey.config()), r -> null));
        FakeHttp leader = new FakeHttp(req -> {
          if (req.method().equals("GET")) {
            // the Leader rotates its key after the first fetch
            return Response.of(200, configList(
                (leaderConfigGets.getAndIncrement() == 0 ? oldKey : newKey).config()));
          }
          List<SpecReport> reps = decodeUpload(req.body());
          posts.add(reps);
          List<SpecReport> outdated = reps.stream().filter(r -> r.leaderConfigId() != 2).toList();
          byte[] body = uploadErrors(outdated, unknownConfigCode(v));
          return new Response(200, body.length == 0 ? Map.of() : Map.of("Content-Type",
              "application/ppm-dap;message=upload-errors"), body);
        })) {
      DapClient client = new DapClient(task(leader, helper, v), HttpClient.newHttpClient(),
          seeded(13), CLOCK);
      UploadErrors errors = client.upload(histogram(1, 2, 3));
      assertEquals(List.of(), errors.status(), "the retry was accepted");
      assertEquals(2, leaderConfigGets.get(), "the cached config list was invalidated");
      assertEquals(2, posts.size());
      for (int i = 0; i < 3; i++) {
        assertFalse(java.util.Arrays.equals(posts.get(0).get(i).reportId(),
            posts.get(1).get(i).reportId()), "a freshly generated report");
      }
      assertEquals(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE, BigInteger.ONE),
          openVerifyAndUnshard(tag(v), posts.get(1), newKey, helperKey,
              specTaskConfiguration(leader, helper)));
    }
  }

  @ParameterizedTest
  @EnumSource(DapVersion.class)
  void aRetryThatFailsAgainIsNotRetriedAndOtherErrorsKeepTheirOrder(DapVersion v)
      throws Exception {
    Key leaderKey = Key.fresh(1);
    Key helperKey = Key.fresh(5);
    List<List<SpecReport>> posts = new ArrayList<>();
    try (FakeHttp helper = new FakeHttp(serving(configList(helperKey.config()), r -> null));
        FakeHttp leader = new FakeHttp(serving(configList(leaderKey.config()), req -> {
          List<SpecReport> reps = decodeUpload(req.body());
          posts.add(reps);
          // first report: an unknown config every time; third: report_too_early (DAP-18 9,
          // DAP-19 8)
          SpecTls t = new SpecTls().raw(reps.get(0).reportId()).u8(unknownConfigCode(v));
          if (reps.size() == 3) {
            t.raw(reps.get(2).reportId()).u8(v == DapVersion.DAP_18 ? 9 : 8);
          }
          return Response.of(200, t.bytes());
        }))) {
      DapClient client = new DapClient(task(leader, helper, v), HttpClient.newHttpClient(),
          seeded(14), CLOCK);
      UploadErrors errors = client.upload(histogram(0, 1, 2));
      assertEquals(2, posts.size(), "one retry, not more");
      assertEquals(1, posts.get(1).size());
      assertEquals(2, errors.status().size());
      assertEquals(v == DapVersion.DAP_18 ? ReportError.OUTDATED_CONFIG
          : ReportError.HPKE_UNKNOWN_CONFIG_ID, errors.status().get(0).error());
      assertArrayEquals(posts.get(1).get(0).reportId(), errors.status().get(0).id().bytes(),
          "the retried report's id");
      assertEquals(ReportError.REPORT_TOO_EARLY, errors.status().get(1).error());
    }
  }

  @Test
  void configsWithAlgorithmsTheClientDoesNotKnowAreSkipped() throws Exception {
    Key leaderKey = Key.fresh(8);
    Key helperKey = Key.fresh(9);
    // kem_id 0x7777 is in no registry: the list is still valid DAP, the entry just unusable
    byte[] unknown = new SpecTls().u8(1).u16(0x7777).u16(0x0001).u16(0x0001)
        .opaque16(new byte[5]).bytes();
    List<byte[]> uploads = new ArrayList<>();
    try (FakeHttp helper = new FakeHttp(serving(configList(unknown, helperKey.config()),
            r -> null));
        FakeHttp leader = new FakeHttp(serving(configList(leaderKey.config(), unknown), r -> {
          uploads.add(r.body());
          return Response.of(200, new byte[0]);
        }))) {
      DapClient client = new DapClient(task(leader, helper), HttpClient.newHttpClient(),
          seeded(18), CLOCK);
      assertEquals(List.of(), client.upload(histogram(3, 3)).status());
      assertEquals(List.of(BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO, BigInteger.TWO),
          openVerifyAndUnshard(decodeUpload(uploads.get(0)), leaderKey, helperKey,
              specTaskConfiguration(leader, helper)));
    }
  }

  @Test
  void withoutAUsableConfigTheClientAbortsNamingWhyEachConfigIsUnusable() throws Exception {
    Key key = Key.fresh(1);
    // the daphne list entry: KEM, KDF and AEAD 99; then an X25519 config with a 16-byte key
    byte[] unknown = new SpecTls().u8(23).u16(99).u16(99).u16(99)
        .opaque16("this is a public key".getBytes(StandardCharsets.US_ASCII)).bytes();
    byte[] shortKey = new SpecTls().u8(5).u16(0x0020).u16(0x0001).u16(0x0001)
        .opaque16(new byte[16]).bytes();
    try (FakeHttp helper = new FakeHttp(serving(configList(unknown, shortKey), r -> null));
        FakeHttp leader = new FakeHttp(serving(configList(key.config()), r -> null))) {
      DapClient client = new DapClient(task(leader, helper), HttpClient.newHttpClient(),
          seeded(20), CLOCK);
      IOException e = assertThrows(IOException.class, () -> client.upload(histogram(1)));
      assertEquals("the Helper advertises no HPKE config with a supported KEM, KDF and AEAD ("
          + helper.url() + "/hpke_config): config 23: KEM 0x0063 is not registered in RFC 9180;"
          + " KDF 0x0063 is not registered in RFC 9180; AEAD 0x0063 is not registered in RFC 9180;"
          + " config 5: public_key has 16 bytes, DHKEM_X25519_HKDF_SHA256 public keys have 32",
          e.getMessage());
      assertTrue(leader.requests.stream().noneMatch(r -> r.method().equals("POST")),
          "nothing was uploaded");
    }
  }

  @Test
  void aRefusalAfterTheFirstRequestSaysHowManyReportsTheLeaderAnswered() throws Exception {
    Key key = Key.fresh(1);
    AtomicInteger posts = new AtomicInteger();
    try (FakeHttp helper = new FakeHttp(serving(configList(key.config()), r -> null));
        FakeHttp leader = new FakeHttp(serving(configList(key.config()), r ->
            posts.incrementAndGet() == 1 ? Response.of(200, new byte[0])
                : Response.of(503, "busy".getBytes(StandardCharsets.UTF_8))))) {
      DapClient client = new DapClient(task(leader, helper), HttpClient.newHttpClient(),
          seeded(19), CLOCK, 2);
      DapProblemException e = assertThrows(DapProblemException.class,
          () -> client.upload(histogram(0, 1, 2)));
      assertEquals("the Leader refused the upload (the Leader answered the first 2 of 3"
          + " reports): (HTTP 503): busy", e.getMessage());
    }
  }

  @Test
  void aProblemDocumentBecomesAnExceptionNamingTheDapErrorType() throws Exception {
    Key key = Key.fresh(1);
    try (FakeHttp helper = new FakeHttp(serving(configList(key.config()), r -> null));
        FakeHttp leader = new FakeHttp(serving(configList(key.config()), r -> new Response(404,
            Map.of("Content-Type", "application/problem+json"),
            ("{\"type\": \"urn:ietf:params:ppm:dap:error:unrecognizedTask\", \"title\": \"Unknown"
                + " task ID\", \"detail\": \"no such task\"}").getBytes(StandardCharsets.UTF_8))))) {
      DapClient client = new DapClient(task(leader, helper), HttpClient.newHttpClient(),
          seeded(15), CLOCK);
      DapProblemException e = assertThrows(DapProblemException.class,
          () -> client.upload(histogram(1)));
      assertEquals(DapError.UNRECOGNIZED_TASK, e.error().orElseThrow());
      assertEquals(404, e.status());
      assertTrue(e.getMessage().contains("unrecognizedTask (HTTP 404): no such task"),
          e.getMessage());
    }
  }

  @Test
  void theClientAbortsWithoutASupportedConfigOrAValidListAndOnAnInvalidMeasurement()
      throws Exception {
    Key key = Key.fresh(1);
    try (FakeHttp helper = new FakeHttp(serving(configList(unsupportedConfig(4)), r -> null));
        FakeHttp leader = new FakeHttp(serving(new byte[] {0, 3, 1, 2, 3}, r -> null))) {
      DapClient client = new DapClient(task(leader, helper), HttpClient.newHttpClient(),
          seeded(16), CLOCK);
      IOException e = assertThrows(IOException.class, () -> client.upload(histogram(1)));
      assertTrue(e.getMessage().contains("the Leader") && e.getMessage().contains(
          "not a valid HpkeConfigList"), e.getMessage());
    }
    try (FakeHttp helper = new FakeHttp(serving(configList(unsupportedConfig(4)), r -> null));
        FakeHttp leader = new FakeHttp(serving(configList(key.config()), r -> null))) {
      DapClient client = new DapClient(task(leader, helper), HttpClient.newHttpClient(),
          seeded(16), CLOCK);
      IOException e = assertThrows(IOException.class, () -> client.upload(histogram(1)));
      assertTrue(e.getMessage().contains("the Helper advertises no HPKE config with a supported"),
          e.getMessage());
    }
    try (FakeHttp helper = new FakeHttp(serving(configList(key.config()), r -> null));
        FakeHttp leader = new FakeHttp(serving(configList(key.config()),
            r -> Response.of(200, new byte[0])))) {
      DapClient client = new DapClient(task(leader, helper), HttpClient.newHttpClient(),
          seeded(16), CLOCK);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> client.upload(histogram(1, 4)));
      assertTrue(e.getMessage().startsWith("measurement 2: "), e.getMessage());
      assertTrue(leader.requests.stream().noneMatch(r -> r.method().equals("POST")),
          "nothing was uploaded");
    }
  }

  @Test
  void reportIdsAndRandomnessComeFromTheInjectedGenerator() throws Exception {
    Key key = Key.fresh(1);
    List<byte[]> uploads = new ArrayList<>();
    try (FakeHttp helper = new FakeHttp(serving(configList(key.config()), r -> null));
        FakeHttp leader = new FakeHttp(serving(configList(key.config()), r -> {
          uploads.add(r.body());
          return Response.of(200, new byte[0]);
        }))) {
      for (int run = 0; run < 2; run++) {
        new DapClient(task(leader, helper), HttpClient.newHttpClient(), seeded(17), CLOCK)
            .upload(histogram(3));
      }
      SpecReport a = decodeUpload(uploads.get(0)).get(0);
      SpecReport b = decodeUpload(uploads.get(1)).get(0);
      assertArrayEquals(a.reportId(), b.reportId());
      assertArrayEquals(a.publicShare(), b.publicShare(), "the same rand");
      assertNotEquals(0, a.publicShare().length);
    }
  }
}
