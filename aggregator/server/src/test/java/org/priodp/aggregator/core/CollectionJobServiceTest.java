package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.ClientReportRepository;
import org.priodp.aggregator.datastore.CollectionJobLease;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.server.AggregateSharesRoute;
import org.priodp.aggregator.server.DapRouter;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.testing.CollectionFixture;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.InProcessHelperPeer;
import org.priodp.aggregator.testing.MutableClock;
import org.priodp.aggregator.testing.SpecCollector;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The Leader's collection jobs against a Helper in process, each with its own store (the
 * Leader's on PostgreSQL when PRIODP_PG_URL is set, else SQLite; the Helper's on SQLite) and
 * batch buckets written directly, as the two aggregators' aggregation would leave them. The
 * Collector is {@link SpecCollector}, written from DAP-18's structs: it opens both shares and
 * unshards them. Seeds are printed.
 */
class CollectionJobServiceTest {
  @TempDir
  Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  /** Buckets 10.. are 1000 s.. after the epoch (time_precision 100 s); by 5000 s all ended. */
  static final Instant AFTER = Instant.ofEpochSecond(5000);
  static final Duration RETRY = Duration.ofSeconds(5);

  /** Both aggregators, the Helper's background queue and the Leader's collection service. */
  final class Setup {
    final CollectionFixture lf;
    final String leaderUrl;
    final JdbcDatastore leaderStore;
    final JdbcDatastore helperStore;
    final NoisedShareService leaderShares;
    final NoisedShareService helperShares;
    final List<Runnable> helperQueue = new ArrayList<>();
    final InProcessHelperPeer peer;
    final MutableClock clock = new MutableClock(AFTER);
    final CollectionJobService service;
    /** The Leader's noise source, to count the bits its draws took. */
    final RandomSource leaderNoise;
    /** The batches of the Leader's releases, as its {@link ReleaseObserver} heard of them. */
    final List<BatchIdentifier> released = java.util.Collections.synchronizedList(
        new ArrayList<>());

    Setup(Fixture f, boolean asyncHelper, int maxPolls, long seed) {
      this(new CollectionFixture(f), asyncHelper, maxPolls, seed);
    }

    Setup(CollectionFixture lf, boolean asyncHelper, int maxPolls, long seed) {
      this.lf = lf;
      Fixture f = lf.f;
      String pg = System.getenv("PRIODP_PG_URL");
      leaderUrl = pg != null && !pg.isBlank() ? pg
          : "jdbc:sqlite:" + dir.resolve("leader-" + f.taskId.toBase64Url() + ".db");
      leaderStore = JdbcDatastore.open(leaderUrl);
      helperStore = JdbcDatastore.openSqlite(dir.resolve("helper-"
          + f.taskId.toBase64Url() + ".db"));
      open.add(leaderStore);
      open.add(helperStore);
      leaderNoise = RandomSource.seeded(java.nio.ByteBuffer.allocate(8).putLong(seed).array());
      leaderShares = new NoisedShareService(leaderStore, leaderNoise, clock,
          (task, batch) -> released.add(batch));
      helperShares = new NoisedShareService(helperStore, RandomSource.seeded(
          java.nio.ByteBuffer.allocate(8).putLong(~seed).array()), clock);
      DapRouter.Builder helper = DapRouter.builder(List.of(lf.helper), helperStore);
      peer = new InProcessHelperPeer((asyncHelper ? helper.aggregateShares(helperShares,
          new AggregateSharesRoute.AsyncShares(helperQueue::add, 1))
          : helper.aggregateShares(helperShares)).build(), maxPolls);
      service = new CollectionJobService(leaderStore, leaderShares, peer, clock,
          Duration.ofMinutes(5), RETRY, "test");
    }

    void writeBuckets(int n) {
      lf.writeLeaderBuckets(leaderStore, n);
      lf.f.writeBuckets(helperStore, n);
    }

    void runHelperQueue() {
      List<Runnable> q = new ArrayList<>(helperQueue);
      helperQueue.clear();
      q.forEach(Runnable::run);
    }

    TaskId taskId() {
      return lf.f.taskId;
    }

    CollectionJobRecord job(CollectionJobRecord j) {
      return service.job(taskId(), j.jobId()).orElseThrow();
    }

    /**
     * Returns another Leader process on the Leader's database {@code url}: a store with its own
     * connection pool, a share service with its own noise, a collection service over both.
     */
    Replica replica(String url, long noiseSeed) {
      JdbcDatastore store = JdbcDatastore.open(url);
      open.add(store);
      NoisedShareService shares = new NoisedShareService(store, RandomSource.seeded(
          java.nio.ByteBuffer.allocate(8).putLong(noiseSeed).array()), clock);
      return new Replica(store, shares, new CollectionJobService(store, shares, peer, clock,
          Duration.ofMinutes(5), RETRY, "other"));
    }

    /** Runs SQL on the Leader's database through a connection of its own. */
    void sql(String statement, Object... params) throws Exception {
      try (Connection c = DriverManager.getConnection(leaderUrl);
          PreparedStatement p = c.prepareStatement(statement)) {
        for (int i = 0; i < params.length; i++) {
          p.setObject(i + 1, params[i]);
        }
        p.executeUpdate();
      }
    }
  }

  /** A second Leader process: its store, share service and collection service. */
  record Replica(JdbcDatastore store, NoisedShareService shares, CollectionJobService service) {
  }

