package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.hpke.HPKE;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.aggregator.core.AggregationJobService;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.testing.SpecDraft;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The Helper's aggregation jobs over HTTP against a Leader written in this test from the structs
 * of DAP-18 and DAP-19 ("Upload Request", "Leader Initialization", "Helper Initialization",
 * "Input Share Decryption", "Input Share Validation", "Obtaining Aggregate Shares") and VDAF-20's
 * ping-pong messages, with its own TLS-presentation encoder and Bouncy Castle's HPKE, never the
 * project's DAP codec nor its DapVersion: each task's version tag, ReportError code points and
 * task_info floor come from {@link SpecDraft}, copied from the drafts. It shards with the project's
 * Prio3. The tests whose answer differs between the drafts run at each draft against one Helper
 * that serves a DAP-18 task and a DAP-19 task side by side (the DAP-19 one with the empty
 * task_info it allows); the others run at DAP-19. Real SQLite, or PostgreSQL when PRIODP_PG_URL is
 * set. Seeds are printed.
 */
class AggregationJobsRouteTest {
  private static final String TOKEN = "leader-token_0123456789";
  private static final long PRECISION = 3600;

  @TempDir
  Path dir;

  private long seed;
  private Random random;

  @BeforeEach
  void seed() {
    seed = System.nanoTime();
    random = new Random(seed);
    System.out.println("AggregationJobsRouteTest seed " + seed);
  }

  // ------------------------------------------------------------------ the test's own encoder

  /** One VDAF of the test: the variant, DAP-18 vdaf_type and vdaf_configuration, measurements. */
  record Vdaf(String name, Prio3Variant variant, int type, byte[] config) {}

  static Stream<Arguments> vdafs() {
    return Stream.of(
        Arguments.of(new Vdaf("Prio3Count", new Prio3Variant.Count(), 1, new byte[0])),
        Arguments.of(new Vdaf("Prio3Sum", new Prio3Variant.Sum(BigInteger.valueOf(100)), 2,
            new SpecTls().u64(100).bytes())),
        Arguments.of(new Vdaf("Prio3SumVec", Prio3Variant.SumVec.of(3, BigInteger.valueOf(5), 2),
            3, new SpecTls().u32(3).u64(5).u32(2).bytes())),
        Arguments.of(new Vdaf("Prio3Histogram", new Prio3Variant.Histogram(4, 2), 4,
            new SpecTls().u32(4).u32(2).bytes())),
        Arguments.of(new Vdaf("Prio3MultihotCountVec", new Prio3Variant.MultihotCountVec(4, 2, 2),
            5, new SpecTls().u32(4).u32(2).u64(2).bytes())),
        // draft-ietf-ppm-l1-bound-sum-02, sections 4 and 6: uint32 length, uint64 max_value,
        // uint32 chunk_length; code point 0x00000007
        Arguments.of(new Vdaf("Prio3L1BoundSum", new Prio3Variant.L1BoundSum(4, BigInteger.valueOf(9), 3),
            7, new SpecTls().u32(4).u64(9).u32(3).bytes())));
  }

