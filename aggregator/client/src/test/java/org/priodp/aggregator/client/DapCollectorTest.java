package org.priodp.aggregator.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.hpke.HPKE;
import org.bouncycastle.crypto.hpke.HPKEContextWithEncapsulation;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.hpke.HpkeKemId;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.testing.FakeHttp.Response;
import org.priodp.aggregator.testing.FakeHttp;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The Collector against a Leader written in this test from DAP-19's structs ("Collection Job
 * Initialization", "Asynchronous Request Handling"): the Leader checks the CollectionJobReq bytes
 * and the bearer token, defers twice with Retry-After, then answers a CollectionJobResp whose two
 * aggregate shares the test sealed itself with Bouncy Castle's HPKE, info "dap-19 aggregate
 * share" || server_role || 0x00, and an AggregateShareAad it encodes from the spec ("Aggregate
 * Share Encryption"). The Collector recovers the aggregate.
 */
class DapCollectorTest {
  private static final String TOKEN = "collector-token_42";
  private static final byte[] TASK_ID = new byte[32];
  private static final Prio3Variant VARIANT = Prio3Variant.SumVec.of(3, BigInteger.valueOf(7), 2);
  private static final HPKE BC = new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256,
      HPKE.kdf_HKDF_SHA256, HPKE.aead_AES_GCM128);

  static {
    for (int i = 0; i < 32; i++) {
      TASK_ID[i] = (byte) (255 - 3 * i);
    }
  }

  private final AsymmetricCipherKeyPair collectorKey = BC.generatePrivateKey();

  private HpkeKeyPair projectKey() {
    return new HpkeKeyPair(HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        BC.serializePrivateKey(collectorKey.getPrivate()),
        BC.serializePublicKey(collectorKey.getPublic()));
  }

  private HpkeConfig collectorConfig() {
    return new HpkeConfig(new HpkeConfigId(9), HpkeSuite.DAP_MANDATORY.kem(),
        HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(),
        BC.serializePublicKey(collectorKey.getPublic()));
  }

  private static TaskParameters task(String leaderUrl, DpStrategy strategy) {
    return task(leaderUrl, strategy, BatchMode.TIME_INTERVAL);
  }

  private static TaskParameters task(String leaderUrl, DpStrategy strategy, BatchMode mode) {
    return new TaskParameters(new TaskId(TASK_ID), DapVersion.DAP_19,
        TaskDefinition.configurationFor(VARIANT,
        "collector test".getBytes(StandardCharsets.US_ASCII), leaderUrl,
        "https://helper.example/", 60, 5, mode, List.of()),
        VARIANT, strategy, SensitivityRule.PRIODP);
  }

  /** TaskConfiguration as the spec encodes it (Prio3SumVec {length; max_measurement; chunk}). */
  private static byte[] specTaskConfiguration(String leaderUrl) {
    return specTaskConfiguration(leaderUrl, 1);
  }

  /** The same with batch_mode 1 (time_interval) or 2 (leader_selected). */
  private static byte[] specTaskConfiguration(String leaderUrl, int batchMode) {
    return new SpecTls().u8(14).raw("collector test".getBytes(StandardCharsets.US_ASCII))
        .opaque16(leaderUrl.getBytes(StandardCharsets.US_ASCII))
        .opaque16("https://helper.example/".getBytes(StandardCharsets.US_ASCII))
        .u64(60).u64(5).u8(batchMode).opaque16(new byte[0])
        .u32(3).opaque16(new SpecTls().u32(3).u64(7).u32(2).bytes())
        .opaque16(new byte[0]).bytes();
  }

  /** CollectionJobReq { Query { batch_mode; config<0..2^16-1> }; agg_param<0..2^32-1>; ext<0..2^16-1> }. */
  private static byte[] specCollectionJobReq(long start, long duration) {
    byte[] interval = new SpecTls().u64(start).u64(duration).bytes();
    return new SpecTls().u8(1).opaque16(interval).opaque32(new byte[0]).opaque16(new byte[0])
        .bytes();
  }

  /** HpkeCiphertext { config_id; enc<1..2^16-1>; payload<1..2^32-1> } of a sealed share. */
  private byte[] seal(int serverRole, byte[] aad, byte[] share) throws Exception {
    byte[] info = new SpecTls().raw("dap-19 aggregate share".getBytes(StandardCharsets.US_ASCII))
        .u8(serverRole).u8(0).bytes();
    HPKEContextWithEncapsulation ctx = BC.setupBaseS(collectorKey.getPublic(), info);
    byte[] payload = ctx.seal(aad, share);
    return new SpecTls().u8(9).opaque16(ctx.getEncapsulation()).opaque32(payload).bytes();
  }

  /** The two aggregators' aggregate shares of the measurements (Prio3 shard, verify, aggregate). */
  private static byte[][] aggregateShares(List<List<BigInteger>> measurements) {
    Prio3 prio3 = new Prio3(VARIANT);
    SecureRandom random = new SecureRandom();
    byte[] ctx = "any context".getBytes(StandardCharsets.US_ASCII);
    byte[] key = new byte[Prio3.VERIFY_KEY_SIZE];
    List<FieldVector> l = new ArrayList<>();
    List<FieldVector> h = new ArrayList<>();
    for (List<BigInteger> m : measurements) {
      byte[] nonce = new byte[Prio3.NONCE_SIZE];
      random.nextBytes(nonce);
      Prio3.ShardResult s = prio3.shard(ctx, m, nonce, random);
      Prio3.VerifyInitResult lv = prio3.verifyInit(key, ctx, 0, nonce, s.publicShare(),
          s.inputShares().get(0));
      Prio3.VerifyInitResult hv = prio3.verifyInit(key, ctx, 1, nonce, s.publicShare(),
          s.inputShares().get(1));
      Prio3.VerifierMessage msg = prio3.verifierSharesToMessage(ctx,
          List.of(lv.verifierShare(), hv.verifierShare()));
      l.add(prio3.verifyNext(lv.state(), msg));
      h.add(prio3.verifyNext(hv.state(), msg));
    }
    return new byte[][] {prio3.aggregate(l).encode(), prio3.aggregate(h).encode()};
  }

  private static final List<List<BigInteger>> MEASUREMENTS = List.of(
      vec(1, 2, 3), vec(7, 0, 0), vec(0, 5, 6), vec(2, 2, 2), vec(0, 0, 7), vec(1, 1, 1));

  private static List<BigInteger> vec(long... v) {
    List<BigInteger> out = new ArrayList<>();
    for (long x : v) {
      out.add(BigInteger.valueOf(x));
    }
    return out;
  }

  /** A Leader that defers twice (Retry-After 2, then 3) and then answers the response. */
  private Function<FakeHttp.Request, Response> deferringLeader(String[] leaderUrl,
      AtomicInteger gets) {
    String jobPath = "/tasks/" + new TaskId(TASK_ID).toBase64Url() + "/collection_jobs/lc7aUeGp";
    return req -> {
      assertEquals("Bearer " + TOKEN, req.header("Authorization"));
      if (req.method().equals("POST")) {
        assertEquals("/tasks/" + new TaskId(TASK_ID).toBase64Url() + "/collection_jobs",
            req.path());
        assertEquals("application/ppm-dap;message=collection-job-req", req.header("Content-Type"));
        assertArrayEquals(specCollectionJobReq(400_000, 24), req.body());
        return new Response(201, Map.of("Location", jobPath, "Retry-After", "2"), new byte[0]);
      }
      assertEquals(jobPath, req.path());
      if (gets.incrementAndGet() == 1) {
        return new Response(200, Map.of("Retry-After", "3"), new byte[0]);
      }
      return new Response(200, Map.of("Content-Type",
          "application/ppm-dap;message=collection-job-resp"), specResponse(leaderUrl[0]));
    };
  }

  /** The CollectionJobResp of the time-interval request, written from the spec's structs. */
  private byte[] specResponse(String leaderUrl) {
    try {
      byte[][] shares = aggregateShares(MEASUREMENTS);
      byte[] aad = new SpecTls().raw(TASK_ID).raw(specTaskConfiguration(leaderUrl))
          .raw(specCollectionJobReq(400_000, 24)).bytes();
      return new SpecTls().u64(MEASUREMENTS.size()).u64(400_003).u64(5)
          .raw(seal(2, aad, shares[0])).raw(seal(3, aad, shares[1])).bytes();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private DapCollector collector(String leaderUrl, DpStrategy strategy, List<Duration> slept,
      Duration timeout) {
    return new DapCollector(task(leaderUrl, strategy), AuthToken.of(TOKEN), collectorConfig(),
        projectKey(), HttpClient.newHttpClient(), slept::add, timeout, 0.95);
  }

  @Test
  void pollsWithRetryAfterAndRecoversTheAggregateFromSharesSealedByTheSpec() throws Exception {
    String[] url = new String[1];
    AtomicInteger gets = new AtomicInteger();
    try (FakeHttp leader = new FakeHttp(req -> deferringLeader(url, gets).apply(req))) {
      url[0] = leader.url() + "/";
      List<Duration> slept = new ArrayList<>();
      List<String> progress = new ArrayList<>();
      CollectionResult r = collector(url[0], new DpStrategy.NoDifferentialPrivacy(), slept,
          Duration.ofMinutes(1)).collect(new Query.TimeInterval(Interval.of(400_000, 24)),
              (poll, wait, waited) -> progress.add(poll + ":" + wait.toSeconds() + ":"
                  + waited.toSeconds()));
      assertEquals(List.of(Duration.ofSeconds(2), Duration.ofSeconds(3)), slept);
      assertEquals(List.of("0:2:0", "1:3:2"), progress);
      assertEquals(6, r.reportCount());
      assertEquals(Interval.of(400_003, 5), r.interval());
      assertEquals(vec(11, 10, 19), r.result().estimates(), "the exact sum without DP");
      assertEquals(BigInteger.ZERO, r.result().halfWidth());
      assertEquals(3, leader.requests.size());
      assertFalse(r.releasedBefore(), "the job was created by this collection");
      assertTrue(r.ledger().isEmpty(), "no Priodp-Privacy-Ledger header");
    }
  }

  /**
   * Issue 25: a Leader that answers the creating POST with the finished job had released the batch
   * before (a repeat); its Priodp-Privacy-Ledger header is read, and one that does not parse is
   * ignored (the DAP answer stands without it).
   */
  @Test
  void aRepeatIsToldAndTheLeadersLedgerHeaderIsRead() throws Exception {
    String[] url = new String[1];
    String[] header = {"measure=epsilon, cost=\"1/30\", spent=\"1/10\", remaining=\"9/10\","
        + " released=1767225600"};
    try (FakeHttp leader = new FakeHttp(req -> new Response(200, Map.of("Content-Type",
        "application/ppm-dap;message=collection-job-resp", "Priodp-Privacy-Ledger", header[0]),
        specResponse(url[0])))) {
      url[0] = leader.url() + "/";
      DapCollector c = collector(url[0], new DpStrategy.NoDifferentialPrivacy(),
          new ArrayList<>(), Duration.ofMinutes(1));
      CollectionResult r = c.collect(new Query.TimeInterval(Interval.of(400_000, 24)),
          (p, w, t) -> { });
      assertTrue(r.releasedBefore());
      assertEquals(org.priodp.aggregator.task.LedgerHeader.parse(header[0]), r.ledger()
          .orElseThrow());
      header[0] = "measure=epsilon, cost=1/30";
      r = c.collect(new Query.TimeInterval(Interval.of(400_000, 24)), (p, w, t) -> { });
      assertTrue(r.ledger().isEmpty(), "an unreadable header is ignored");
      assertEquals(vec(11, 10, 19), r.result().estimates());
    }
  }

  @Test
  void aLeaderSelectedCollectionDeletesItsJobSoTheNextCollectGetsTheNextBatch() throws Exception {
    String[] url = new String[1];
    String jobPath = "/tasks/" + new TaskId(TASK_ID).toBase64Url() + "/collection_jobs/lsJob";
    // CollectionJobReq { Query { leader_selected (2), config<0..2^16-1> = empty }; agg_param
    // <0..2^32-1> = empty; extensions<0..2^16-1> = empty }
    byte[] cjr = new SpecTls().u8(2).opaque16(new byte[0]).opaque32(new byte[0])
        .opaque16(new byte[0]).bytes();
    List<String> seen = new ArrayList<>();
    try (FakeHttp leader = new FakeHttp(req -> {
      assertEquals("Bearer " + TOKEN, req.header("Authorization"));
      seen.add(req.method() + " " + req.path());
      if (req.method().equals("DELETE")) {
        return new Response(204, Map.of(), new byte[0]);
      }
      assertArrayEquals(cjr, req.body());
      try {
        byte[][] shares = aggregateShares(MEASUREMENTS);
        byte[] aad = new SpecTls().raw(TASK_ID).raw(specTaskConfiguration(url[0], 2)).raw(cjr)
            .bytes();
        byte[] resp = new SpecTls().u64(MEASUREMENTS.size()).u64(400_003).u64(5)
            .raw(seal(2, aad, shares[0])).raw(seal(3, aad, shares[1])).bytes();
        return new Response(201, Map.of("Location", jobPath, "Content-Type",
            "application/ppm-dap;message=collection-job-resp"), resp);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    })) {
      url[0] = leader.url() + "/";
      DapCollector c = new DapCollector(task(url[0], new DpStrategy.NoDifferentialPrivacy(),
          BatchMode.LEADER_SELECTED), AuthToken.of(TOKEN), collectorConfig(), projectKey(),
          HttpClient.newHttpClient(), d -> { }, Duration.ofMinutes(1), 0.95);
      CollectionResult r = c.collect(new Query.LeaderSelected(), (p, w, t) -> { });
      assertEquals(vec(11, 10, 19), r.result().estimates());
      String collection = "/tasks/" + new TaskId(TASK_ID).toBase64Url() + "/collection_jobs";
      assertEquals(List.of("POST " + collection, "DELETE " + jobPath), seen);
      assertTrue(r.releasedBefore(), "answered at once: released before this collection");
    }
  }

  @Test
  void withDpTheEstimatesCarryIntervals() throws Exception {
    String[] url = new String[1];
    try (FakeHttp leader = new FakeHttp(req -> deferringLeader(url, new AtomicInteger(1))
        .apply(req))) {
      url[0] = leader.url() + "/";
      CollectionResult r = collector(url[0], DpStrategy.PureDpDiscreteLaplace.parse("1"),
          new ArrayList<>(), Duration.ofMinutes(1))
          .collect(new Query.TimeInterval(Interval.of(400_000, 24)), (p, w, t) -> { });
      // the shares here carry no noise: the estimates are the truth, with a noise interval
      assertEquals(vec(11, 10, 19), r.result().estimates());
      assertTrue(r.result().halfWidth().signum() > 0);
      assertEquals(2, r.result().noisedShares());
    }
  }

  @Test
  void aCollectorWithAnotherTaskConfigurationCannotOpen() throws Exception {
    String[] url = new String[1];
    try (FakeHttp leader = new FakeHttp(req -> deferringLeader(url, new AtomicInteger(1))
        .apply(req))) {
      url[0] = leader.url() + "/";
      DapCollector c = new DapCollector(new TaskParameters(new TaskId(TASK_ID), DapVersion.DAP_19,
          TaskDefinition.configurationFor(VARIANT,
              "collector test".getBytes(StandardCharsets.US_ASCII), url[0],
              "https://helper.example/", 60, 6, BatchMode.TIME_INTERVAL, List.of()),
          VARIANT, new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP),
          AuthToken.of(TOKEN), collectorConfig(), projectKey(), HttpClient.newHttpClient(),
          d -> { }, Duration.ofMinutes(1), 0.95);
      IOException e = assertThrows(IOException.class,
          () -> c.collect(new Query.TimeInterval(Interval.of(400_000, 24)), (p, w, t) -> { }));
      assertTrue(e.getMessage().contains("Leader's aggregate share does not open"),
          e.getMessage());
    }
  }

  @Test
  void aFailedJobIsAnExceptionNamingTheDapErrorType() throws Exception {
    try (FakeHttp leader = new FakeHttp(req -> req.method().equals("POST")
        ? new Response(200, Map.of("Location", "/tasks/x/collection_jobs/y", "Retry-After", "1"),
            new byte[0])
        : new Response(400, Map.of("Content-Type", "application/problem+json"),
            ("{\"type\": \"urn:ietf:params:ppm:dap:error:invalidBatchSize\", \"detail\": \"the"
                + " batch holds fewer reports than the task's minimum batch size 5\"}")
                .getBytes(StandardCharsets.UTF_8)))) {
      DapProblemException e = assertThrows(DapProblemException.class,
          () -> collector(leader.url(), new DpStrategy.NoDifferentialPrivacy(), new ArrayList<>(),
              Duration.ofMinutes(1)).collect(new Query.TimeInterval(Interval.of(400_000, 24)),
                  (p, w, t) -> { }));
      assertEquals(DapError.INVALID_BATCH_SIZE, e.error().orElseThrow());
      assertEquals("the collection job failed: invalidBatchSize (HTTP 400): the batch holds fewer"
          + " reports than the task's minimum batch size 5", e.getMessage());
    }
  }

  @Test
  void theTokenIsNeverSentToAnotherOriginAndTheWaitIsBounded() throws Exception {
    try (FakeHttp elsewhere = new FakeHttp(req -> Response.of(200, new byte[0]));
        FakeHttp leader = new FakeHttp(req -> new Response(200,
            Map.of("Location", elsewhere.url() + "/tasks/x/collection_jobs/y"), new byte[0]))) {
      IOException e = assertThrows(IOException.class,
          () -> collector(leader.url(), new DpStrategy.NoDifferentialPrivacy(), new ArrayList<>(),
              Duration.ofMinutes(1)).collect(new Query.TimeInterval(Interval.of(1, 1)),
                  (p, w, t) -> { }));
      assertTrue(e.getMessage().contains("not on the Leader's origin"), e.getMessage());
      assertEquals(1, leader.requests.size());
      assertEquals(List.of(), elsewhere.requests, "the token went to another origin (port)");
    }
    try (FakeHttp leader = new FakeHttp(req -> new Response(200,
        Map.of("Location", "/tasks/x/collection_jobs/y", "Retry-After", "30"), new byte[0]))) {
      List<Duration> slept = new ArrayList<>();
      IOException e = assertThrows(IOException.class,
          () -> collector(leader.url(), new DpStrategy.NoDifferentialPrivacy(), slept,
              Duration.ofSeconds(100)).collect(new Query.TimeInterval(Interval.of(1, 1)),
                  (p, w, t) -> { }));
      assertEquals(3, slept.size(), "30 + 30 + 30 s, then the next 30 s would pass 100 s");
      assertTrue(e.getMessage().contains("was not ready after 90 s"), e.getMessage());
    }
  }

  /**
   * Transient failures are retried with backoff until the timeout (issue 24): the Leader answers
   * the POST with 503 twice, then the first GET with 502, then the deferring Leader; the
   * progress hears of each outage once and of its end; waits are 1, 2 (backoff), 2
   * (Retry-After), 1 (backoff), 3 (Retry-After) seconds. A Leader that keeps failing is given up
   * at the timeout with its last answer.
   */
  @Test
  void transientFailuresAreRetriedWithBackoffUntilTheTimeout() throws Exception {
    String[] url = new String[1];
    AtomicInteger gets = new AtomicInteger();
    AtomicInteger calls = new AtomicInteger();
    Function<FakeHttp.Request, Response> good = deferringLeader(url, gets);
    try (FakeHttp leader = new FakeHttp(req -> {
      int n = calls.incrementAndGet();
      if (n <= 2) {
        return new Response(503, Map.of(), new byte[0]);
      }
      if (n == 4) {
        return new Response(502, Map.of(), new byte[0]);
      }
      return good.apply(req);
    })) {
      url[0] = leader.url() + "/";
      List<Duration> slept = new ArrayList<>();
      List<String> events = new ArrayList<>();
      CollectionResult r = collector(url[0], new DpStrategy.NoDifferentialPrivacy(), slept,
          Duration.ofMinutes(1)).retryingTransientFailures().collect(new Query.TimeInterval(Interval.of(400_000, 24)),
              new DapCollector.Progress() {
                @Override
                public void notReady(int poll, Duration wait, Duration waited) {
                  events.add("wait " + wait.toSeconds());
                }

                @Override
                public void unavailable(String problem, Duration wait, Duration waited) {
                  events.add("down " + problem.replaceAll(" to .*", ""));
                }

                @Override
                public void available(Duration outage) {
                  events.add("up after " + outage.toSeconds());
                }
              });
      assertEquals(6, r.reportCount());
      assertEquals(List.of(1L, 2L, 2L, 1L, 3L), slept.stream().map(Duration::toSeconds).toList());
      assertEquals(List.of("down the Leader answered HTTP 503", "up after 3", "wait 2",
          "down the Leader answered HTTP 502", "up after 1", "wait 3"), events);
    }
    try (FakeHttp down = new FakeHttp(req -> new Response(500, Map.of(), new byte[0]))) {
      List<Duration> slept = new ArrayList<>();
      DapProblemException e = assertThrows(DapProblemException.class,
          () -> collector(down.url(), new DpStrategy.NoDifferentialPrivacy(), slept,
              Duration.ofSeconds(20)).retryingTransientFailures()
              .collect(new Query.TimeInterval(Interval.of(1, 1)), (p, w, t) -> { }));
      assertEquals(List.of(1L, 2L, 4L, 8L), slept.stream().map(Duration::toSeconds).toList(),
          "the next 16 s would pass 20 s");
      assertEquals(500, e.status());
      assertTrue(e.getMessage().contains("retried for 15 s until --timeout 20 s"),
          e.getMessage());
    }
    // nothing listens: connection refused, retried, then the last failure names the URL
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    List<Duration> slept = new ArrayList<>();
    IOException e = assertThrows(IOException.class, () -> collector("http://127.0.0.1:" + port
        + "/", new DpStrategy.NoDifferentialPrivacy(), slept, Duration.ofSeconds(3))
        .retryingTransientFailures()
        .collect(new Query.TimeInterval(Interval.of(1, 1)), (p, w, t) -> { }));
    assertEquals(List.of(1L, 2L), slept.stream().map(Duration::toSeconds).toList());
    assertTrue(e.getMessage().startsWith("cannot connect to http://127.0.0.1:" + port + "/")
        && e.getMessage().contains("connection refused; is the Leader running? (retried for"),
        e.getMessage());
  }

  @Test
  void aQueryOfAnotherBatchModeIsRefusedBeforeAnyRequest() {
    DapCollector c = collector("http://127.0.0.1:9/", new DpStrategy.NoDifferentialPrivacy(),
        new ArrayList<>(), Duration.ZERO);
    assertThrows(IllegalArgumentException.class,
        () -> c.collect(new Query.LeaderSelected(), (p, w, t) -> { }));
  }
}