  /**
   * Runs the calls on threads of their own, lets them all go at once and returns their results
   * in call order; throws the first call's failure.
   */
  private static <T> List<T> atOnce(List<java.util.concurrent.Callable<T>> calls)
      throws Exception {
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(calls.size());
    try {
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<T>> futures = new ArrayList<>();
      for (java.util.concurrent.Callable<T> c : calls) {
        futures.add(pool.submit(() -> {
          go.await();
          return c.call();
        }));
      }
      go.countDown();
      List<T> out = new ArrayList<>();
      for (java.util.concurrent.Future<T> f : futures) {
        out.add(f.get(5, java.util.concurrent.TimeUnit.MINUTES));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long seed(String test) {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("CollectionJobServiceTest." + test + " seed=" + seed);
    return seed;
  }

  private static Fixture fixture(int n, DpStrategy strategy, Interval taskInterval) {
    byte[] id = new byte[32];
    new java.security.SecureRandom().nextBytes(id);
    return new Fixture(n, new TaskId(id), strategy, Fixture.PRECISION, taskInterval, false);
  }

  private static BatchIdentifier batch(long start, long duration) {
    return BatchBuckets.batchIdentifier(new BatchSelector.TimeInterval(Interval.of(start,
        duration)));
  }

  /** The Collector's view of a ready job: both opened shares and the unsharded result. */
  record Collected(SpecCollector.Resp resp, byte[] leader, byte[] helper, BigInteger[] result) {
  }

  static Collected collect(Setup s, CollectionJobRecord job, byte[] cjr) throws Exception {
    SpecCollector.Resp resp = SpecCollector.Resp.decode(job.response().orElseThrow()
        .toByteArray());
    int mode = s.lf.leader.configuration().batchMode() == BatchMode.LEADER_SELECTED
        ? SpecCollector.LEADER_SELECTED : SpecCollector.TIME_INTERVAL;
    byte[] aad = SpecCollector.aad(s.taskId().bytes(), SpecCollector.histogramTaskConfiguration(
        8, 2, Fixture.PRECISION, 10, mode, new byte[0]), cjr);
    byte[] leader = SpecCollector.open(s.lf.f.collectorKey, SpecCollector.LEADER, resp.leader(),
        aad);
    byte[] helper = SpecCollector.open(s.lf.f.collectorKey, SpecCollector.HELPER, resp.helper(),
        aad);
    return new Collected(resp, leader, helper, SpecCollector.unshard(leader, helper));
  }

  @Test
  void withoutDpTheCollectorUnshardsTheExactHistogram() throws Exception {
    Setup s = new Setup(fixture(80, new DpStrategy.NoDifferentialPrivacy(), null), false, 0,
        seed("withoutDpTheCollectorUnshardsTheExactHistogram"));
    s.writeBuckets(4);
    byte[] cjr = SpecCollector.collectionJobReq(10, 3);
    CollectionJobRecord job = s.service.create(s.lf.leader, CollectionJobReq.decode(cjr));
    assertEquals(CollectionJobRecord.State.PENDING, job.state());
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    CollectionJobRecord done = s.job(job);
    assertEquals(CollectionJobRecord.State.READY, done.state());
    Collected c = collect(s, done, cjr);
    assertEquals(60, c.resp().reportCount());
    assertEquals(10, c.resp().start());
    assertEquals(3, c.resp().duration());
    long[] truth = CollectionFixture.truth(0, 3);
    for (int i = 0; i < 8; i++) {
      assertEquals(BigInteger.valueOf(truth[i]), c.result()[i], "coordinate " + i);
    }
    assertEquals(CollectionJobService.Outcome.IDLE, s.service.step(s.lf.leader));
    assertEquals(0, s.leaderShares.noiseDraws());
    assertEquals(0, s.helperShares.noiseDraws());
    // the response interval is the smallest one holding the buckets with reports
    byte[] wide = SpecCollector.collectionJobReq(13, 5);
    CollectionJobRecord j2 = s.service.create(s.lf.leader, CollectionJobReq.decode(wide));
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    Collected c2 = collect(s, s.job(j2), wide);
    assertEquals(20, c2.resp().reportCount());
    assertEquals(13, c2.resp().start());
    assertEquals(1, c2.resp().duration());
    long[] t3 = CollectionFixture.truth(3, 4);
    for (int i = 0; i < 8; i++) {
      assertEquals(BigInteger.valueOf(t3[i]), c2.result()[i], "coordinate " + i);
    }
  }

  /**
   * The key test: the Helper answers asynchronously (empty body, Location, Retry-After)
   * and the Leader's first attempt gives up waiting. At the moment the Helper is first asked, the
   * Leader's noised share is persisted and sealed; it is never replaced, the retry does not draw
   * again, every share the Leader stores or releases is the noised one: exactly one draw per
   * aggregator per batch. A second batch is collected with the Leader polling the Helper's GET.
   */
  @Test
  void asynchronousHelperEachAggregatorDrawsOnceAndTheLeaderNeverReleasesAnUnnoisedShare()
      throws Exception {
    long seed = seed("asynchronousHelperEachAggregatorDrawsOnce");
    DpStrategy dp = DpStrategy.PureDpDiscreteLaplace.parse("1");
    Setup s = new Setup(fixture(81, dp, null), true, 0, seed);
    s.writeBuckets(6);
    byte[] raw = s.lf.leaderUnnoised(0, 3);
    BatchIdentifier batch = batch(10, 3);
    byte[] cjr = SpecCollector.collectionJobReq(10, 3);
    CollectionJobRecord job = s.service.create(s.lf.leader, CollectionJobReq.decode(cjr));
    List<byte[]> noisedWhenAsked = new ArrayList<>();
    s.peer.beforeAsk = () -> {
      NoisedAggregateShare n = s.leaderStore.inTaskTransaction(s.taskId(),
          tx -> tx.releases().noisedShare(batch)).orElse(null);
      if (n == null) {
        fail("the Helper was asked before the Leader's noised share was persisted");
      }
      assertFalse(Arrays.equals(raw, n.noisedShare().toByteArray()),
          "the Leader persisted its un-noised share");
      assertTrue(s.leaderStore.inTaskTransaction(s.taskId(),
          tx -> tx.releases().releasedShare(batch)).isPresent(),
          "the Leader's share is sealed and stored before the Helper is asked");
      CollectionJobRecord now = s.job(job);
      assertEquals(CollectionJobRecord.State.PENDING, now.state());
      assertTrue(now.response().isEmpty());
      assertEquals(1, s.leaderShares.noiseDraws());
      noisedWhenAsked.add(n.noisedShare().toByteArray());
    };

    // attempt 1: the Helper defers, the Leader stops waiting; the job stays pending
    assertEquals(CollectionJobService.Outcome.HELPER_RETRY, s.service.step(s.lf.leader));
    assertEquals(List.of("POST 200 empty Retry-After=1"), s.peer.seen);
    assertEquals(1, s.leaderShares.noiseDraws());
    assertEquals(0, s.helperShares.noiseDraws(), "the Helper's release has not run yet");
    assertEquals(CollectionJobRecord.State.PENDING, s.job(job).state());
    assertTrue(s.job(job).response().isEmpty());
    byte[] noised = s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch)).orElseThrow().noisedShare()
        .toByteArray();
    ReleasedAggregateShare released = s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().releasedShare(batch))
        .orElseThrow();
    // not due again before the retry delay
    assertEquals(CollectionJobService.Outcome.IDLE, s.service.step(s.lf.leader));
    s.runHelperQueue();
    assertEquals(1, s.helperShares.noiseDraws());

    // attempt 2: the same request again; the Helper now has its share
    s.clock.advance(RETRY);
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    assertEquals(List.of("POST 200 empty Retry-After=1", "POST 200 body"), s.peer.seen);
    assertEquals(1, s.leaderShares.noiseDraws(), "the retry drew no new Leader noise");
    assertEquals(1, s.helperShares.noiseDraws());
    assertEquals(2, noisedWhenAsked.size());
    for (byte[] n : noisedWhenAsked) {
      assertArrayEquals(noised, n, "the Leader's noised share was replaced");
    }
    assertArrayEquals(noised, s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch)).orElseThrow()
        .noisedShare().toByteArray());
    assertEquals(released, s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().releasedShare(batch)).orElseThrow());

    CollectionJobRecord done = s.job(job);
    Collected c = collect(s, done, cjr);
    assertArrayEquals(noised, c.leader(), "the Leader released exactly its persisted noised share");
    assertFalse(Arrays.equals(raw, c.leader()), "the Leader released its un-noised share");
    assertArrayEquals(org.priodp.aggregator.dap.AggregateShare.decode(released.aggregateShare()
        .toByteArray()).encryptedAggregateShare().encode(), new SpecTls().u8(c.resp().leader()
        .configId()).opaque16(c.resp().leader().enc()).opaque32(c.resp().leader().payload())
        .bytes(), "the response carries the stored ciphertext");
    assertArrayEquals(s.helperStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch)).orElseThrow().noisedShare()
        .toByteArray(), c.helper());
    assertEquals(60, c.resp().reportCount());
    BigInteger h = s.lf.leader.mechanism().noiseHalfWidthBig(2, 1 - 1e-9);
    long[] truth = CollectionFixture.truth(0, 3);
    for (int i = 0; i < 8; i++) {
      BigInteger error = c.result()[i].subtract(BigInteger.valueOf(truth[i]));
      assertTrue(error.abs().compareTo(h) <= 0, "coordinate " + i + ": error " + error
          + " beyond " + h + " (seed " + seed + ")");
    }
    // repeats: the same job, nothing drawn
    assertEquals(job.jobId(), s.service.create(s.lf.leader, CollectionJobReq.decode(cjr))
        .jobId());
    assertEquals(CollectionJobService.Outcome.IDLE, s.service.step(s.lf.leader));
    assertEquals(1, s.leaderShares.noiseDraws());

    // the second batch: the Leader polls the Helper's GET, which answers Retry-After, then the
    // share
    s.peer.seen.clear();
    s.peer.beforeAsk = () -> assertTrue(s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch(13, 3)))
        .isPresent(), "the Helper was asked before the Leader's noised share was persisted");
    int[] pollsBeforeReady = {0};
    s.peer.betweenPolls = () -> {
      if (pollsBeforeReady[0]++ == 1) {
        s.runHelperQueue();
      }
    };
    s.peer.maxPolls = 5;
    byte[] cjr2 = SpecCollector.collectionJobReq(13, 3);
    CollectionJobRecord job2 = s.service.create(s.lf.leader, CollectionJobReq.decode(cjr2));
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    assertEquals(List.of("POST 200 empty Retry-After=1", "GET 200 empty Retry-After=1",
        "GET 200 body"), s.peer.seen);
    assertEquals(2, s.leaderShares.noiseDraws());
    assertEquals(2, s.helperShares.noiseDraws());
    Collected c2 = collect(s, s.job(job2), cjr2);
    assertArrayEquals(s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch(13, 3))).orElseThrow()
        .noisedShare().toByteArray(), c2.leader());
    assertFalse(Arrays.equals(s.lf.leaderUnnoised(3, 6), c2.leader()));
  }

  @Test
  void waitsForTheIntervalTheAggregationJobsAndTheMinimumBatchSize() throws Exception {
    Setup s = new Setup(fixture(82, new DpStrategy.NoDifferentialPrivacy(), null), false, 0,
        seed("waitsForTheIntervalTheAggregationJobsAndTheMinimumBatchSize"));
    s.writeBuckets(3);
    byte[] cjr = SpecCollector.collectionJobReq(10, 3);
    CollectionJobRecord job = s.service.create(s.lf.leader, CollectionJobReq.decode(cjr));
    // the interval [1000 s, 1300 s) has not ended at 1299 s
    s.clock.now.set(Instant.ofEpochSecond(1299));
    assertEquals(CollectionJobService.Outcome.WAITING, s.service.step(s.lf.leader));
    assertEquals(CollectionJobService.Outcome.IDLE, s.service.step(s.lf.leader), "postponed");
    s.clock.now.set(Instant.ofEpochSecond(1304)); // ended, and the retry delay has passed
    // an uploaded report of time 11 that no aggregation job has claimed yet
    byte[] reportId = new byte[16];
    reportId[0] = 1;
    byte[] aggJob = new byte[16];
    aggJob[0] = 2;
    s.sql("INSERT INTO client_reports (task_id, report_id, report_time, report,"
        + " aggregation_job_id, created_at_ms) VALUES (?, ?, ?, ?, NULL, 0)",
        s.taskId().bytes(), reportId, Long.MIN_VALUE ^ 11L, new byte[] {0});
    // and one of time 13, outside the interval, unclaimed: no reason to wait
    byte[] outside = reportId.clone();
    outside[1] = 1;
    s.sql("INSERT INTO client_reports (task_id, report_id, report_time, report,"
        + " aggregation_job_id, created_at_ms) VALUES (?, ?, ?, ?, NULL, 0)",
        s.taskId().bytes(), outside, Long.MIN_VALUE ^ 13L, new byte[] {0});
    assertEquals(CollectionJobService.Outcome.WAITING, s.service.step(s.lf.leader));
    // claimed by an active Leader aggregation job: still waiting
    s.sql("INSERT INTO leader_aggregation_jobs (task_id, job_id, state, step, batch_identifier,"
        + " min_report_time, max_report_time, report_count, lease_owner, lease_token,"
        + " lease_expires_ms, lease_attempts, error_detail, created_at_ms, updated_at_ms)"
        + " VALUES (?, ?, 'active', 0, NULL, ?, ?, 1, NULL, NULL, 0, 0, NULL, 0, 0)",
        s.taskId().bytes(), aggJob, Long.MIN_VALUE ^ 11L, Long.MIN_VALUE ^ 11L);
    s.sql("UPDATE client_reports SET aggregation_job_id = ? WHERE task_id = ? AND report_id = ?",
        aggJob, s.taskId().bytes(), reportId);
    s.clock.advance(RETRY);
    assertEquals(CollectionJobService.Outcome.WAITING, s.service.step(s.lf.leader));
    // the job finished: ready to collect (an active job of times 13..19 is not in the batch)
    s.sql("UPDATE leader_aggregation_jobs SET state = 'finished' WHERE task_id = ? AND job_id = ?",
        s.taskId().bytes(), aggJob);
    byte[] laterJob = aggJob.clone();
    laterJob[1] = 1;
    s.sql("INSERT INTO leader_aggregation_jobs (task_id, job_id, state, step, batch_identifier,"
        + " min_report_time, max_report_time, report_count, lease_owner, lease_token,"
        + " lease_expires_ms, lease_attempts, error_detail, created_at_ms, updated_at_ms)"
        + " VALUES (?, ?, 'active', 0, NULL, ?, ?, 1, NULL, NULL, 0, 0, NULL, 0, 0)",
        s.taskId().bytes(), laterJob, Long.MIN_VALUE ^ 13L, Long.MIN_VALUE ^ 19L);
    s.sql("UPDATE client_reports SET aggregation_job_id = ? WHERE task_id = ? AND report_id = ?",
        laterJob, s.taskId().bytes(), outside);
    s.clock.advance(RETRY);
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    assertEquals(CollectionJobRecord.State.READY, s.job(job).state());

    // a batch without enough reports (one bucket of 20 moved out: none in [20, 22)) waits, and
    // nothing is drawn or asked
    CollectionJobRecord empty = s.service.create(s.lf.leader, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(20, 2)));
    s.clock.now.set(Instant.ofEpochSecond(5000));
    int asked = s.peer.calls.get();
    for (int k = 0; k < 3; k++) {
      assertEquals(CollectionJobService.Outcome.WAITING, s.service.step(s.lf.leader));
      s.clock.advance(RETRY);
    }
    assertEquals(asked, s.peer.calls.get());
    assertTrue(s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch(20, 2))).isEmpty());
    assertEquals(CollectionJobRecord.State.PENDING, s.job(empty).state());
    // buckets arrive (aggregated later): collected
    for (int k = 10; k < 12; k++) {
      org.priodp.aggregator.datastore.BatchAggregation leaderBucket =
          new org.priodp.aggregator.datastore.BatchAggregation(
          s.taskId(), BatchBuckets.timeIntervalBucket(Fixture.FIRST_BUCKET + k),
          org.priodp.aggregator.dap.ByteString.EMPTY, org.priodp.aggregator.dap.ByteString.copyOf(
              s.lf.leaderShare(k)), 20, org.priodp.aggregator.dap.ByteString.copyOf(
              Fixture.bucketChecksum(k)));
      s.leaderStore.inTaskTransaction(s.taskId(), tx -> {
        tx.batchBuckets().put(leaderBucket);
        return null;
      });
      org.priodp.aggregator.datastore.BatchAggregation helperBucket =
          new org.priodp.aggregator.datastore.BatchAggregation(
          s.taskId(), BatchBuckets.timeIntervalBucket(Fixture.FIRST_BUCKET + k),
          org.priodp.aggregator.dap.ByteString.EMPTY, org.priodp.aggregator.dap.ByteString.copyOf(
              s.lf.f.share(k)), 20, org.priodp.aggregator.dap.ByteString.copyOf(
              Fixture.bucketChecksum(k)));
      s.helperStore.inTaskTransaction(s.taskId(), tx -> {
        tx.batchBuckets().put(helperBucket);
        return null;
      });
    }
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    Collected c = collect(s, s.job(empty), SpecCollector.collectionJobReq(20, 2));
    assertEquals(40, c.resp().reportCount());
    long[] truth = CollectionFixture.truth(10, 12);
    for (int i = 0; i < 8; i++) {
      assertEquals(BigInteger.valueOf(truth[i]), c.result()[i]);
    }
  }

  @Test
  void aJobThatClaimsReportsAfterTheReadinessCheckMakesTheReleaseWaitWithoutADraw()
      throws Exception {
    Setup s = new Setup(fixture(83, new DpStrategy.NoDifferentialPrivacy(), null), false, 0,
        seed("aJobThatClaimsReportsAfterTheReadinessCheckMakesTheReleaseWaitWithoutADraw"));
    s.writeBuckets(3);
    byte[] cjr = SpecCollector.collectionJobReq(10, 3);
    CollectionJobRecord job = s.service.create(s.lf.leader, CollectionJobReq.decode(cjr));
    byte[] aggJob = new byte[16];
    aggJob[0] = 7;
    // The readiness check (outside the release's transaction) sees nothing outstanding, and right
    // after it an aggregation job claims a late report of the interval: the window in which,
    // without the check inside the release, the Leader would release and then send the Helper a
    // report its released share does not count (batchMismatch at the Helper).
    java.util.concurrent.atomic.AtomicBoolean claimed = new java.util.concurrent.atomic.AtomicBoolean();
    org.priodp.aggregator.datastore.Datastore racing =
        (org.priodp.aggregator.datastore.Datastore) java.lang.reflect.Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {org.priodp.aggregator.datastore.Datastore.class},
            (proxy, method, args) -> {
              boolean[] checked = {false};
              Object r;
              try {
                r = method.getName().equals("inTaskTransaction")
                    ? s.leaderStore.inTaskTransaction((TaskId) args[0], tx ->
                        ((org.priodp.aggregator.datastore.Datastore.TaskWork<?>) args[1])
                            .run(outstandingSpy(tx, checked)))
                    : method.invoke(s.leaderStore, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
              if (checked[0] && !claimed.getAndSet(true)) {
                s.sql("INSERT INTO leader_aggregation_jobs (task_id, job_id, state, step,"
                    + " batch_identifier, min_report_time, max_report_time, report_count,"
                    + " lease_owner, lease_token, lease_expires_ms, lease_attempts, error_detail,"
                    + " created_at_ms, updated_at_ms) VALUES (?, ?, 'active', 0, NULL, ?, ?, 1,"
                    + " NULL, NULL, 0, 0, NULL, 0, 0)",
                    s.taskId().bytes(), aggJob, Long.MIN_VALUE ^ 11L, Long.MIN_VALUE ^ 11L);
              }
              return r;
            });
    CollectionJobService service = new CollectionJobService(racing, s.leaderShares, s.peer,
        s.clock, Duration.ofMinutes(5), RETRY, "test");
    assertEquals(CollectionJobService.Outcome.WAITING, service.step(s.lf.leader));
    assertTrue(claimed.get(), "the readiness check ran");
    assertTrue(s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch(10, 3))).isEmpty(), "nothing drawn");
    assertEquals(0, s.peer.calls.get(), "the Helper was not asked");
    assertEquals(CollectionJobRecord.State.PENDING, s.job(job).state());
    // the job finishes: the batch is released
    s.sql("UPDATE leader_aggregation_jobs SET state = 'finished' WHERE task_id = ? AND job_id = ?",
        s.taskId().bytes(), aggJob);
    s.clock.advance(RETRY);
    assertEquals(CollectionJobService.Outcome.READY, service.step(s.lf.leader));
    assertTrue(s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch(10, 3))).isPresent());
    assertEquals(1, s.peer.calls.get());
  }

  /**
   * Returns the task transaction with its client reports spied on: {@code checked[0]} becomes
   * true when the work asks whether reports are outstanding (the readiness check).
   */
  private static TaskTransaction outstandingSpy(TaskTransaction tx, boolean[] checked) {
    ClientReportRepository reports = (ClientReportRepository) java.lang.reflect.Proxy
        .newProxyInstance(ClientReportRepository.class.getClassLoader(),
            new Class<?>[] {ClientReportRepository.class}, (proxy, method, args) -> {
              checked[0] |= method.getName().equals("outstanding");
              try {
                return method.invoke(tx.clientReports(), args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            });
    return (TaskTransaction) java.lang.reflect.Proxy.newProxyInstance(
        TaskTransaction.class.getClassLoader(), new Class<?>[] {TaskTransaction.class},
        (proxy, method, args) -> {
          if (method.getName().equals("clientReports")) {
            return reports;
          }
          try {
            return method.invoke(tx, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static void assertRefused(DapError error, Runnable r) {
    Refusal e = assertThrows(Refusal.class, r::run);
    assertEquals(error, e.dapError().orElseThrow(), e.detail());
  }

  @Test
  void creationIsIdempotentAndRefusesWhatTheSpecRefuses() throws Exception {
    Setup s = new Setup(fixture(83, DpStrategy.PureDpDiscreteLaplace.parse("1"),
        Interval.of(5, 30)), false, 0, seed("creationIsIdempotentAndRefusesWhatTheSpecRefuses"));
    s.writeBuckets(4);
    TaskDefinition t = s.lf.leader;
    byte[] cjr = SpecCollector.collectionJobReq(10, 3);
    CollectionJobRecord a = s.service.create(t, CollectionJobReq.decode(cjr));
    CollectionJobRecord b = s.service.create(t, CollectionJobReq.decode(cjr));
    assertEquals(a.jobId(), b.jobId());
    assertEquals(CollectionJobService.jobId(s.taskId(), cjr), a.jobId());
    assertArrayEquals(cjr, a.request().toByteArray());
    // overlapping a pending job with another request
    assertRefused(DapError.BATCH_OVERLAP, () -> s.service.create(t, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(12, 2))));
    // batch mode of the query is not the task's
    assertRefused(DapError.INVALID_MESSAGE, () -> s.service.create(t, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(new SpecTls().u8(SpecCollector.LEADER_SELECTED)
            .opaque16(new byte[0]).bytes(), new byte[0], new byte[0]))));
    // Prio3 has no aggregation parameter
    assertRefused(DapError.INVALID_AGGREGATION_PARAMETER, () -> s.service.create(t,
        CollectionJobReq.decode(SpecCollector.collectionJobReq(
            SpecCollector.timeIntervalQuery(20, 1), new byte[] {0}, new byte[0]))));
    // empty, overflowing and outside the task interval [5, 35)
    for (long[] bad : new long[][] {{20, 0}, {-1L, 2}, {30, 6}, {0, 6}}) {
      assertRefused(DapError.BATCH_INVALID, () -> s.service.create(t, CollectionJobReq.decode(
          SpecCollector.collectionJobReq(bad[0], bad[1]))));
    }
    // any collection job extension
    assertRefused(DapError.UNSUPPORTED_EXTENSION, () -> s.service.create(t,
        CollectionJobReq.decode(SpecCollector.collectionJobReq(
            SpecCollector.timeIntervalQuery(20, 1), new byte[0],
            new SpecTls().u16(0xff00).opaque16(new byte[] {1}).bytes()))));
    // collected, then deleted: the identical request restores the ready job, nothing drawn
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(t));
    assertEquals(1, s.leaderShares.noiseDraws());
    assertTrue(s.service.delete(s.taskId(), a.jobId()));
    assertFalse(s.service.delete(s.taskId(), a.jobId()));
    assertEquals(CollectionJobRecord.State.DELETED, s.job(a).state());
    assertTrue(s.job(a).response().isPresent(), "deletion keeps what double collection needs");
    // a different request overlapping the collected batch: its job is gone, the batch is not
    assertRefused(DapError.BATCH_OVERLAP, () -> s.service.create(t, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(9, 2))));
    CollectionJobRecord again = s.service.create(t, CollectionJobReq.decode(cjr));
    assertEquals(CollectionJobRecord.State.READY, again.state());
    assertEquals(a.jobId(), again.jobId());
    assertEquals(1, s.leaderShares.noiseDraws());

    // a job deleted while pending frees its batch for another request
    CollectionJobRecord p = s.service.create(t, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(20, 2)));
    assertTrue(s.service.delete(s.taskId(), p.jobId()));
    assertEquals(CollectionJobService.Outcome.IDLE, s.service.step(t));
    CollectionJobRecord q = s.service.create(t, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(21, 3)));
    assertNotEquals(p.jobId(), q.jobId());
    assertEquals(CollectionJobRecord.State.PENDING, q.state());
  }

  @Test
  void aHelperRefusalFailsTheJobWithTheHelpersError() throws Exception {
    Setup s = new Setup(fixture(84, DpStrategy.PureDpDiscreteLaplace.parse("1"), null), false,
        0, seed("aHelperRefusalFailsTheJobWithTheHelpersError"));
    s.writeBuckets(3);
    // the Helper's bucket 11 holds one report fewer: the checksums agree, the counts do not
    s.helperStore.inTaskTransaction(s.taskId(), tx -> {
      tx.batchBuckets().put(new org.priodp.aggregator.datastore.BatchAggregation(s.taskId(),
          BatchBuckets.timeIntervalBucket(11), org.priodp.aggregator.dap.ByteString.EMPTY,
          org.priodp.aggregator.dap.ByteString.copyOf(s.lf.f.share(1)), 19,
          org.priodp.aggregator.dap.ByteString.copyOf(Fixture.bucketChecksum(1))));
      return null;
    });
    CollectionJobRecord job = s.service.create(s.lf.leader, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(10, 3)));
    assertEquals(CollectionJobService.Outcome.FAILED, s.service.step(s.lf.leader));
    CollectionJobRecord failed = s.job(job);
    assertEquals(CollectionJobRecord.State.FAILED, failed.state());
    assertEquals(DapError.BATCH_MISMATCH.type(), failed.errorType().orElseThrow());
    assertEquals(0, s.helperShares.noiseDraws());
    assertEquals(1, s.leaderShares.noiseDraws(), "the Leader drew before asking");
    assertEquals(CollectionJobService.Outcome.IDLE, s.service.step(s.lf.leader));
  }

  /**
   * The Leader's budget (issue 25): with epsilon 1 over the task's life, the first batch is
   * released; a second job created before the first was stepped fails with privacyBudgetExhausted
   * before the Helper is asked; a third is refused at creation (the fast, non-authoritative
   * check).
   */
  @Test
  void aSpentBudgetFailsTheJobBeforeTheHelperIsAskedAndRefusesNewJobs() throws Exception {
    Setup s = new Setup(fixture(85, DpStrategy.PureDpDiscreteLaplace.parse("1"), null), false,
        0, seed("aSpentBudgetFailsTheJobBeforeTheHelperIsAskedAndRefusesNewJobs"));
    s.writeBuckets(3);
    TaskDefinition leader = s.lf.leader.withPrivacy(new PrivacySettings(
        new org.priodp.noise.ledger.PrivacyUnit.Report(), java.util.Optional.of(
            org.priodp.noise.ledger.BudgetCap.life(org.priodp.noise.Budget.PureDp.parse("1")))));
    CollectionJobRecord first = s.service.create(leader, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(10, 1)));
    // a millisecond later, so that the jobs are stepped in creation order (two jobs created in
    // the same millisecond are due in no defined order; seen in CI on PostgreSQL)
    s.clock.advance(java.time.Duration.ofMillis(1));
    CollectionJobRecord second = s.service.create(leader, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(11, 1)));
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(leader));
    assertEquals(CollectionJobRecord.State.READY, s.job(first).state());
    assertEquals(CollectionJobService.Outcome.FAILED, s.service.step(leader));
    CollectionJobRecord failed = s.job(second);
    assertEquals(ProblemType.PRIVACY_BUDGET_EXHAUSTED.type(), failed.errorType().orElseThrow());
    assertTrue(failed.errorDetail().orElseThrow().contains("spent epsilon 1, left 0"),
        failed.errorDetail().orElseThrow());
    assertEquals(1, s.leaderShares.noiseDraws());
    assertEquals(1, s.helperShares.noiseDraws(), "the Helper was not asked for the second batch");
    Refusal r = assertThrows(Refusal.class, () -> s.service.create(leader, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(12, 1))));
    assertEquals(ProblemType.PRIVACY_BUDGET_EXHAUSTED, r.error());
  }

  @Test
  void theLeaseIsCheckedWhenTheResultIsStored() throws Exception {
    Setup s = new Setup(fixture(85, new DpStrategy.NoDifferentialPrivacy(), null), false, 0,
        seed("theLeaseIsCheckedWhenTheResultIsStored"));
    s.writeBuckets(3);
    CollectionJobRecord job = s.service.create(s.lf.leader, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(10, 3)));
    CollectionJobLease first = s.leaderStore.jobLeases().leaseCollectionJob(s.taskId(), "a",
        s.clock.instant(), Duration.ofMinutes(5)).orElseThrow();
    assertEquals(1, first.attempts());
    assertTrue(s.leaderStore.jobLeases().leaseCollectionJob(s.taskId(), "b", s.clock.instant(),
        Duration.ofMinutes(5)).isEmpty(), "leased: nobody else gets it");
    // the lease expires and another process takes the job over
    s.clock.advance(Duration.ofMinutes(6));
    CollectionJobLease second = s.leaderStore.jobLeases().leaseCollectionJob(s.taskId(), "b",
        s.clock.instant(), Duration.ofMinutes(5)).orElseThrow();
    assertEquals(2, second.attempts());
    assertNotEquals(first.token(), second.token());
    // the first lessee's work is refused at commit, the second's stored
    assertEquals(CollectionJobService.Outcome.LEASE_LOST, s.service.step(s.lf.leader, first));
    assertEquals(CollectionJobRecord.State.PENDING, s.job(job).state());
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader, second));
    assertEquals(CollectionJobRecord.State.READY, s.job(job).state());
    // a job deleted while a step works on it stays deleted, without a response
    CollectionJobRecord other = s.service.create(s.lf.leader, CollectionJobReq.decode(
        SpecCollector.collectionJobReq(20, 1)));
    CollectionJobLease l = s.leaderStore.jobLeases().leaseCollectionJob(s.taskId(), "c",
        s.clock.instant(), Duration.ofMinutes(5)).orElseThrow();
    assertEquals(other.jobId(), l.job().jobId());
    assertTrue(s.service.delete(s.taskId(), other.jobId()));
    assertEquals(CollectionJobService.Outcome.LEASE_LOST, s.service.step(s.lf.leader, l));
    assertEquals(CollectionJobRecord.State.DELETED, s.job(other).state());
  }

  /**
   * Two Leader processes (two stores, two connection pools) on one PostgreSQL database step 24
   * pending jobs with two threads each: every job is leased by one of them at a time (SELECT ...
   * FOR UPDATE SKIP LOCKED), so the Helper is asked exactly once per job and each batch is
   * noised once. Skipped without PRIODP_PG_URL.
   */
  @Test
  void twoLeaderProcessesOnPostgresqlStepEachJobOnce() throws Exception {
    String pg = System.getenv("PRIODP_PG_URL");
    if (pg == null || pg.isBlank()) {
      System.out.println("SKIPPED two-Leader PostgreSQL lease test: PRIODP_PG_URL is not set");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(pg != null && !pg.isBlank());
    long seed = seed("twoLeaderProcessesOnPostgresqlStepEachJobOnce");
    int jobs = 24;
    Setup s = new Setup(fixture(86, DpStrategy.PureDpDiscreteLaplace.parse("1"), null), false, 0,
        seed);
    s.writeBuckets(jobs);
    Replica other = s.replica(pg, seed + 1);
    for (int k = 0; k < jobs; k++) {
      s.service.create(s.lf.leader, CollectionJobReq.decode(
          SpecCollector.collectionJobReq(Fixture.FIRST_BUCKET + k, 1)));
    }
    List<java.util.concurrent.Callable<List<CollectionJobService.Outcome>>> steppers =
        new ArrayList<>();
    for (CollectionJobService svc : List.of(s.service, other.service(), s.service,
        other.service())) {
      steppers.add(() -> {
        List<CollectionJobService.Outcome> seen = new ArrayList<>();
        for (CollectionJobService.Outcome o = svc.step(s.lf.leader);
            o != CollectionJobService.Outcome.IDLE; o = svc.step(s.lf.leader)) {
          seen.add(o);
        }
        return seen;
      });
    }
    java.util.Map<CollectionJobService.Outcome, Long> outcomes = atOnce(steppers).stream()
        .flatMap(List::stream).collect(java.util.stream.Collectors.groupingBy(o -> o,
            java.util.stream.Collectors.counting()));
    System.out.println("CollectionJobServiceTest.twoLeaderProcesses outcomes " + outcomes
        + ", Helper asked " + s.peer.calls.get() + " times for " + jobs + " jobs");
    assertEquals(jobs, outcomes.get(CollectionJobService.Outcome.READY));
    assertEquals(jobs, s.peer.calls.get(), "the Helper was asked once per job");
    assertEquals(jobs, s.leaderShares.noiseDraws() + other.shares().noiseDraws());
    assertEquals(jobs, s.helperShares.noiseDraws());
  }

  /**
   * A Leader process dies after persisting its noised share and before the Helper answers (the
   * step never returns: its lease is left behind). After the lease expires another process, with
   * a share service that has drawn nothing, takes the job over and completes it from the
   * persisted share: no second draw anywhere, and the released bytes are the first ones.
   */
  @Test
  void aLeaderThatDiesAfterDrawingIsTakenOverWithoutANewDraw() throws Exception {
    long seed = seed("aLeaderThatDiesAfterDrawingIsTakenOverWithoutANewDraw");
    Setup s = new Setup(fixture(87, DpStrategy.PureDpDiscreteLaplace.parse("1"), null), false, 0,
        seed);
    s.writeBuckets(3);
    byte[] cjr = SpecCollector.collectionJobReq(10, 3);
    CollectionJobRecord job = s.service.create(s.lf.leader, CollectionJobReq.decode(cjr));
    final class Killed extends RuntimeException {
      Killed() {
        super("the process died here");
      }
    }
    s.peer.beforeAsk = () -> {
      throw new Killed();
    };
    assertThrows(Killed.class, () -> s.service.step(s.lf.leader));
    assertEquals(1, s.leaderShares.noiseDraws());
    byte[] noised = s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch(10, 3))).orElseThrow()
        .noisedShare().toByteArray();
    ReleasedAggregateShare released = s.leaderStore.inTaskTransaction(s.taskId(),
        tx -> tx.releases().releasedShare(batch(10, 3)))
        .orElseThrow();
    assertEquals(CollectionJobRecord.State.PENDING, s.job(job).state());
    s.peer.beforeAsk = () -> { };
    // another process: its own store connection and share service
    Replica replica = s.replica(s.leaderUrl, seed + 7);
    JdbcDatastore store2 = replica.store();
    NoisedShareService shares2 = replica.shares();
    CollectionJobService other = replica.service();
    assertEquals(CollectionJobService.Outcome.IDLE, other.step(s.lf.leader), "still leased");
    s.clock.advance(Duration.ofMinutes(5));
    assertEquals(CollectionJobService.Outcome.READY, other.step(s.lf.leader));
    assertEquals(0, shares2.noiseDraws(), "the takeover drew no noise");
    assertEquals(1, s.helperShares.noiseDraws());
    assertArrayEquals(noised, store2.inTaskTransaction(s.taskId(),
        tx -> tx.releases().noisedShare(batch(10, 3))).orElseThrow()
        .noisedShare().toByteArray());
    assertEquals(released, store2.inTaskTransaction(s.taskId(),
        tx -> tx.releases().releasedShare(batch(10, 3))).orElseThrow());
    Collected c = collect(s, s.job(job), cjr);
    assertArrayEquals(noised, c.leader());
  }

  /** A leader-selected Setup: the fixture's task as leader_selected at https://leader.example/. */
  private Setup leaderSelected(int seed, DpStrategy strategy, long noiseSeed) {
    return new Setup(CollectionFixture.leaderSelected(fixture(seed, strategy, null),
        "https://leader.example/"), false, 0, noiseSeed);
  }

  private static final DpStrategy LAPLACE = DpStrategy.PureDpDiscreteLaplace.parse("1");

  /** A Helper that does not answer in time (a retryable failure, the job stays pending). */
  private static final Runnable HELPER_TIMES_OUT = () -> {
    throw new HelperPeer.HelperException("the Helper did not answer in time", null, true, null);
  };

  /** Creates the task's "next batch" job, as a Collector's POST does. */
  private static CollectionJobRecord next(Setup s) {
    return s.service.create(s.lf.leader,
        CollectionJobReq.decode(CollectionFixture.nextBatchRequest()));
  }

  /**
   * DAP-18 "Leader-selected Batch Mode": the Collector's requests are all the same bytes; the
   * Leader answers the current job until the Collector deletes it, and each job collects a batch
   * the Leader chooses that no job had, with at least min_batch_size reports and no active
   * aggregation job; the response interval spans the batch's finished aggregation jobs.
   */
  @Test
  void leaderSelectedJobsEachCollectANewBatchTheLeaderChooses() throws Exception {
    Setup s = leaderSelected(88, new DpStrategy.NoDifferentialPrivacy(),
        seed("leaderSelectedJobsEachCollectANewBatchTheLeaderChooses"));
    TaskDefinition leaderTask = s.lf.leader;
    // batches A (bucket 0), B (bucket 1) with 20 reports each, C (bucket 2) with 5
    BatchIdentifier[] ids = new BatchIdentifier[3];
    for (int k = 0; k < 3; k++) {
      ids[k] = s.lf.writeLeaderSelectedBatch(s.leaderStore, s.helperStore, k, k == 2 ? 5 : 20);
    }
    // A's reports came from one finished job of times 10..12; B has an active job
    for (int k = 0; k < 2; k++) {
      byte[] jobId = new byte[16];
      jobId[0] = (byte) (k + 1);
      s.sql("INSERT INTO leader_aggregation_jobs (task_id, job_id, state, step,"
          + " batch_identifier, min_report_time, max_report_time, report_count, lease_owner,"
          + " lease_token, lease_expires_ms, lease_attempts, error_detail, created_at_ms,"
          + " updated_at_ms) VALUES (?, ?, ?, 0, ?, ?, ?, 20, NULL, NULL, 0, 0, NULL, 0, 0)",
          s.taskId().bytes(), jobId, k == 0 ? "finished" : "active", ids[k].bytes(),
          Long.MIN_VALUE ^ (10L + 3 * k), Long.MIN_VALUE ^ (12L + 3 * k));
    }
    byte[] next = CollectionFixture.nextBatchRequest();
    CollectionJobRecord first = next(s);
    assertEquals(first.jobId(), next(s).jobId(), "the current job answers the same request");
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(leaderTask));
    CollectionJobRecord a = s.service.poll(s.taskId(), first.jobId()).orElseThrow();
    assertEquals(ids[0], a.batch());
    Collected c = collect(s, a, next);
    long[] truth = CollectionFixture.truth(0);
    for (int i = 0; i < 8; i++) {
      assertEquals(BigInteger.valueOf(truth[i]), c.result()[i], "coordinate " + i);
    }
    assertEquals(20, c.resp().reportCount());
    assertEquals(10, c.resp().start());
    assertEquals(3, c.resp().duration());
    assertEquals(first.jobId(), next(s).jobId(), "until the Collector deletes it");

    // the next batch: B waits for its active aggregation job
    assertTrue(s.service.delete(s.taskId(), first.jobId()));
    CollectionJobRecord second = next(s);
    assertNotEquals(first.jobId(), second.jobId());
    assertEquals(CollectionJobService.Outcome.WAITING, s.service.step(leaderTask));
    s.sql("UPDATE leader_aggregation_jobs SET state = 'finished' WHERE task_id = ?",
        (Object) s.taskId().bytes());
    s.clock.advance(RETRY);
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(leaderTask));
    CollectionJobRecord b = s.service.poll(s.taskId(), second.jobId()).orElseThrow();
    assertEquals(ids[1], b.batch());
    assertEquals(13, SpecCollector.Resp.decode(b.response().orElseThrow().toByteArray()).start());

    // C is too small: the third job waits and nothing is asked
    assertTrue(s.service.delete(s.taskId(), second.jobId()));
    CollectionJobRecord third = next(s);
    int asked = s.peer.calls.get();
    s.clock.advance(RETRY);
    assertEquals(CollectionJobService.Outcome.WAITING, s.service.step(leaderTask));
    assertEquals(asked, s.peer.calls.get());
    assertEquals(CollectionJobRecord.State.PENDING, s.job(third).state());
  }

  /** Returns the Leader's persisted noised share of a batch. */
  private static byte[] noisedShare(Setup s, BatchIdentifier batch) {
    return s.leaderStore.inTaskTransaction(s.taskId(), tx -> tx.releases().noisedShare(batch))
        .orElseThrow().noisedShare().toByteArray();
  }

  /** Returns the Leader's sealed share of a batch, as stored when it was first released. */
  private static org.priodp.aggregator.dap.HpkeCiphertext releasedShare(Setup s,
      BatchIdentifier batch) {
    return org.priodp.aggregator.dap.AggregateShare.decode(s.leaderStore.inTaskTransaction(
        s.taskId(), tx -> tx.releases().releasedShare(batch)).orElseThrow().aggregateShare()
        .toByteArray()).encryptedAggregateShare();
  }

  /** Returns the Leader's sealed share in a ready job's CollectionJobResp. */
  private static org.priodp.aggregator.dap.HpkeCiphertext leaderShareOf(CollectionJobRecord job) {
    return org.priodp.aggregator.dap.CollectionJobResp.decode(job.response().orElseThrow()
        .toByteArray()).leaderEncryptedAggShare();
  }

  /**
   * DAP-18 "Collection Job Deletion" in the leader-selected mode: a pending job whose Leader share
   * was drawn and persisted, deleted by the Collector while the Helper does not answer, gives its
   * batch back, and the next "next batch" job gets that batch before a fresh one, with the
   * persisted Leader share: the same sealed bytes, no second draw (neither the share service's
   * counter nor the bits taken from the injected noise source move, and the release observer
   * heard of one persisted share). Then the batch is collected and the next job gets the fresh
   * batch.
   */
  @Test
  void aDeletedPendingLeaderSelectedJobGivesItsBatchAndItsPersistedShareToTheNextJob()
      throws Exception {
    Setup s = leaderSelected(91, LAPLACE,
        seed("aDeletedPendingLeaderSelectedJobGivesItsBatchAndItsPersistedShareToTheNextJob"));
    BatchIdentifier a = s.lf.writeLeaderSelectedBatch(s.leaderStore, s.helperStore, 0, 20);
    BatchIdentifier b = s.lf.writeLeaderSelectedBatch(s.leaderStore, s.helperStore, 1, 20);
    CollectionJobRecord first = next(s);
    s.peer.beforeAsk = HELPER_TIMES_OUT;
    assertEquals(CollectionJobService.Outcome.HELPER_RETRY, s.service.step(s.lf.leader));
    assertEquals(a, s.job(first).batch());
    assertEquals(1, s.leaderShares.noiseDraws());
    long bits = s.leaderNoise.bitsConsumed();
    byte[] noised = noisedShare(s, a);
    org.priodp.aggregator.dap.HpkeCiphertext sealed = releasedShare(s, a);
    // the Collector gives up on the job and deletes it
    assertTrue(s.service.delete(s.taskId(), first.jobId()));
    s.peer.beforeAsk = () -> { };

    CollectionJobRecord second = next(s);
    assertNotEquals(first.jobId(), second.jobId());
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    CollectionJobRecord got = s.service.poll(s.taskId(), second.jobId()).orElseThrow();
    assertEquals(a, got.batch(), "the abandoned batch before the fresh one");
    assertEquals(1, s.leaderShares.noiseDraws(), "no second draw");
    assertEquals(bits, s.leaderNoise.bitsConsumed(), "no bit taken from the noise source");
    assertEquals(List.of(a), s.released, "persisted once: the stored sealed share answered");
    assertEquals(sealed, leaderShareOf(got), "the Leader's share is the first one's bytes");
    assertArrayEquals(noised, collect(s, got, CollectionFixture.nextBatchRequest()).leader());
    assertEquals(1, s.helperShares.noiseDraws());

    // collected: the next job gets the fresh batch, drawn once
    assertTrue(s.service.delete(s.taskId(), second.jobId()));
    CollectionJobRecord third = next(s);
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    assertEquals(b, s.job(third).batch());
    assertEquals(2, s.leaderShares.noiseDraws());
    assertEquals(2, s.helperShares.noiseDraws());
  }

  /**
   * A step that leased a leader-selected job before the Collector deleted it (a replica that was
   * slow, or whose lease is about to be lost) takes no batch: the choice checks, in its task
   * transaction, that the job is still pending; nothing is drawn or asked, and the batch goes to
   * the Collector's next job.
   */
  @Test
  void aStepOfAJobDeletedMeanwhileTakesNoBatch() throws Exception {
    Setup s = leaderSelected(96, LAPLACE, seed("aStepOfAJobDeletedMeanwhileTakesNoBatch"));
    BatchIdentifier a = s.lf.writeLeaderSelectedBatch(s.leaderStore, s.helperStore, 0, 20);
    CollectionJobRecord first = next(s);
    CollectionJobLease stale = s.leaderStore.jobLeases().leaseCollectionJob(s.taskId(), "slow",
        s.clock.instant(), Duration.ofMinutes(5)).orElseThrow();
    assertTrue(s.service.delete(s.taskId(), first.jobId()));
    CollectionJobRecord second = next(s);
    assertEquals(CollectionJobService.Outcome.LEASE_LOST, s.service.step(s.lf.leader, stale));
    assertEquals(0, s.peer.calls.get(), "the Helper was not asked");
    assertEquals(0, s.leaderShares.noiseDraws());
    assertEquals(CollectionJobService.UNCHOSEN, s.job(first).batch());
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    assertEquals(a, s.job(second).batch());
    assertEquals(1, s.leaderShares.noiseDraws());
  }

  /**
   * A leader-selected job that fails (here the Helper refuses) is no longer the task's current
   * job: the Collector's next "next batch" request creates a new job, so the Collector goes on.
   * The failed job's batch goes to a job again only when no other batch is ready, with its
   * persisted Leader share (no second draw), and is collected once when the Helper answers.
   */
  @Test
  void aFailedLeaderSelectedJobDoesNotBlockTheNextBatchAndItsBatchIsRetriedLast()
      throws Exception {
    Setup s = leaderSelected(93, LAPLACE,
        seed("aFailedLeaderSelectedJobDoesNotBlockTheNextBatchAndItsBatchIsRetriedLast"));
    BatchIdentifier a = s.lf.writeLeaderSelectedBatch(s.leaderStore, s.helperStore, 0, 20);
    BatchIdentifier b = s.lf.writeLeaderSelectedBatch(s.leaderStore, s.helperStore, 1, 20);
    CollectionJobRecord first = next(s);
    s.peer.beforeAsk = () -> {
      throw new HelperPeer.HelperException("the Helper refused", DapError.BATCH_MISMATCH, false,
          null);
    };
    assertEquals(CollectionJobService.Outcome.FAILED, s.service.step(s.lf.leader));
    CollectionJobRecord failed = s.service.poll(s.taskId(), first.jobId()).orElseThrow();
    assertEquals(CollectionJobRecord.State.FAILED, failed.state(), "the Collector's GET fails");
    assertEquals(DapError.BATCH_MISMATCH.type(), failed.errorType().orElseThrow());
    assertEquals(a, failed.batch());
    byte[] noised = noisedShare(s, a);
    org.priodp.aggregator.dap.HpkeCiphertext sealed = releasedShare(s, a);
    s.peer.beforeAsk = () -> { };

    CollectionJobRecord second = next(s);
    assertNotEquals(first.jobId(), second.jobId(), "a new job: the failed one does not block");
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    assertEquals(b, s.service.poll(s.taskId(), second.jobId()).orElseThrow().batch(),
        "a fresh batch before the failed one");
    assertTrue(s.service.delete(s.taskId(), second.jobId()));

    CollectionJobRecord third = next(s);
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    CollectionJobRecord retried = s.service.poll(s.taskId(), third.jobId()).orElseThrow();
    assertEquals(a, retried.batch(), "then the failed batch, with its persisted share");
    assertEquals(sealed, leaderShareOf(retried));
    assertArrayEquals(noised, collect(s, retried, CollectionFixture.nextBatchRequest()).leader());
    assertEquals(2, s.leaderShares.noiseDraws(), "A and B drawn once each");
    assertEquals(2, s.helperShares.noiseDraws());
    assertEquals(CollectionJobRecord.State.FAILED, s.job(first).state(), "the failure stays");

    // both collected: nothing is handed out again
    assertTrue(s.service.delete(s.taskId(), third.jobId()));
    CollectionJobRecord fourth = next(s);
    int asked = s.peer.calls.get();
    assertEquals(CollectionJobService.Outcome.WAITING, s.service.step(s.lf.leader));
    assertEquals(asked, s.peer.calls.get());
    assertEquals(CollectionJobService.UNCHOSEN, s.job(fourth).batch());
  }

  /**
   * A ready leader-selected job that the Collector deletes before its CollectionJobResp was
   * answered (it gave up just as the job became ready) gives its batch to the next job, which
   * answers the byte-identical response (no draw, the same sealed shares); a job whose response
   * was answered keeps its batch collected after the deletion.
   */
  @Test
  void aReadyJobDeletedBeforeItsResponseWasAnsweredGivesItsBatchToTheNextJob() throws Exception {
    Setup s = leaderSelected(94, LAPLACE,
        seed("aReadyJobDeletedBeforeItsResponseWasAnsweredGivesItsBatchToTheNextJob"));
    BatchIdentifier a = s.lf.writeLeaderSelectedBatch(s.leaderStore, s.helperStore, 0, 20);
    BatchIdentifier b = s.lf.writeLeaderSelectedBatch(s.leaderStore, s.helperStore, 1, 20);
    CollectionJobRecord first = next(s);
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    byte[] response = s.job(first).response().orElseThrow().toByteArray();
    assertTrue(s.service.delete(s.taskId(), first.jobId()), "deleted unread");

    CollectionJobRecord second = next(s);
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    CollectionJobRecord again = next(s);
    assertEquals(second.jobId(), again.jobId(), "answered by the POST");
    assertEquals(a, again.batch());
    assertArrayEquals(response, again.response().orElseThrow().toByteArray());
    assertEquals(1, s.leaderShares.noiseDraws());
    assertEquals(1, s.helperShares.noiseDraws());

    assertTrue(s.service.delete(s.taskId(), second.jobId()));
    CollectionJobRecord third = next(s);
    assertEquals(CollectionJobService.Outcome.READY, s.service.step(s.lf.leader));
    assertEquals(b, s.job(third).batch(), "A stays collected");
  }

  /**
   * Two Leader replicas (two stores with their own connection pools on one database: PostgreSQL
   * with PRIODP_PG_URL, else one SQLite file), two threads each, take the Collector's "next
   * batch" request at once and step the task, in 20 rounds, each after the previous job was
   * abandoned with its batch noised (the Helper did not answer, the Collector deleted the job):
   * all four requests get the same new job (decided in one task transaction), which collects the
   * abandoned batch with its persisted Leader share; the Helper is asked once and nothing is
   * drawn again.
   */
  @Test
  void twoReplicasTakingTheNextBatchAtOnceAfterAnAbandonmentMakeOneJobForTheBatch()
      throws Exception {
    long seed = seed("twoReplicasTakingTheNextBatchAtOnceAfterAnAbandonmentMakeOneJobForTheBatch");
    int rounds = 20;
    Setup s = leaderSelected(95, LAPLACE, seed);
    BatchIdentifier[] ids = new BatchIdentifier[rounds];
    for (int k = 0; k < rounds; k++) {
      ids[k] = s.lf.writeLeaderSelectedBatch(s.leaderStore, s.helperStore, k, 20);
    }
    Replica other = s.replica(s.leaderUrl, seed + 1);
    for (int r = 0; r < rounds; r++) {
      CollectionJobRecord abandoned = next(s);
      s.peer.beforeAsk = HELPER_TIMES_OUT;
      assertEquals(CollectionJobService.Outcome.HELPER_RETRY, s.service.step(s.lf.leader));
      assertEquals(ids[r], s.job(abandoned).batch());
      assertTrue(s.service.delete(s.taskId(), abandoned.jobId()));
      s.peer.beforeAsk = () -> { };
      int asked = s.peer.calls.get();

      record Took(CollectionJobRecord job, CollectionJobService.Outcome outcome) {
      }
      List<java.util.concurrent.Callable<Took>> requests = new ArrayList<>();
      for (CollectionJobService replica : List.of(s.service, other.service(), s.service,
          other.service())) {
        requests.add(() -> new Took(replica.create(s.lf.leader,
            CollectionJobReq.decode(CollectionFixture.nextBatchRequest())),
            replica.step(s.lf.leader)));
      }
      List<Took> took = atOnce(requests);
      List<CollectionJobRecord> created = took.stream().map(Took::job).toList();
      List<CollectionJobService.Outcome> outcomes = took.stream().map(Took::outcome).toList();
      assertEquals(1, created.stream().map(CollectionJobRecord::jobId).distinct().count(),
          "round " + r + ": one job for all requests");
      assertEquals(1, outcomes.stream().filter(o -> o == CollectionJobService.Outcome.READY)
          .count(), "round " + r + ": " + outcomes);
      CollectionJobRecord job = s.service.poll(s.taskId(), created.get(0).jobId())
          .orElseThrow();
      assertEquals(ids[r], job.batch(), "round " + r + ": the abandoned batch");
      assertEquals(asked + 1, s.peer.calls.get(), "round " + r + ": the Helper asked once");
      assertEquals(r + 1, s.leaderShares.noiseDraws(), "round " + r + ": drawn once");
      assertEquals(0, other.shares().noiseDraws());
      assertTrue(s.service.delete(s.taskId(), job.jobId()));
    }
    assertEquals(rounds, s.helperShares.noiseDraws());
  }
}