  /** A random valid measurement of the variant. */
  List<BigInteger> measurement(Prio3Variant v) {
    if (v instanceof Prio3Variant.Count) {
      return List.of(BigInteger.valueOf(random.nextInt(2)));
    }
    if (v instanceof Prio3Variant.Sum) {
      return List.of(BigInteger.valueOf(random.nextInt(101)));
    }
    if (v instanceof Prio3Variant.SumVec) {
      return List.of(BigInteger.valueOf(random.nextInt(6)), BigInteger.valueOf(random.nextInt(6)),
          BigInteger.valueOf(random.nextInt(6)));
    }
    if (v instanceof Prio3Variant.Histogram) {
      return List.of(BigInteger.valueOf(random.nextInt(4)));
    }
    if (v instanceof Prio3Variant.L1BoundSum) {
      // four integers summing to at most 9: a, b, c, d with a + b + c + d <= 9
      int a = random.nextInt(10);
      int b = random.nextInt(10 - a);
      int c = random.nextInt(10 - a - b);
      return List.of(BigInteger.valueOf(a), BigInteger.valueOf(b), BigInteger.valueOf(c),
          BigInteger.valueOf(random.nextInt(10 - a - b - c)));
    }
    List<BigInteger> m = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ZERO,
        BigInteger.ZERO, BigInteger.ZERO));
    m.set(random.nextInt(4), BigInteger.ONE);
    m.set(random.nextInt(4), BigInteger.ONE);
    return m;
  }

  /** The true aggregate of measurements (one element per output coordinate). */
  static List<BigInteger> truth(Prio3Variant v, List<List<BigInteger>> ms) {
    int n = v instanceof Prio3Variant.Histogram h ? h.length() : ms.get(0).size();
    BigInteger[] sum = new BigInteger[n];
    Arrays.fill(sum, BigInteger.ZERO);
    for (List<BigInteger> m : ms) {
      if (v instanceof Prio3Variant.Histogram) {
        sum[m.get(0).intValue()] = sum[m.get(0).intValue()].add(BigInteger.ONE);
      } else {
        for (int i = 0; i < n; i++) {
          sum[i] = sum[i].add(m.get(i));
        }
      }
    }
    return List.of(sum);
  }

  // ------------------------------------------------------------------ the task and the server

  /** The task as both sides were provisioned with it. */
  final class Task {
    final SpecDraft draft;
    final byte[] taskInfo;
    final Vdaf vdaf;
    final byte[] taskId = new byte[32];
    final byte[] verifyKey = new byte[32];
    final HpkeKeyPair collector;
    final TaskDefinition definition;
    final Interval taskInterval;

    final BatchMode mode;

    Task(Vdaf vdaf, Interval taskInterval) {
      this(vdaf, taskInterval, BatchMode.TIME_INTERVAL);
    }

    Task(Vdaf vdaf, Interval taskInterval, BatchMode mode) {
      this(vdaf, taskInterval, mode, new DpStrategy.NoDifferentialPrivacy());
    }

    Task(Vdaf vdaf, Interval taskInterval, BatchMode mode, DpStrategy strategy) {
      this(SpecDraft.DAP_19, "agg-test".getBytes(StandardCharsets.US_ASCII), vdaf, taskInterval,
          mode, strategy);
    }

    /**
     * A time-interval task without DP in {@code draft}, with the shortest task_info the draft
     * allows if it allows an empty one (DAP-19's {@code task_info<0..2^8-1>}), else "agg-test".
     */
    Task(SpecDraft draft, Vdaf vdaf, Interval taskInterval) {
      this(draft, draft.taskInfoFloor() == 0 ? new byte[0]
          : "agg-test".getBytes(StandardCharsets.US_ASCII), vdaf, taskInterval,
          BatchMode.TIME_INTERVAL, new DpStrategy.NoDifferentialPrivacy());
    }

    Task(SpecDraft draft, byte[] taskInfo, Vdaf vdaf, Interval taskInterval, BatchMode mode,
        DpStrategy strategy) {
      this.draft = draft;
      this.taskInfo = taskInfo;
      this.mode = mode;
      this.vdaf = vdaf;
      this.taskInterval = taskInterval;
      random.nextBytes(taskId);
      random.nextBytes(verifyKey);
      byte[] ikm = new byte[32];
      random.nextBytes(ikm);
      collector = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
      HpkeConfig collectorConfig = new HpkeConfig(new HpkeConfigId(7),
          HpkeSuite.DAP_MANDATORY.kem(), HpkeSuite.DAP_MANDATORY.kdf(),
          HpkeSuite.DAP_MANDATORY.aead(), collector.publicKey());
      List<TaskExtension> ext = taskInterval == null ? List.of()
          : List.of(TaskExtension.taskInterval(taskInterval));
      TaskConfiguration config = TaskDefinition.configurationFor(vdaf.variant(), taskInfo,
          "https://leader.example/", "https://helper.example/dap/", PRECISION, 1, mode, ext);
      // the DapVersion only provisions the Helper's task; the test's Leader never consults it
      definition = new TaskDefinition(new TaskId(taskId), Role.HELPER, config, vdaf.variant(),
          strategy, SensitivityRule.PRIODP, collectorConfig,
          AuthToken.of(TOKEN)).withVdafVerifyKeys(java.util.Map.of(0, verifyKey))
          .withDapVersion(DapVersion.fromTag(draft.tag()));
    }

    /** TaskConfiguration (the draft's "Task Configuration") encoded by the test. */
    byte[] configuration() {
      byte[] extensions = taskInterval == null ? new byte[0]
          : new SpecTls().u16(1).opaque16(new SpecTls().u64(taskInterval.start().value())
              .u64(taskInterval.duration().value()).bytes()).bytes();
      return new SpecTls().raw(draft.taskInfo(taskInfo))
          .opaque16("https://leader.example/".getBytes(StandardCharsets.US_ASCII))
          .opaque16("https://helper.example/dap/".getBytes(StandardCharsets.US_ASCII))
          .u64(PRECISION).u64(1).u8(mode == BatchMode.TIME_INTERVAL ? 1 : 2)
          .opaque16(new byte[0]).u32(vdaf.type())
          .opaque16(vdaf.config()).opaque16(extensions).bytes();
    }

    String jobsUrl(int port) {
      return "http://127.0.0.1:" + port + "/dap/tasks/" + b64(taskId) + "/aggregation_jobs";
    }
  }

  static String b64(byte[] b) {
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** The Helper's HPKE config as the Leader read it from hpke_config. */
  record Advertised(int id, byte[] publicKey) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Advertised a && a.id == id && Arrays.equals(a.publicKey, publicKey);
    }

    @Override
    public int hashCode() {
      return id;
    }
  }

  static long now() {
    return System.currentTimeMillis() / 1000 / PRECISION;
  }

  Datastore openStore(String name) {
    String pg = System.getenv("PRIODP_PG_URL");
    if (pg != null && !pg.isEmpty()) {
      return JdbcDatastore.open(pg);
    }
    return JdbcDatastore.openSqlite(dir.resolve(name));
  }

  /** Starts an aggregator of the tasks on a free port. */
  static Aggregator server(List<TaskDefinition> tasks, Datastore store) {
    return Aggregator.start(AggregatorConfig.builder(tasks, store).build());
  }

  /**
   * Starts one aggregator serving the tasks of a test beside a Histogram task of the other draft,
   * so that both drafts are served side by side; the DAP-18 tasks come first, whichever draft the
   * test speaks.
   */
  Aggregator sideBySide(Datastore store, Task... tasks) {
    List<Task> all = new ArrayList<>(List.of(tasks));
    all.add(new Task(tasks[0].draft.other(), (Vdaf) vdafs().toList().get(3).get()[0], null));
    return server(all.stream().sorted(java.util.Comparator.comparing(t -> t.draft))
        .map(t -> t.definition).toList(), store);
  }

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  static HttpResponse<byte[]> send(HttpRequest.Builder b) throws Exception {
    return HTTP.send(b.timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + TOKEN)
        .build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  static Advertised hpkeConfig(int port, String path) throws Exception {
    HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
        + port + path)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, r.statusCode());
    assertEquals("application/ppm-dap;message=hpke-config-list",
        r.headers().firstValue("Content-Type").orElseThrow());
    assertEquals("max-age=86400", r.headers().firstValue("Cache-Control").orElseThrow());
    ByteBuffer b = ByteBuffer.wrap(r.body());
    int listLength = b.getShort() & 0xffff;
    assertEquals(r.body().length - 2, listLength);
    int id = b.get() & 0xff;
    assertEquals(0x20, b.getShort());
    assertEquals(1, b.getShort());
    assertEquals(1, b.getShort());
    byte[] pk = new byte[b.getShort() & 0xffff];
    b.get(pk);
    return new Advertised(id, pk);
  }

  // ------------------------------------------------------------------ the Leader

  /** One report as the Leader holds it. */
  final class Report {
    final byte[] id = new byte[16];
    final long time;
    final List<BigInteger> measurement;
    Prio3.VerifyState leaderState;
    byte[] helperPayloadReportShare;
    byte[] verifyInit;

    Report(long time, List<BigInteger> measurement) {
      random.nextBytes(id);
      this.time = time;
      this.measurement = measurement;
    }
  }

  /** Builds a report's VerifyInit: shards, seals the Helper's share, runs the Leader's init. */
  Report report(Task t, Advertised helper, long time, List<BigInteger> m) throws Exception {
    return report(t, helper, time, m, false, false);
  }

  /**
   * Builds a report's VerifyInit; with {@code badPublicShare} the public share loses its last
   * byte, with {@code privateExtension} the plaintext carries an extension of type 0xfffe (both
   * covered by the AAD and sealed correctly, so only validation can catch them).
   */
  Report report(Task t, Advertised helper, long time, List<BigInteger> m, boolean badPublicShare,
      boolean privateExtension) throws Exception {
    return report(t, t.draft, t.draft, helper, time, m, badPublicShare, privateExtension);
  }

  /**
   * Builds a report's VerifyInit as a Leader that shards and runs its {@code verify_init} under
   * {@code ctxOf}'s VDAF context and seals under {@code infoOf}'s info string (the task's draft,
   * or the other one to check that the Helper refuses it).
   */
  Report report(Task t, SpecDraft ctxOf, SpecDraft infoOf, Advertised helper, long time,
      List<BigInteger> m, boolean badPublicShare, boolean privateExtension) throws Exception {
    Prio3 prio3 = new Prio3(t.vdaf.variant());
    Report r = new Report(time, m);
    byte[] rand = new byte[prio3.randSize()];
    random.nextBytes(rand);
    byte[] ctx = ctxOf.vdafContext(t.taskId);
    Prio3.ShardResult shard = prio3.shard(ctx, m, r.id, rand);
    Prio3.VerifyInitResult leader = prio3.verifyInit(t.verifyKey, ctx, 0, r.id,
        shard.publicShare(), shard.inputShares().get(0));
    r.leaderState = leader.state();
    byte[] publicShare = shard.publicShare().encode();
    if (badPublicShare) {
      publicShare = Arrays.copyOf(publicShare, publicShare.length - 1);
    }
    byte[] metadata = new SpecTls().raw(r.id).u64(time).opaque16(new byte[0]).bytes();
    byte[] aad = new SpecTls().raw(t.taskId).raw(t.configuration()).raw(metadata)
        .opaque32(publicShare).bytes();
    byte[] plaintext = new SpecTls().opaque16(privateExtension
        ? new SpecTls().u16(0xfffe).opaque16(new byte[0]).bytes() : new byte[0])
        .opaque32(shard.inputShares().get(1).encode()).bytes();
    byte[] ciphertext = seal(infoOf, helper, aad, plaintext);
    byte[] reportShare = new SpecTls().raw(metadata).opaque32(publicShare).raw(ciphertext).bytes();
    byte[] pingPongInit = new SpecTls().u8(0).opaque32(leader.verifierShare().encode()).bytes();
    r.verifyInit = new SpecTls().raw(reportShare).opaque32(pingPongInit).bytes();
    return r;
  }

  /** HpkeCiphertext {config_id; enc; payload} sealed with info "dap-NN input share" 0x01 0x03. */
  static byte[] seal(SpecDraft draft, Advertised helper, byte[] aad, byte[] plaintext)
      throws Exception {
    HPKE hpke = new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256, HPKE.kdf_HKDF_SHA256,
        HPKE.aead_AES_GCM128);
    AsymmetricKeyParameter pk = hpke.deserializePublicKey(helper.publicKey());
    byte[][] sealed = hpke.seal(pk, draft.inputShareInfo(3), aad, plaintext, null, null, null);
    return new SpecTls().u8(helper.id()).opaque16(sealed[1]).opaque32(sealed[0]).bytes();
  }

  /** AggregationJobInitReq {verification_key_id; agg_param; extensions; verify_inits}. */
  static byte[] initReq(int keyId, List<Report> reports) {
    SpecTls t = new SpecTls().u8(keyId).opaque32(new byte[0]).opaque16(new byte[0]);
    for (Report r : reports) {
      t.raw(r.verifyInit);
    }
    return t.bytes();
  }

  static HttpResponse<byte[]> postInit(Task t, int port, byte[] body) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(t.jobsUrl(port)))
        .header("Content-Type", "application/ppm-dap;message=aggregation-job-init-req")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
  }

  /** One decoded VerifyResp: type 0 continue (payload), 1 finish, 2 reject (error). */
  record Resp(byte[] reportId, int type, byte[] payload, int error) {}

  static List<Resp> decodeResp(byte[] body) {
    ByteBuffer b = ByteBuffer.wrap(body);
    List<Resp> out = new ArrayList<>();
    while (b.hasRemaining()) {
      byte[] id = new byte[16];
      b.get(id);
      int type = b.get() & 0xff;
      switch (type) {
        case 0 -> {
          byte[] p = new byte[b.getInt()];
          b.get(p);
          out.add(new Resp(id, 0, p, -1));
        }
        case 1 -> out.add(new Resp(id, 1, null, -1));
        case 2 -> out.add(new Resp(id, 2, null, b.get() & 0xff));
        default -> throw new AssertionError("VerifyRespType " + type);
      }
    }
    return out;
  }

  /**
   * Checks the Helper's ping-pong finish message and finishes the Leader's verification (VDAF-20
   * ping-pong: the Leader, having sent initialize, receives finish(verifier_message)).
   */
  static FieldVector leaderFinish(Task t, Report r, Resp resp) {
    assertArrayEquals(r.id, resp.reportId());
    assertEquals(0, resp.type(), "continue");
    ByteBuffer b = ByteBuffer.wrap(resp.payload());
    assertEquals(2, b.get(), "ping-pong finish");
    byte[] msg = new byte[b.getInt()];
    b.get(msg);
    assertEquals(0, b.remaining());
    Prio3 prio3 = new Prio3(t.vdaf.variant());
    return prio3.verifyNext(r.leaderState, prio3.decodeVerifierMessage(msg));
  }

  /**
   * Sends AggregateShareReq for [start, start+duration) and opens the Helper's share with the
   * task's draft's info string.
   */
  static byte[] helperAggregateShare(Task t, int port, long start, long duration, long count,
      byte[] checksum) throws Exception {
    return helperAggregateShare(t, t.draft, port, start, duration, count, checksum);
  }

  /**
   * Sends AggregateShareReq for [start, start+duration) and opens the Helper's share with {@code
   * infoOf}'s info string {@code "dap-NN aggregate share" || 0x03 || 0x00}; a repeated request
   * gets the same stored bytes.
   */
  static byte[] helperAggregateShare(Task t, SpecDraft infoOf, int port, long start,
      long duration, long count, byte[] checksum) throws Exception {
    byte[] interval = new SpecTls().u64(start).u64(duration).bytes();
    byte[] query = new SpecTls().u8(1).opaque16(interval).bytes();
    byte[] cjr = new SpecTls().raw(query).opaque32(new byte[0]).opaque16(new byte[0]).bytes();
    byte[] body = new SpecTls().raw(cjr).raw(query).u64(count).raw(checksum).bytes();
    HttpResponse<byte[]> r = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
        + "/dap/tasks/" + b64(t.taskId) + "/aggregate_shares"))
        .header("Content-Type", "application/ppm-dap;message=aggregate-share-req")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
    ByteBuffer b = ByteBuffer.wrap(r.body());
    b.get();
    byte[] enc = new byte[b.getShort() & 0xffff];
    b.get(enc);
    byte[] payload = new byte[b.getInt()];
    b.get(payload);
    HPKE hpke = new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256, HPKE.kdf_HKDF_SHA256,
        HPKE.aead_AES_GCM128);
    AsymmetricCipherKeyPair sk = hpke.deserializePrivateKey(t.collector.secretKey(),
        t.collector.publicKey());
    byte[] aad = new SpecTls().raw(t.taskId).raw(t.configuration()).raw(cjr).bytes();
    return hpke.open(enc, sk, infoOf.aggregateShareInfo(3), aad, payload, null, null, null);
  }

  static byte[] checksum(List<Report> reports) throws Exception {
    byte[] c = new byte[32];
    for (Report r : reports) {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(r.id);
      for (int i = 0; i < 32; i++) {
        c[i] ^= h[i];
      }
    }
    return c;
  }

  // ------------------------------------------------------------------ tests

  /** Every VDAF of {@link #vdafs} at each draft. */
  static Stream<Arguments> vdafsAtEachDraft() {
    return vdafs().flatMap(v -> Stream.of(SpecDraft.values())
        .map(d -> Arguments.of(v.get()[0], d)));
  }

  @ParameterizedTest
  @MethodSource("vdafsAtEachDraft")
  void aSpecLeaderOfEachDraftAggregatesAndTheSharesUnshardToTheTrueSum(Vdaf vdaf,
      SpecDraft draft) throws Exception {
    Task t = new Task(draft, vdaf, null);
    try (Datastore store = openStore("sum.db")) {
      Aggregator server = sideBySide(store, t);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        assertEquals(helper, hpkeConfig(port, "/hpke_config"), "root and task path agree");
        long time = now();
        List<Report> reports = new ArrayList<>();
        List<List<BigInteger>> ms = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          List<BigInteger> m = measurement(vdaf.variant());
          ms.add(m);
          reports.add(report(t, helper, time, m));
        }
        HttpResponse<byte[]> r = postInit(t, port, initReq(0, reports));
        assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        assertEquals("application/ppm-dap;message=aggregation-job-resp",
            r.headers().firstValue("Content-Type").orElseThrow());
        String location = r.headers().firstValue("Location").orElseThrow();
        assertTrue(location.startsWith("/dap/tasks/" + b64(t.taskId) + "/aggregation_jobs/"),
            location);
        List<Resp> resps = decodeResp(r.body());
        assertEquals(5, resps.size());
        Prio3 prio3 = new Prio3(vdaf.variant());
        List<FieldVector> leaderOut = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          leaderOut.add(leaderFinish(t, reports.get(i), resps.get(i)));
        }
        // the other draft's info string does not open (hpke_decrypt_error in both drafts), and
        // its VDAF context does not verify (vdaf_verify_error): neither is counted
        SpecDraft other = draft.other();
        List<Resp> crossed = oneJob(t, port, 0, List.of(
            report(t, draft, other, helper, time, measurement(vdaf.variant()), false, false),
            report(t, other, draft, helper, time, measurement(vdaf.variant()), false, false)));
        assertEquals(draft.code("hpke_decrypt_error"), crossed.get(0).error(),
            "sealed with \"" + other.tag() + " input share\"");
        assertEquals(draft.code("vdaf_verify_error"), crossed.get(1).error(),
            "sharded under \"" + other.tag() + "\" || task_id");
        FieldVector leaderAgg = prio3.aggregate(leaderOut);
        byte[] helperShare = helperAggregateShare(t, port, time, 1, 5, checksum(reports));
        FieldVector helperAgg = prio3.decodeAggregateShare(helperShare);
        assertEquals(truth(vdaf.variant(), ms), prio3.unshard(List.of(leaderAgg, helperAgg), 5),
            vdaf.name() + " " + draft.tag() + " seed " + seed);
        assertThrows(InvalidCipherTextException.class, () -> helperAggregateShare(t, other, port,
            time, 1, 5, checksum(reports)), "opened with \"" + other.tag() + " aggregate share\"");
      } finally {
        server.close();
      }
    }
  }

  @Test
  void withDpTheHelpersNoisedShareUnshardsIntoTheIntervalOfItsNoise() throws Exception {
    // the Helper noises its aggregate share (epsilon 1); the test Leader adds none, so the
    // unsharded histogram is the truth plus one discrete Laplace draw per bucket
    Vdaf vdaf = (Vdaf) vdafs().toList().get(3).get()[0];
    DpStrategy strategy = DpStrategy.PureDpDiscreteLaplace.parse("1");
    Task t = new Task(vdaf, null, BatchMode.TIME_INTERVAL, strategy);
    try (Datastore store = openStore("dp.db")) {
      Aggregator server = server(List.of(t.definition), store);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        long time = now();
        List<Report> reports = new ArrayList<>();
        List<List<BigInteger>> ms = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          List<BigInteger> m = measurement(vdaf.variant());
          ms.add(m);
          reports.add(report(t, helper, time, m));
        }
        HttpResponse<byte[]> r = postInit(t, port, initReq(0, reports));
        assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        List<Resp> resps = decodeResp(r.body());
        Prio3 prio3 = new Prio3(vdaf.variant());
        List<FieldVector> leaderOut = new ArrayList<>();
        for (int i = 0; i < reports.size(); i++) {
          leaderOut.add(leaderFinish(t, reports.get(i), resps.get(i)));
        }
        FieldVector helperAgg = prio3.decodeAggregateShare(
            helperAggregateShare(t, port, time, 1, reports.size(), checksum(reports)));
        List<BigInteger> noisy = prio3.unshard(List.of(prio3.aggregate(leaderOut), helperAgg),
            reports.size());
        List<BigInteger> truth = truth(vdaf.variant(), ms);
        // one aggregator's noise; at 1 - 1e-9 per bucket the check fails with probability < 4e-9
        BigInteger h = t.definition.mechanism().noiseHalfWidthBig(1, 1 - 1e-9);
        BigInteger p = prio3.field().modulus();
        for (int i = 0; i < truth.size(); i++) {
          BigInteger d = noisy.get(i).subtract(truth.get(i)).mod(p);
          BigInteger error = d.compareTo(p.shiftRight(1)) > 0 ? d.subtract(p) : d;
          assertTrue(error.abs().compareTo(h) <= 0, "bucket " + i + ": error " + error
              + " beyond " + h + " (seed " + seed + ")");
        }
      } finally {
        server.close();
      }
    }
  }

  /** Runs one job of the given reports on a fresh Histogram task and returns the responses. */
  private List<Resp> oneJob(Task t, int port, int keyId, List<Report> reports) throws Exception {
    HttpResponse<byte[]> r = postInit(t, port, initReq(keyId, reports));
    assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
    return decodeResp(r.body());
  }

  private Task histogram(Interval taskInterval) {
    return new Task((Vdaf) vdafs().toList().get(3).get()[0], taskInterval);
  }

  /** A Histogram task of {@code draft} (with DAP-19's empty task_info). */
  private Task histogram(SpecDraft draft, Interval taskInterval) {
    return new Task(draft, (Vdaf) vdafs().toList().get(3).get()[0], taskInterval);
  }

  /**
   * DAP-18 "Input Share Decryption": an unrecognized config ID or a failed decryption is
   * hpke_decrypt_error; DAP-19 gives the unrecognized ID hpke_unknown_config_id.
   */
  @ParameterizedTest
  @EnumSource(SpecDraft.class)
  void anUnknownConfigIdAndAFailedDecryptionGetTheDraftsErrors(SpecDraft draft) throws Exception {
    Task t = histogram(draft, null);
    try (Datastore store = openStore("hpke.db")) {
      Aggregator server = sideBySide(store, t);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        Advertised unknown = new Advertised((helper.id() + 1) % 256, helper.publicKey());
        byte[] otherKey = new Hpke(HpkeSuite.DAP_MANDATORY).generateKeyPair().publicKey();
        Advertised wrongKey = new Advertised(helper.id(), otherKey);
        Report good = report(t, helper, now(), List.of(BigInteger.ONE));
        Report a = report(t, unknown, now(), List.of(BigInteger.ONE));
        Report b = report(t, wrongKey, now(), List.of(BigInteger.ONE));
        List<Resp> resps = oneJob(t, port, 0, List.of(good, a, b));
        assertEquals(0, resps.get(0).type());
        String unknownId = draft == SpecDraft.DAP_18 ? "hpke_decrypt_error"
            : "hpke_unknown_config_id";
        assertEquals(2, resps.get(1).type());
        assertEquals(draft.code(unknownId), resps.get(1).error(), "unknown config id: "
            + unknownId + " in " + draft.tag());
        assertEquals(2, resps.get(2).type());
        assertEquals(draft.code("hpke_decrypt_error"), resps.get(2).error());
      } finally {
        server.close();
      }
    }
  }

  /**
   * Replays, a time too early, times outside the task_interval (DAP-18 "Input Share Validation":
   * task_not_started before it, task_expired after it; DAP-19: report_dropped for both) and a
   * corrupt proof, each in the draft's code points.
   */
  @ParameterizedTest
  @EnumSource(SpecDraft.class)
  void replayWithinAndAcrossJobsTooEarlyOutsideTaskIntervalAndCorruptProof(SpecDraft draft)
      throws Exception {
    long now = now();
    Task t = histogram(draft, null);
    Task past = histogram(draft, Interval.of(now - 10, 5));
    try (Datastore store = openStore("errors.db")) {
      Aggregator server = sideBySide(store, t, past);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        Report first = report(t, helper, now, List.of(BigInteger.ONE));
        List<Resp> job1 = oneJob(t, port, 0, List.of(first));
        assertEquals(0, job1.get(0).type());
        // the same report in a second job: report_replayed
        Report other = report(t, helper, now, List.of(BigInteger.TWO));
        List<Resp> job2 = oneJob(t, port, 0, List.of(other, first));
        assertEquals(0, job2.get(0).type());
        assertEquals(2, job2.get(1).type());
        assertEquals(draft.code("report_replayed"), job2.get(1).error());
        // too early: two hours ahead (skew 5 minutes)
        Report early = report(t, helper, now + 2, List.of(BigInteger.ONE));
        Report corrupt = report(t, helper, now, List.of(BigInteger.ONE));
        // flip a byte of the Leader's verifier share inside its ping-pong initialize message
        corrupt.verifyInit[corrupt.verifyInit.length - 1] ^= 1;
        List<Resp> job3 = oneJob(t, port, 0, List.of(early, corrupt));
        assertEquals(draft.code("report_too_early"), job3.get(0).error(), draft.tag());
        assertEquals(draft.code("vdaf_verify_error"), job3.get(1).error());
        // the task interval [now - 10, now - 5): before it, inside, at its end
        Report before = report(past, helper, now - 11, List.of(BigInteger.ONE));
        Report inside = report(past, helper, now - 6, List.of(BigInteger.ONE));
        Report after = report(past, helper, now - 5, List.of(BigInteger.ONE));
        List<Resp> job5 = oneJob(past, port, 0, List.of(before, inside, after));
        String beforeError = draft == SpecDraft.DAP_18 ? "task_not_started" : "report_dropped";
        String afterError = draft == SpecDraft.DAP_18 ? "task_expired" : "report_dropped";
        assertEquals(draft.code(beforeError), job5.get(0).error(),
            "before the task_interval: " + beforeError + " in " + draft.tag());
        assertEquals(0, job5.get(1).type());
        assertEquals(draft.code(afterError), job5.get(2).error(),
            "after the task_interval: " + afterError + " in " + draft.tag());
        // two accepted reports in the bucket: the Helper's share has count 2
        byte[] share = helperAggregateShare(t, port, now, 1, 2, checksum(List.of(first, other)));
        assertNotNull(share);
        // batch collected: a new report in the collected bucket
        Report late = report(t, helper, now, List.of(BigInteger.ONE));
        List<Resp> job4 = oneJob(t, port, 0, List.of(late));
        assertEquals(draft.code("batch_collected"), job4.get(0).error());
      } finally {
        server.close();
      }
    }
  }

  @Test
  void retentionCollectsOldReportIdsAndOlderReportsAreDroppedSoNoReplayGetsThrough()
      throws Exception {
    long now = now();
    Task t = histogram(null);
    try (Datastore store = openStore("retention.db")) {
      Aggregator server = server(List.of(t.definition), store);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        Report old = report(t, helper, now - 5, List.of(BigInteger.ONE));
        Report recent = report(t, helper, now, List.of(BigInteger.ONE));
        List<Resp> job1 = oneJob(t, port, 0, List.of(old, recent));
        assertEquals(0, job1.get(0).type());
        assertEquals(0, job1.get(1).type());
        // keep three hours: the cutoff is now - 3 (or now - 2 past an hour boundary)
        org.priodp.aggregator.core.AggregationJobService service =
            new org.priodp.aggregator.core.AggregationJobService(store,
                new org.priodp.aggregator.core.HelperHpkeKeys(store,
                    new java.security.SecureRandom(), java.time.Clock.systemUTC()),
                java.time.Clock.systemUTC(),
                org.priodp.aggregator.core.AggregationJobService.DEFAULT_CLOCK_SKEW);
        var counts = service.collectExpired(t.definition, java.time.Duration.ofHours(3));
        assertEquals(1, counts.reports(), "the old report's ID is collected, the recent one kept");
        assertEquals(0, counts.jobs(), "the job was created just now");
        assertTrue(counts.cutoff() > now - 5 && counts.cutoff() <= now - 2, "" + counts);
        // the collected ID replayed: report_dropped (3), never accepted again; the kept one:
        // report_replayed (2); a fresh report as old: report_dropped; a fresh recent one: accepted
        Report oldFresh = report(t, helper, now - 4, List.of(BigInteger.ONE));
        Report recentFresh = report(t, helper, now, List.of(BigInteger.ONE));
        List<Resp> job2 = oneJob(t, port, 0, List.of(old, recent, oldFresh, recentFresh));
        assertEquals(2, job2.get(0).type());
        assertEquals(3, job2.get(0).error(), "report_dropped: its ID was collected");
        assertEquals(2, job2.get(1).error(), "report_replayed");
        assertEquals(3, job2.get(2).error(), "report_dropped");
        assertEquals(0, job2.get(3).type());
        // at the cutoff itself: still checked against the kept IDs, so accepted
        Report atCutoff = report(t, helper, counts.cutoff(), List.of(BigInteger.ONE));
        assertEquals(0, oneJob(t, port, 0, List.of(atCutoff)).get(0).type());
      } finally {
        server.close();
      }
    }
  }

  @Test
  void replayWithinOneJobIsInvalidMessageForTheWholeJob() throws Exception {
    Task t = histogram(null);
    try (Datastore store = openStore("dup.db")) {
      Aggregator server = server(List.of(t.definition), store);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        Report r = report(t, helper, now(), List.of(BigInteger.ONE));
        HttpResponse<byte[]> resp = postInit(t, port, initReq(0, List.of(r, r)));
        assertEquals(400, resp.statusCode());
        assertTrue(new String(resp.body(), StandardCharsets.UTF_8).contains("invalidMessage"));
        // nothing was committed: the report still aggregates
        assertEquals(0, oneJob(t, port, 0, List.of(r)).get(0).type());
      } finally {
        server.close();
      }
    }
  }

  @Test
  void creationIsIdempotentAndRepeatsReturnIdenticalBytes() throws Exception {
    Task t = histogram(null);
    try (Datastore store = openStore("idem.db")) {
      Aggregator server = server(List.of(t.definition), store);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        List<Report> reports = List.of(report(t, helper, now(), List.of(BigInteger.ONE)),
            report(t, helper, now(), List.of(BigInteger.TWO)));
        byte[] body = initReq(0, reports);
        HttpResponse<byte[]> a = postInit(t, port, body);
        HttpResponse<byte[]> b = postInit(t, port, body);
        assertEquals(200, b.statusCode());
        assertArrayEquals(a.body(), b.body());
        String location = a.headers().firstValue("Location").orElseThrow();
        assertEquals(location, b.headers().firstValue("Location").orElseThrow());
        for (Resp r : decodeResp(b.body())) {
          assertEquals(0, r.type(), "a repeat is not a replay");
        }
        // GET with step=0 returns the stored response; without step it is refused
        HttpResponse<byte[]> get = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + port + location + "?step=0")).GET());
        assertEquals(200, get.statusCode());
        assertArrayEquals(a.body(), get.body());
        assertEquals(400, send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + location)).GET()).statusCode());
        HttpResponse<byte[]> wrongStep = send(HttpRequest.newBuilder(URI.create(
            "http://127.0.0.1:" + port + location + "?step=1")).GET());
        assertTrue(new String(wrongStep.body(), StandardCharsets.UTF_8).contains("stepMismatch"));
        // DELETE abandons the job; its reports stay committed (a later job replays them)
        assertEquals(200, send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + location)).DELETE()).statusCode());
        assertTrue(new String(send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + location + "?step=0")).GET()).body(), StandardCharsets.UTF_8)
            .contains("unrecognizedAggregationJob"));
        Report fresh = report(t, helper, now(), List.of(BigInteger.ONE));
        List<Resp> again = oneJob(t, port, 0, List.of(reports.get(0), fresh));
        assertEquals(2, again.get(0).error(), "report_replayed after abandonment");
        assertEquals(0, again.get(1).type());
      } finally {
        server.close();
      }
    }
  }

  @Test
  void continuationOfAPrio3JobIsRefusedAndStepZeroIsInvalid() throws Exception {
    Task t = histogram(null);
    try (Datastore store = openStore("cont.db")) {
      Aggregator server = server(List.of(t.definition), store);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        Report r = report(t, helper, now(), List.of(BigInteger.ONE));
        HttpResponse<byte[]> init = postInit(t, port, initReq(0, List.of(r)));
        String location = init.headers().firstValue("Location").orElseThrow();
        for (int step : new int[] {0, 1, 7}) {
          byte[] body = new SpecTls().u16(step).raw(r.id).opaque32(new byte[] {2, 0, 0, 0, 0})
              .bytes();
          HttpResponse<byte[]> c = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
              + port + location)).header("Content-Type",
              "application/ppm-dap;message=aggregation-job-continue-req")
              .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
          assertEquals(400, c.statusCode());
          String problem = new String(c.body(), StandardCharsets.UTF_8);
          assertTrue(problem.contains(step == 7 ? "stepMismatch" : "invalidMessage"), problem);
        }
      } finally {
        server.close();
      }
    }
  }

  @Test
  void asynchronousModeAnswersWithStepZeroAndRetryAfterThenTheResponse() throws Exception {
    Task t = histogram(null);
    try (Datastore store = openStore("async.db")) {
      Aggregator server = Aggregator.start(AggregatorConfig.builder(List.of(t.definition), store)
          .asyncAggregation(true).build());
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        Report r = report(t, helper, now(), List.of(BigInteger.ONE));
        HttpResponse<byte[]> init = postInit(t, port, initReq(0, List.of(r)));
        assertEquals(200, init.statusCode());
        String location = init.headers().firstValue("Location").orElseThrow();
        assertTrue(location.endsWith("?step=0"), location);
        assertEquals(0, init.body().length);
        assertTrue(init.headers().firstValue("Retry-After").isPresent());
        HttpResponse<byte[]> got = null;
        for (int i = 0; i < 200; i++) {
          got = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + location))
              .GET());
          if (got.body().length > 0) {
            break;
          }
          Thread.sleep(50);
        }
        assertEquals(200, got.statusCode());
        leaderFinish(t, r, decodeResp(got.body()).get(0));
      } finally {
        server.close();
      }
    }
  }

  /**
   * A verification_key_id that names none of the task's keys (an unknown id, or a task without
   * keys): DAP-19 "Helper Initialization" rejects each report with unknown_verification_key_id
   * and commits nothing; DAP-18 has no such report error, and the Helper refuses the whole job
   * with an invalidMessage problem document.
   */
  @ParameterizedTest
  @EnumSource(SpecDraft.class)
  void anUnknownVerificationKeyIdIsPerReportInDap19AndFailsTheJobInDap18(SpecDraft draft)
      throws Exception {
    Task t = histogram(draft, null);
    Task noKey = histogram(draft, null);
    TaskDefinition withoutKeys = noKey.definition.withVdafVerifyKeys(java.util.Map.of());
    Task other = histogram(draft.other(), null);
    List<TaskDefinition> tasks = new ArrayList<>(List.of(t.definition, withoutKeys,
        other.definition));
    tasks.sort(java.util.Comparator.comparing(TaskDefinition::dapVersion)); // DAP-18 first
    try (Datastore store = openStore("nokey.db")) {
      Aggregator server = server(tasks, store);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        Report r = report(t, helper, now(), List.of(BigInteger.ONE));
        assertUnknownVerificationKeyId(draft, t, port, 1, r);
        assertUnknownVerificationKeyId(draft, noKey, port, 0,
            report(noKey, helper, now(), List.of(BigInteger.ONE)));
        // nothing was committed: the report still aggregates under key 0
        assertEquals(0, oneJob(t, port, 0, List.of(r)).get(0).type());
      } finally {
        server.close();
      }
    }
  }

  @Test
  void theSameReportInTwoConcurrentJobsOnTwoStoresIsCountedOnce() throws Exception {
    Task t = histogram(null);
    String name = "two.db";
    try (Datastore a = openStore(name); Datastore b = openStore(name)) {
      HelperHpkeKeys keysA = new HelperHpkeKeys(a, new java.security.SecureRandom(),
          Clock.systemUTC());
      keysA.ensureActive();
      Aggregator sa = server(List.of(t.definition), a);
      Aggregator sb = server(List.of(t.definition), b);
      int pa = sa.port();
      int pb = sb.port();
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        Advertised helper = hpkeConfig(pa, "/dap/hpke_config");
        assertEquals(helper, hpkeConfig(pb, "/dap/hpke_config"), "one key in the database");
        int rounds = 4;
        int accepted = 0;
        List<Report> all = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
          Report shared = report(t, helper, now(), List.of(BigInteger.ONE));
          Report onlyA = report(t, helper, now(), List.of(BigInteger.ZERO));
          Report onlyB = report(t, helper, now(), List.of(BigInteger.TWO));
          CountDownLatch go = new CountDownLatch(1);
          Future<List<Resp>> fa = pool.submit(() -> {
            go.await();
            return oneJob(t, pa, 0, List.of(shared, onlyA));
          });
          Future<List<Resp>> fb = pool.submit(() -> {
            go.await();
            return oneJob(t, pb, 0, List.of(onlyB, shared));
          });
          go.countDown();
          List<Resp> ra = fa.get();
          List<Resp> rb = fb.get();
          int sharedOk = (ra.get(0).type() == 0 ? 1 : 0) + (rb.get(1).type() == 0 ? 1 : 0);
          assertEquals(1, sharedOk, "the shared report is accepted by exactly one job");
          assertEquals(0, ra.get(1).type());
          assertEquals(0, rb.get(0).type());
          all.addAll(List.of(shared, onlyA, onlyB));
          accepted += 3;
        }
        byte[] share = helperAggregateShare(t, pa, now(), 1, accepted, checksum(all));
        FieldVector agg = new Prio3(t.vdaf.variant()).decodeAggregateShare(share);
        assertEquals(t.vdaf.variant().outputLength(), agg.length());
      } finally {
        pool.shutdownNow();
        sa.close();
        sb.close();
      }
    }
  }

  @Test
  void leaderSelectedJobsNeedTheBatchIdExtensionAndFillThatBucket() throws Exception {
    Task t = new Task((Vdaf) vdafs().toList().get(3).get()[0], null, BatchMode.LEADER_SELECTED);
    try (Datastore store = openStore("ls.db")) {
      Aggregator server = server(List.of(t.definition), store);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        List<Report> reports = List.of(report(t, helper, now(), List.of(BigInteger.ONE)),
            report(t, helper, now(), List.of(BigInteger.TWO)));
        HttpResponse<byte[]> missing = postInit(t, port, initReq(0, reports));
        assertEquals(400, missing.statusCode());
        assertTrue(new String(missing.body(), StandardCharsets.UTF_8).contains("invalidMessage"));
        byte[] batchId = new byte[32];
        random.nextBytes(batchId);
        // AggregationJobExtension { uint16 type = leader_selected_batch_id(1); opaque data<..> }
        byte[] extensions = new SpecTls().u16(1).opaque16(batchId).bytes();
        SpecTls body = new SpecTls().u8(0).opaque32(new byte[0]).opaque16(extensions);
        for (Report r : reports) {
          body.raw(r.verifyInit);
        }
        HttpResponse<byte[]> ok = postInit(t, port, body.bytes());
        assertEquals(200, ok.statusCode(), new String(ok.body(), StandardCharsets.UTF_8));
        for (Resp r : decodeResp(ok.body())) {
          assertEquals(0, r.type());
        }
        var bucket = store.inTaskTransaction(new TaskId(t.taskId), tx -> tx.batchBuckets().get(
            org.priodp.aggregator.core.BatchBuckets.leaderSelectedBucket(
                new org.priodp.aggregator.dap.BatchId(batchId)))).orElseThrow();
        assertEquals(2, bucket.reportCount());
        assertArrayEquals(checksum(reports), bucket.checksum().toByteArray());
      } finally {
        server.close();
      }
    }
  }

  @Test
  void aRetiredKeyIsNotAdvertisedButStillDecrypts() throws Exception {
    Task t = histogram(null);
    try (Datastore store = openStore("retire.db")) {
      Aggregator server = server(List.of(t.definition), store);
      int port = server.port();
      try {
        Advertised old = hpkeConfig(port, "/dap/hpke_config");
        HelperHpkeKeys keys = server.hpkeKeys();
        keys.add();
        assertTrue(keys.retire(old.id()));
        Advertised fresh = hpkeConfig(port, "/dap/hpke_config");
        assertTrue(fresh.id() != old.id(), "the retired key is not advertised");
        List<Resp> resps = oneJob(t, port, 0, List.of(
            report(t, old, now(), List.of(BigInteger.ONE)),
            report(t, fresh, now(), List.of(BigInteger.ONE))));
        assertEquals(0, resps.get(0).type(), "sealed to the retired key");
        assertEquals(0, resps.get(1).type());
      } finally {
        server.close();
      }
    }
  }

  @Test
  void aJobLargerThanTheAggregateShareLimitIsAccepted() throws Exception {
    Task t = new Task((Vdaf) vdafs().toList().get(0).get()[0], null);
    try (Datastore store = openStore("big.db")) {
      Aggregator server = server(List.of(t.definition), store);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        List<Report> reports = new ArrayList<>();
        while (initReq(0, reports).length <= DapRouter.DEFAULT_MAX_BODY) {
          reports.add(report(t, helper, now(), List.of(BigInteger.ONE)));
        }
        List<Resp> resps = oneJob(t, port, 0, reports);
        assertEquals(reports.size(), resps.size());
        assertEquals(0, resps.get(resps.size() - 1).type());
      } finally {
        server.close();
      }
    }
  }

  /** Posts a job of one report under {@code keyId}, which names no key of the task. */
  private static void assertUnknownVerificationKeyId(SpecDraft draft, Task t, int port, int keyId,
      Report r) throws Exception {
    HttpResponse<byte[]> resp = postInit(t, port, initReq(keyId, List.of(r)));
    if (draft.has("unknown_verification_key_id")) {
      assertEquals(200, resp.statusCode());
      Resp reject = decodeResp(resp.body()).get(0);
      assertEquals(2, reject.type(), "reject");
      assertEquals(draft.code("unknown_verification_key_id"), reject.error());
    } else {
      assertEquals(400, resp.statusCode());
      assertTrue(resp.headers().firstValue("Content-Type").orElseThrow()
          .startsWith("application/problem+json"));
      String body = new String(resp.body(), StandardCharsets.UTF_8);
      assertTrue(body.contains("urn:ietf:params:ppm:dap:error:invalidMessage")
          && body.contains("verification_key_id"), body);
    }
  }

  /**
   * A public share that does not decode, or a private extension no registry holds: invalid_message
   * in both drafts' "Input Share Validation" (8 in DAP-18, 7 in DAP-19).
   */
  @ParameterizedTest
  @EnumSource(SpecDraft.class)
  void aMalformedPublicShareOrAnUnknownExtensionIsInvalidMessage(SpecDraft draft)
      throws Exception {
    Task t = histogram(draft, null);
    try (Datastore store = openStore("invalid.db")) {
      Aggregator server = sideBySide(store, t);
      int port = server.port();
      try {
        Advertised helper = hpkeConfig(port, "/dap/hpke_config");
        List<Resp> resps = oneJob(t, port, 0, List.of(
            report(t, helper, now(), List.of(BigInteger.ONE), true, false),
            report(t, helper, now(), List.of(BigInteger.ONE), false, true),
            report(t, helper, now(), List.of(BigInteger.ONE), false, false)));
        assertEquals(draft.code("invalid_message"), resps.get(0).error(), "public share");
        assertEquals(draft.code("invalid_message"), resps.get(1).error(),
            "unrecognized extension");
        assertEquals(0, resps.get(2).type());
      } finally {
        server.close();
      }
    }
  }

  @Test
  void jobIdIsDerivedFromTaskAndRequest() {
    TaskId a = new TaskId(new byte[32]);
    byte[] other = new byte[32];
    other[0] = 1;
    var d1 = AggregationJobService.digest(new byte[] {1});
    var d2 = AggregationJobService.digest(new byte[] {2});
    assertEquals(AggregationJobService.jobId(a, d1), AggregationJobService.jobId(a, d1));
    assertTrue(!AggregationJobService.jobId(a, d1).equals(AggregationJobService.jobId(a, d2)));
    assertTrue(!AggregationJobService.jobId(a, d1).equals(
        AggregationJobService.jobId(new TaskId(other), d1)));
    assertNotNull(NoisedShareService.class);
  }
}
