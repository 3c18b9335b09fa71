package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpClient;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.client.DapProblemException;
import org.priodp.aggregator.core.CollectionJobService;
import org.priodp.aggregator.core.HelperPeer;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.testing.CollectionFixture;
import org.priodp.aggregator.testing.FakeHttp;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.InProcessHelperPeer;
import org.priodp.aggregator.testing.MutableClock;
import org.priodp.aggregator.testing.SpecCollector;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * The Leader's collection_jobs resources as a Collector written from DAP-18's structs ({@link
 * SpecCollector}) uses them, through the Leader's request handler (routing, the Collector's
 * token, media types, problem documents), with a Helper in process on a store of its own and
 * jobs stepped by {@link CollectionJobDriver#runOnce}. The Leader's store is PostgreSQL when
 * PRIODP_PG_URL is set, else SQLite. Seeds are printed.
 */
class CollectionJobsRouteTest {
  private static final String REQ = DapMediaType.COLLECTION_JOB_REQ.contentType();
  private static final String COLLECTOR = "Bearer " + CollectionFixture.COLLECTOR_TOKEN;
  private static final Duration RETRY = Duration.ofSeconds(5);

  @TempDir
  Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  /** A Leader and a Helper, each with its own store, and the Leader's handler. */
  final class Pair {
    final CollectionFixture lf;
    final Datastore leaderStore;
    final Datastore helperStore;
    final NoisedShareService leaderShares;
    final NoisedShareService helperShares;
    final List<Runnable> helperQueue = new ArrayList<>();
    final InProcessHelperPeer peer;
    final MutableClock clock = new MutableClock(Instant.ofEpochSecond(5000));
    final CollectionJobDriver driver;
    final DapRouter leader;
    /** The Leader's handler whose finished jobs carry the Priodp-Privacy-Ledger header. */
    final DapRouter leaderWithLedger;

    /** A time-interval task whose both stores hold buckets 0..3. */
    Pair(DpStrategy strategy, boolean asyncHelper, long seed) {
      this(new CollectionFixture(fixture(strategy)), asyncHelper, seed);
      lf.writeLeaderBuckets(leaderStore, 4);
      lf.f.writeBuckets(helperStore, 4);
    }

    /** The task of {@code lf}, with empty stores. */
    Pair(CollectionFixture lf, boolean asyncHelper, long seed) {
      this.lf = lf;
      Fixture f = lf.f;
      String pg = System.getenv("PRIODP_PG_URL");
      leaderStore = pg != null && !pg.isBlank() ? JdbcDatastore.open(pg)
          : JdbcDatastore.openSqlite(dir.resolve("leader.db"));
      helperStore = JdbcDatastore.openSqlite(dir.resolve("helper.db"));
      open.add(leaderStore);
      open.add(helperStore);
      leaderShares = new NoisedShareService(leaderStore, RandomSource.seeded(
          ByteBuffer.allocate(8).putLong(seed).array()), clock);
      helperShares = new NoisedShareService(helperStore, RandomSource.seeded(
          ByteBuffer.allocate(8).putLong(~seed).array()), clock);
      DapRouter.Builder helper = DapRouter.builder(List.of(lf.helper), helperStore);
      peer = new InProcessHelperPeer((asyncHelper ? helper.aggregateShares(helperShares,
          new AggregateSharesRoute.AsyncShares(helperQueue::add, 1))
          : helper.aggregateShares(helperShares)).build(), 0);
      CollectionJobService service = new CollectionJobService(leaderStore, leaderShares, peer,
          clock, Duration.ofMinutes(5), RETRY, "test");
      driver = new CollectionJobDriver(service, List.of(lf.leader), 1, Duration.ofSeconds(1));
      leader = DapRouter.builder(List.of(lf.leader), leaderStore).aggregateShares(leaderShares)
          .collectionJobs(new CollectionJobsRoute(service, 2, DapRouter.DEFAULT_MAX_BODY)).build();
      leaderWithLedger = DapRouter.builder(List.of(lf.leader), leaderStore)
          .aggregateShares(leaderShares).collectionJobs(new CollectionJobsRoute(service, 2,
              DapRouter.DEFAULT_MAX_BODY, leaderStore, clock)).build();
    }

    String jobs() {
      return "/tasks/" + lf.f.taskId.toBase64Url() + "/collection_jobs";
    }

    HttpReply post(byte[] body) {
      return leader.handle("POST", jobs(), COLLECTOR, REQ, body);
    }

    HttpReply get(String location) {
      return leader.handle("GET", location, COLLECTOR, null, null);
    }

    void runHelperQueue() {
      List<Runnable> q = new ArrayList<>(helperQueue);
      helperQueue.clear();
      q.forEach(Runnable::run);
    }
  }

  /** A fixture of a random task ID. */
  private static Fixture fixture(DpStrategy strategy) {
    byte[] id = new byte[32];
    new java.security.SecureRandom().nextBytes(id);
    return new Fixture(90, new TaskId(id), strategy, Fixture.PRECISION, null, false);
  }

  private static long seed(String test) {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("CollectionJobsRouteTest." + test + " seed=" + seed);
    return seed;
  }

  private static void assertPending(HttpReply r, String location) {
    assertEquals(200, r.status());
    assertEquals(0, r.body().length);
    assertEquals(location, r.headers().get("Location"));
    assertEquals("2", r.headers().get("Retry-After"));
  }

  private static BigInteger[] unshard(Pair p, HttpReply ready, byte[] cjr) throws Exception {
    assertEquals(200, ready.status());
    assertEquals(DapMediaType.COLLECTION_JOB_RESP.contentType(), ready.contentType());
    SpecCollector.Resp resp = SpecCollector.Resp.decode(ready.body());
    assertEquals(60, resp.reportCount());
    assertEquals(10, resp.start());
    assertEquals(3, resp.duration());
    byte[] aad = SpecCollector.aad(p.lf.f.taskId.bytes(),
        SpecCollector.histogramTaskConfiguration(8, 2, Fixture.PRECISION, 10, new byte[0]), cjr);
    byte[] leader = SpecCollector.open(p.lf.f.collectorKey, SpecCollector.LEADER, resp.leader(),
        aad);
    byte[] helper = SpecCollector.open(p.lf.f.collectorKey, SpecCollector.HELPER, resp.helper(),
        aad);
    assertFalse(p.lf.f.task.mechanism().addsNoise() && Arrays.equals(leader,
        p.lf.leaderUnnoised(0, 3)), "the Leader released its un-noised share");
    return SpecCollector.unshard(leader, helper);
  }

  @Test
  void withDpTheCollectorPollsAndUnshardsIntoTheIntervalsOneDrawPerAggregator()
      throws Exception {
    long seed = seed("withDpTheCollectorPollsAndUnshardsIntoTheIntervals");
    Pair p = new Pair(DpStrategy.PureDpDiscreteLaplace.parse("1"), true, seed);
    byte[] cjr = SpecCollector.collectionJobReq(10, 3);
    HttpReply created = p.post(cjr);
    String location = created.headers().get("Location");
    assertTrue(location != null && location.startsWith(p.jobs() + "/"), String.valueOf(location));
    assertEquals(p.jobs() + "/" + CollectionJobService.jobId(p.lf.f.taskId, cjr).toBase64Url(),
        location);
    assertPending(created, location);
    assertPending(p.post(cjr), location);
    assertPending(p.get(location), location);
    // the Helper defers; the Leader's noised share is persisted, the job still pending
    assertEquals(1, p.driver.runOnce());
    assertEquals(List.of("POST 200 empty Retry-After=1"), p.peer.seen);
    assertPending(p.get(location), location);
    assertEquals(1, p.leaderShares.noiseDraws());
    p.runHelperQueue();
    assertEquals(0, p.driver.runOnce(), "not due before the retry delay");
    p.clock.advance(RETRY);
    assertEquals(1, p.driver.runOnce());
    HttpReply ready = p.get(location);
    BigInteger[] result = unshard(p, ready, cjr);
    BigInteger h = p.lf.leader.mechanism().noiseHalfWidthBig(2, 1 - 1e-9);
    long[] truth = CollectionFixture.truth(0, 3);
    for (int i = 0; i < 8; i++) {
      BigInteger error = result[i].subtract(BigInteger.valueOf(truth[i]));
      assertTrue(error.abs().compareTo(h) <= 0, "coordinate " + i + ": error " + error
          + " beyond " + h + " (seed " + seed + ")");
    }
    assertEquals(1, p.leaderShares.noiseDraws());
    assertEquals(1, p.helperShares.noiseDraws());
    // repeats answer the same bytes; another overlapping request is refused
    assertArrayEquals(ready.body(), p.post(cjr).body());
    assertArrayEquals(ready.body(), p.get(location).body());
    DapRouterTest.assertProblem(p.post(SpecCollector.collectionJobReq(12, 2)), 400,
        "urn:ietf:params:ppm:dap:error:batchOverlap");
    // DELETE, then the job is gone; the identical POST finds it again, nothing redrawn
    assertEquals(200, p.leader.handle("DELETE", location, COLLECTOR, null, null).status());
    DapRouterTest.assertProblem(p.get(location), 404, "about:blank");
    DapRouterTest.assertProblem(p.leader.handle("DELETE", location, COLLECTOR, null,
        null), 404, "about:blank");
    HttpReply again = p.post(cjr);
    assertEquals(location, again.headers().get("Location"));
    assertArrayEquals(ready.body(), again.body());
    assertEquals(1, p.leaderShares.noiseDraws());
    assertEquals(1, p.helperShares.noiseDraws());
  }

  /**
   * Issue 25: a finished job's answer carries the Priodp-Privacy-Ledger header, read from the
   * Leader's ledger when it answers; the DAP body is the same bytes, which a Collector written
   * from the spec's structs opens; a pending job's answer has no header.
   */
  @Test
  void aFinishedJobCarriesTheLedgerHeaderAndTheSameDapBytes() throws Exception {
    Pair p = new Pair(DpStrategy.PureDpDiscreteLaplace.parse("1/2"), false, seed("ledgerHeader"));
    byte[] cjr = SpecCollector.collectionJobReq(10, 3);
    HttpReply created = p.leaderWithLedger.handle("POST", p.jobs(), COLLECTOR, REQ, cjr);
    String location = created.headers().get("Location");
    assertFalse(created.headers().containsKey("Priodp-Privacy-Ledger"), "pending: no header");
    assertEquals(1, p.driver.runOnce());
    HttpReply plain = p.get(location);
    HttpReply ready = p.leaderWithLedger.handle("GET", location, COLLECTOR, null, null);
    assertArrayEquals(plain.body(), ready.body(), "the DAP answer is unchanged");
    assertFalse(plain.headers().containsKey("Priodp-Privacy-Ledger"));
    unshard(p, ready, cjr);
    String header = ready.headers().get("Priodp-Privacy-Ledger");
    // one report per unit (the default), no cap, the exact sampler (tv 0): the release cost
    // epsilon 1/2, all of it spent, drawn at the clock's 5000 s
    assertEquals("measure=epsilon, cost=\"1/2\", spent=\"1/2\", released=5000", header);
    org.priodp.aggregator.task.LedgerHeader.parse(header);
    // a repeat answers the same header: nothing more was spent
    assertEquals(header, p.leaderWithLedger.handle("POST", p.jobs(), COLLECTOR, REQ, cjr)
        .headers().get("Priodp-Privacy-Ledger"));
  }

  @Test
  void withoutDpTheResultIsExactAndAFailedJobAnswersTheHelpersError() throws Exception {
    Pair p = new Pair(new DpStrategy.NoDifferentialPrivacy(), false, seed("withoutDpExact"));
    byte[] cjr = SpecCollector.collectionJobReq(10, 3);
    String location = p.post(cjr).headers().get("Location");
    assertEquals(1, p.driver.runOnce());
    BigInteger[] result = unshard(p, p.get(location), cjr);
    long[] truth = CollectionFixture.truth(0, 3);
    for (int i = 0; i < 8; i++) {
      assertEquals(BigInteger.valueOf(truth[i]), result[i], "coordinate " + i);
    }
    // the Helper's bucket 13 disagrees on the count: the Helper refuses, the job fails with it
    p.helperStore.inTaskTransaction(p.lf.f.taskId, tx -> {
      tx.batchBuckets().put(new org.priodp.aggregator.datastore.BatchAggregation(
          p.lf.f.taskId, org.priodp.aggregator.core.BatchBuckets.timeIntervalBucket(13),
          org.priodp.aggregator.dap.ByteString.EMPTY, org.priodp.aggregator.dap.ByteString.copyOf(
              p.lf.f.share(3)), 19, org.priodp.aggregator.dap.ByteString.copyOf(
              Fixture.bucketChecksum(3))));
      return null;
    });
    byte[] cjr2 = SpecCollector.collectionJobReq(13, 1);
    String failed = p.post(cjr2).headers().get("Location");
    assertEquals(1, p.driver.runOnce());
    JsonNode n = DapRouterTest.assertProblem(p.get(failed), 400,
        "urn:ietf:params:ppm:dap:error:batchMismatch");
    assertEquals(p.lf.f.taskId.toBase64Url(), n.get("taskid").asText());
    DapRouterTest.assertProblem(p.post(cjr2), 400,
        "urn:ietf:params:ppm:dap:error:batchMismatch");
  }

  @Test
  void refusalsAreProblemDocumentsAndDrawNothing() throws Exception {
    Pair p = new Pair(DpStrategy.PureDpDiscreteLaplace.parse("1"), false, seed("refusals"));
    byte[] ok = SpecCollector.collectionJobReq(10, 3);
    String jobs = p.jobs();
    DapRouterTest.assertProblem(p.leader.handle("POST", jobs, null, REQ, ok), 401,
        "about:blank");
    DapRouterTest.assertProblem(p.leader.handle("POST", jobs, "Bearer wrong", REQ,
        ok), 401, "about:blank");
    DapRouterTest.assertProblem(p.leader.handle("POST", jobs, "Bearer "
        + Fixture.TOKEN, REQ, ok), 401, "about:blank");
    DapRouterTest.assertProblem(p.leader.handle("POST", jobs, COLLECTOR,
        DapMediaType.AGGREGATE_SHARE_REQ.contentType(), ok), 415, "about:blank");
    DapRouterTest.assertProblem(p.leader.handle("POST", jobs, COLLECTOR, null, ok),
        415, "about:blank");
    HttpReply get = p.leader.handle("GET", jobs, COLLECTOR, null, null);
    DapRouterTest.assertProblem(get, 405, "about:blank");
    assertEquals("POST", get.headers().get("Allow"));
    DapRouterTest.assertProblem(p.post(new byte[70_000]), 413, "about:blank");
    String dap = "urn:ietf:params:ppm:dap:error:";
    DapRouterTest.assertProblem(p.post(new byte[3]), 400, dap + "invalidMessage");
    DapRouterTest.assertProblem(p.post(Arrays.copyOf(ok, ok.length + 1)), 400,
        dap + "invalidMessage");
    DapRouterTest.assertProblem(p.post(SpecCollector.collectionJobReq(new SpecTls()
        .u8(SpecCollector.LEADER_SELECTED).opaque16(new byte[0]).bytes(), new byte[0],
        new byte[0])), 400, dap + "invalidMessage");
    DapRouterTest.assertProblem(p.post(SpecCollector.collectionJobReq(
        SpecCollector.timeIntervalQuery(10, 3), new byte[] {1}, new byte[0])), 400,
        dap + "invalidAggregationParameter");
    DapRouterTest.assertProblem(p.post(SpecCollector.collectionJobReq(10, 0)), 400,
        dap + "batchInvalid");
    DapRouterTest.assertProblem(p.post(SpecCollector.collectionJobReq(-1L, 2)), 400,
        dap + "batchInvalid");
    DapRouterTest.assertProblem(p.post(SpecCollector.collectionJobReq(
        SpecCollector.timeIntervalQuery(10, 3), new byte[0],
        new SpecTls().u16(7).opaque16(new byte[0]).bytes())), 400, dap + "unsupportedExtension");
    DapRouterTest.assertProblem(p.post(SpecCollector.collectionJobReq(
        SpecCollector.timeIntervalQuery(10, 3), new byte[0], new SpecTls().u16(7)
            .opaque16(new byte[0]).u16(7).opaque16(new byte[0]).bytes())), 400,
        dap + "invalidExtension");
    String unknown = jobs + "/" + new CollectionJobId(new byte[16]).toBase64Url();
    DapRouterTest.assertProblem(p.get(unknown), 404, "about:blank");
    DapRouterTest.assertProblem(p.get(jobs + "/not-an-id!"), 404, "about:blank");
    DapRouterTest.assertProblem(p.leader.handle("DELETE", unknown, COLLECTOR, null,
        null), 404, "about:blank");
    HttpReply put = p.leader.handle("PUT", unknown, COLLECTOR, REQ, ok);
    DapRouterTest.assertProblem(put, 405, "about:blank");
    assertEquals("GET, DELETE", put.headers().get("Allow"));
    DapRouterTest.assertProblem(p.leader.handle("GET", unknown, null, null, null),
        401, "about:blank");
    assertEquals(0, p.driver.runOnce(), "no job was created");
    assertEquals(0, p.leaderShares.noiseDraws());
    assertEquals(0, p.peer.calls.get());
  }

  /**
   * Seeded mutation fuzzer: 20,000 mutated CollectionJobReq bodies (after one valid job was
   * collected); every answer is a 200 or a 4xx problem document, never a 5xx, and nothing is
   * drawn for any of them (no job of a mutated request becomes ready without its batch).
   */
  @Test
  void mutatedBodiesNeverGetAServerError() throws Exception {
    long seed = seed("mutatedBodiesNeverGetAServerError");
    java.util.Random rnd = new java.util.Random(seed);
    Pair p = new Pair(DpStrategy.PureDpDiscreteLaplace.parse("1"), false, seed);
    byte[] base = SpecCollector.collectionJobReq(10, 3);
    p.post(base);
    assertEquals(1, p.driver.runOnce());
    int cases = Integer.getInteger("priodp.fuzz.cases", 20_000);
    int[] statuses = new int[600];
    for (int i = 0; i < cases; i++) {
      byte[] body = Mutator.mutate(base, rnd);
      HttpReply r = p.post(body);
      statuses[r.status()]++;
      if (r.status() >= 500 || (r.status() >= 400
          && !"application/problem+json".equals(r.contentType()))) {
        throw new AssertionError("seed " + seed + " case " + i + ": status " + r.status()
            + " for body " + java.util.HexFormat.of().formatHex(body));
      }
    }
    System.out.println("CollectionJobsRouteTest.mutatedBodies: 200=" + statuses[200] + " 400="
        + statuses[400] + " 413=" + statuses[413]);
    assertTrue(statuses[400] > 0);
    assertEquals(1, p.leaderShares.noiseDraws());
  }

  /** The true histogram of CollectionFixture bucket k as the Collector's estimates. */
  private static List<BigInteger> truthOf(int k) {
    return Arrays.stream(CollectionFixture.truth(k)).mapToObj(BigInteger::valueOf).toList();
  }

  /**
   * A Collector ({@link DapCollector}, over HTTP to the Leader's handler) of a leader_selected
   * task goes on after a failed job and after a job it abandoned (DAP-18 "Collection Job
   * Deletion"): its collect fails with the Helper's error, and the next collect collects that
   * batch; a job the Collector deletes while the Helper does not answer gives its batch to the
   * next collect; each batch reaches the Collector once, and with none left a collect waits. The
   * Collector's waits step the Leader's jobs.
   */
  @Test
  void aLeaderSelectedCollectorGoesOnAfterAFailedAndAnAbandonedJob() throws Exception {
    long seed = seed("aLeaderSelectedCollectorGoesOnAfterAFailedAndAnAbandonedJob");
    DapRouter[] handler = new DapRouter[1];
    try (FakeHttp http = new FakeHttp(req -> {
      HttpReply r = handler[0].handle(req.method(), req.path(), req.header("Authorization"),
          req.header("Content-Type"), req.body());
      return new FakeHttp.Response(r.status(), r.headers(), r.body());
    })) {
      Pair p = new Pair(CollectionFixture.leaderSelected(fixture(
          new DpStrategy.NoDifferentialPrivacy()), http.url() + "/"), false, seed);
      handler[0] = p.leader;
      p.lf.writeLeaderSelectedBatch(p.leaderStore, p.helperStore, 0, 20);
      DapCollector collector = new DapCollector(p.lf.leader.parameters(),
          AuthToken.of(CollectionFixture.COLLECTOR_TOKEN), p.lf.f.collectorConfig,
          p.lf.f.collectorKey, HttpClient.newHttpClient(), wait -> {
            p.clock.advance(RETRY);
            p.driver.runOnce();
          }, Duration.ofSeconds(10), 0.95);
      DapCollector.Progress quiet = (poll, wait, waited) -> { };

      // the Helper refuses: the collect fails with its error; the next one gets the batch
      p.peer.beforeAsk = () -> {
        throw new HelperPeer.HelperException("the Helper refused", DapError.BATCH_MISMATCH,
            false, null);
      };
      DapProblemException failed = assertThrows(DapProblemException.class,
          () -> collector.collect(new Query.LeaderSelected(), quiet));
      assertEquals(Optional.of(DapError.BATCH_MISMATCH), failed.error());
      p.peer.beforeAsk = () -> { };
      CollectionResult first = collector.collect(new Query.LeaderSelected(), quiet);
      assertEquals(20, first.reportCount());
      assertEquals(truthOf(0), first.result().estimates());

      // the Helper does not answer: the Collector gives up and deletes the job it polled
      p.lf.writeLeaderSelectedBatch(p.leaderStore, p.helperStore, 1, 20);
      p.peer.beforeAsk = () -> {
        throw new HelperPeer.HelperException("the Helper did not answer in time", null, true,
            null);
      };
      IOException late = assertThrows(IOException.class,
          () -> collector.collect(new Query.LeaderSelected(), quiet));
      assertFalse(late instanceof DapProblemException, late.toString());
      FakeHttp.Request lastPoll = http.requests.get(http.requests.size() - 1);
      assertEquals("GET", lastPoll.method());
      assertEquals(200, p.leader.handle("DELETE", lastPoll.path(), COLLECTOR, null, null)
          .status());
      p.peer.beforeAsk = () -> { };
      CollectionResult second = collector.collect(new Query.LeaderSelected(), quiet);
      assertEquals(truthOf(1), second.result().estimates());

      // both batches collected once: nothing is left for the next collect
      int asked = p.peer.calls.get();
      assertThrows(IOException.class, () -> collector.collect(new Query.LeaderSelected(), quiet));
      assertEquals(asked, p.peer.calls.get());
    }
  }
}
