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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
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
import org.priodp.aggregator.service.AggregateShareHandler;
import org.priodp.aggregator.service.ServiceMetrics;
import org.priodp.aggregator.store.BatchIdentifier;
import org.priodp.aggregator.store.CollectionJobLease;
import org.priodp.aggregator.store.CollectionJobRecord;
import org.priodp.aggregator.store.JdbcAggregateShareStore;
import org.priodp.aggregator.store.NoisedAggregateShare;
import org.priodp.aggregator.store.ReleasedAggregateShare;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskDefinition;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.InProcessHelperPeer;
import org.priodp.aggregator.testing.LeaderFixture;
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

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    final AtomicReference<Instant> now;

    MutableClock(Instant start) {
      now = new AtomicReference<>(start);
    }

    void advance(Duration d) {
      now.updateAndGet(t -> t.plus(d));
    }

    @Override
    public Instant instant() {
      return now.get();
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  /** Buckets 10.. are 1000 s.. after the epoch (time_precision 100 s); by 5000 s all ended. */
  static final Instant AFTER = Instant.ofEpochSecond(5000);
  static final Duration RETRY = Duration.ofSeconds(5);

  /** Both aggregators, the Helper's background queue and the Leader's collection service. */
  final class Setup {
    final LeaderFixture lf;
    final String leaderUrl;
    final JdbcAggregateShareStore leaderStore;
    final JdbcAggregateShareStore helperStore;
    final NoisedShareService leaderShares;
    final NoisedShareService helperShares;
    final List<Runnable> helperQueue = new ArrayList<>();
    final InProcessHelperPeer peer;
    final MutableClock clock = new MutableClock(AFTER);
    final CollectionJobService service;

    Setup(Fixture f, boolean asyncHelper, int maxPolls, long seed) {
      this.lf = new LeaderFixture(f);
      String pg = System.getenv("PRIODP_PG_URL");
      leaderUrl = pg != null && !pg.isBlank() ? pg
          : "jdbc:sqlite:" + dir.resolve("leader-" + f.taskId.toBase64Url() + ".db");
      leaderStore = JdbcAggregateShareStore.open(leaderUrl);
      helperStore = JdbcAggregateShareStore.openSqlite(dir.resolve("helper-"
          + f.taskId.toBase64Url() + ".db"));
      open.add(leaderStore);
      open.add(helperStore);
      leaderShares = new NoisedShareService(leaderStore, RandomSource.seeded(
          java.nio.ByteBuffer.allocate(8).putLong(seed).array()), clock);
      helperShares = new NoisedShareService(helperStore, RandomSource.seeded(
          java.nio.ByteBuffer.allocate(8).putLong(~seed).array()), clock);
      AggregateShareHandler helper = new AggregateShareHandler(List.of(f.task), helperStore,
          helperShares, AggregateShareHandler.DEFAULT_MAX_BODY, new ServiceMetrics(), null, null,
          null, asyncHelper ? new AggregateShareHandler.AsyncShares(helperQueue::add, 1) : null);
      peer = new InProcessHelperPeer(helper, maxPolls);
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
    byte[] aad = SpecCollector.aad(s.taskId().bytes(), SpecCollector.histogramTaskConfiguration(
        8, 2, Fixture.PRECISION, 10, new byte[0]), cjr);
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
    long[] truth = LeaderFixture.truth(0, 3);
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
    long[] t3 = LeaderFixture.truth(3, 4);
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
      NoisedAggregateShare n = s.leaderStore.noisedShare(s.taskId(), batch).orElse(null);
      if (n == null) {
        fail("the Helper was asked before the Leader's noised share was persisted");
      }
      assertFalse(Arrays.equals(raw, n.noisedShare().toByteArray()),
          "the Leader persisted its un-noised share");
      assertTrue(s.leaderStore.releasedShare(s.taskId(), batch).isPresent(),
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
    byte[] noised = s.leaderStore.noisedShare(s.taskId(), batch).orElseThrow().noisedShare()
        .toByteArray();
    ReleasedAggregateShare released = s.leaderStore.releasedShare(s.taskId(), batch)
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
    assertArrayEquals(noised, s.leaderStore.noisedShare(s.taskId(), batch).orElseThrow()
        .noisedShare().toByteArray());
    assertEquals(released, s.leaderStore.releasedShare(s.taskId(), batch).orElseThrow());

    CollectionJobRecord done = s.job(job);
    Collected c = collect(s, done, cjr);
    assertArrayEquals(noised, c.leader(), "the Leader released exactly its persisted noised share");
    assertFalse(Arrays.equals(raw, c.leader()), "the Leader released its un-noised share");
    assertArrayEquals(org.priodp.aggregator.dap.AggregateShare.decode(released.aggregateShare()
        .toByteArray()).encryptedAggregateShare().encode(), new SpecTls().u8(c.resp().leader()
        .configId()).opaque16(c.resp().leader().enc()).opaque32(c.resp().leader().payload())
        .bytes(), "the response carries the stored ciphertext");
    assertArrayEquals(s.helperStore.noisedShare(s.taskId(), batch).orElseThrow().noisedShare()
        .toByteArray(), c.helper());
    assertEquals(60, c.resp().reportCount());
    BigInteger h = s.lf.leader.mechanism().noiseHalfWidthBig(2, 1 - 1e-9);
    long[] truth = LeaderFixture.truth(0, 3);
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
    s.peer.beforeAsk = () -> assertTrue(s.leaderStore.noisedShare(s.taskId(), batch(13, 3))
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
    assertArrayEquals(s.leaderStore.noisedShare(s.taskId(), batch(13, 3)).orElseThrow()
        .noisedShare().toByteArray(), c2.leader());
    assertFalse(Arrays.equals(s.lf.leaderUnnoised(3, 6), c2.leader()));
  }
}
