package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.server.Aggregator;
import org.priodp.aggregator.server.AggregatorConfig;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.MutableClock;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/**
 * The Leader's aggregation driver end to end over HTTP against a real {@link Aggregator} with
 * its own SQLite store, the Leader on another SQLite store: reports sharded with Prio3 and sealed
 * to both aggregators' keys are put into the Leader's client_reports, the driver runs, and then
 * both sides' buckets unshard to the true aggregate, with equal report counts and checksums, each
 * report counted once. Seeds are printed.
 */
class LeaderAggregationDriverTest {
  /** Each of the driver's workers on a daemon thread of its own. */
  private static final java.util.concurrent.Executor THREADS = r -> {
    Thread t = new Thread(r, "test-leader-aggregation");
    t.setDaemon(true);
    t.start();
  };

  @TempDir
  Path dir;

  private long seed;
  private Random random;
  private final List<AutoCloseable> closing = new ArrayList<>();

  @BeforeEach
  void seed() {
    seed = System.nanoTime();
    random = new Random(seed);
    System.out.println("LeaderAggregationDriverTest seed " + seed);
  }

  @AfterEach
  void close() throws Exception {
    for (int i = closing.size() - 1; i >= 0; i--) {
      closing.get(i).close();
    }
  }

  static Stream<Prio3Variant> variants() {
    return Stream.of(new Prio3Variant.Count(), new Prio3Variant.Sum(BigInteger.valueOf(100)),
        Prio3Variant.SumVec.of(3, BigInteger.valueOf(5), 2), new Prio3Variant.Histogram(10, 3),
        new Prio3Variant.MultihotCountVec(4, 2, 2), new Prio3Variant.L1BoundSum(4, BigInteger.valueOf(9), 3));
  }

  /** A Helper server, the Leader's store and keys, and the task. */
  final class Setup {
    final LeaderPair pair;
    final Datastore helperStore;
    final Datastore leaderStore;
    final Aggregator helper;
    final HpkeConfig helperKey;
    final HpkeConfig leaderKey;
    final HelperHpkeKeys leaderKeys;
    final List<List<BigInteger>> measurements = new ArrayList<>();
    final List<ReportId> ids = new ArrayList<>();
    final List<Long> times = new ArrayList<>();

    Setup(Prio3Variant variant, boolean async) throws Exception {
      this(variant, async, org.priodp.aggregator.dap.BatchMode.TIME_INTERVAL, 1);
    }

    Setup(Prio3Variant variant, boolean async, org.priodp.aggregator.dap.BatchMode mode,
        long minBatchSize) throws Exception {
      int port = LeaderPair.freePort();
      pair = new LeaderPair(variant, random, port, mode, minBatchSize);
      helperStore = JdbcDatastore.openSqlite(dir.resolve("helper-" + seed + ".db"));
      closing.add(helperStore);
      helper = Aggregator.start(AggregatorConfig.builder(List.of(pair.helper), helperStore)
          .port(port).asyncAggregation(async).build());
      closing.add(helper::close);
      helperKey = helper.hpkeKeys().ensureActive().config();
      String pg = System.getenv("PRIODP_PG_URL");
      leaderStore = Boolean.getBoolean("priodp.leaderbench.pg") && pg != null && !pg.isBlank()
          ? JdbcDatastore.open(pg)
          : JdbcDatastore.openSqlite(dir.resolve("leader-" + seed + ".db"));
      closing.add(leaderStore);
      leaderKeys = new HelperHpkeKeys(leaderStore, new SecureRandom(), Clock.systemUTC());
      leaderKey = leaderKeys.ensureActive().config();
    }

    /** Uploads n valid reports spread over the current and the previous time unit. */
    void upload(int n) {
      long now = LeaderPair.now();
      for (int i = 0; i < n; i++) {
        List<BigInteger> m = pair.measurement();
        long time = now - (i % 2);
        Report r = pair.report(leaderKey, helperKey, time, m);
        boolean inserted = leaderStore.inTaskTransaction(pair.taskId,
            tx -> tx.clientReports().insertIfAbsent(
            r.reportMetadata().reportId(), time, ByteString.copyOf(r.encode())));
        assertTrue(inserted);
        measurements.add(m);
        ids.add(r.reportMetadata().reportId());
        times.add(time);
      }
    }

    /** Uploads n valid reports, all with report time {@code time}. */
    void uploadAt(int n, long time) {
      for (int i = 0; i < n; i++) {
        List<BigInteger> m = pair.measurement();
        Report r = pair.report(leaderKey, helperKey, time, m);
        boolean inserted = leaderStore.inTaskTransaction(pair.taskId,
            tx -> tx.clientReports().insertIfAbsent(
            r.reportMetadata().reportId(), time, ByteString.copyOf(r.encode())));
        assertTrue(inserted);
        measurements.add(m);
        ids.add(r.reportMetadata().reportId());
        times.add(time);
      }
    }

    /**
     * A Helper in this process: the Helper's AggregationJobService over its store and keys,
     * reading time from {@code helperClock}; a refusal is a HelperException (HTTP 400).
     */
    HelperPeer inProcessHelper(Clock helperClock) {
      AggregationJobService jobs = new AggregationJobService(helperStore, helper.hpkeKeys(),
          helperClock, AggregationJobService.DEFAULT_CLOCK_SKEW);
      return new HelperPeer() {
        @Override
        public org.priodp.aggregator.dap.AggregationJobResp initializeAggregationJob(
            TaskDefinition task, org.priodp.aggregator.dap.AggregationJobInitReq req) {
          byte[] body = req.encode();
          try {
            return org.priodp.aggregator.dap.AggregationJobResp.decode(jobs.initialize(
                pair.helper, org.priodp.aggregator.dap.AggregationJobInitReq.decode(body),
                AggregationJobService.digest(body)).response().orElseThrow().toByteArray(),
                task.dapVersion());
          } catch (Refusal r) {
            throw new HelperException(r.getMessage(), null, false, 400, r);
          }
        }

        @Override
        public org.priodp.aggregator.dap.AggregateShare aggregateShare(TaskDefinition task,
            org.priodp.aggregator.dap.AggregateShareReq req) {
          throw new UnsupportedOperationException();
        }
      };
    }

    /** Returns how many reports the Leader's jobs in {@code state} hold. */
    int held(LeaderAggregationJob.State state) {
      return leaderStore.inTaskTransaction(pair.taskId, tx -> tx.aggregationJobs()
          .leaderJobs(List.of(state)).stream().mapToInt(LeaderAggregationJob::reportCount).sum());
    }

    LeaderAggregationDriver driver(int jobSize, Clock clock) {
      return driver(jobSize, clock, peer());
    }

    HttpHelperPeer peer() {
      return HttpHelperPeer.create(new HttpHelperPeer.Options(
          Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofMillis(20),
          Duration.ofMillis(200), Duration.ofSeconds(2)));
    }

    LeaderAggregationDriver driver(int jobSize, Clock clock, HelperPeer peer) {
      return driver(jobSize, clock, peer, "test-" + jobSize);
    }

    /** A driver with one-minute leases whose lease owner (replica) name is {@code owner}. */
    LeaderAggregationDriver driver(int jobSize, Clock clock, HelperPeer peer, String owner) {
      return new LeaderAggregationDriver(leaderStore, leaderKeys, peer, List.of(pair.leader),
          clock, new SecureRandom(), THREADS, new LeaderAggregationDriver.Options(jobSize, 1, Duration.ofMinutes(1), 5,
              Duration.ofSeconds(1), 2, Duration.ofMillis(100)), owner);
    }

    /** The merged buckets of the two time units on one side. */
    BatchAggregation merged(Datastore store) {
      long now = LeaderPair.now();
      List<BatchAggregation> buckets = store.inTaskTransaction(pair.taskId,
          tx -> tx.batchBuckets().range(BatchBuckets.timeIntervalLowerBound(now - 1),
              BatchBuckets.timeIntervalLowerBound(now + 1)));
      Prio3 prio3 = new Prio3(pair.variant);
      FieldVector sum = FieldVector.zeros(prio3.field(), prio3.outputLength());
      long count = 0;
      byte[] checksum = new byte[32];
      for (BatchAggregation b : buckets) {
        sum = sum.add(FieldVector.decode(prio3.field(), b.aggregateShare().toByteArray(),
            prio3.outputLength()));
        count += b.reportCount();
        byte[] c = b.checksum().toByteArray();
        for (int i = 0; i < 32; i++) {
          checksum[i] ^= c[i];
        }
      }
      return new BatchAggregation(pair.taskId, BatchBuckets.timeIntervalBucket(now),
          ByteString.EMPTY, ByteString.copyOf(sum.encode()), count, ByteString.copyOf(checksum));
    }

    /** Checks both sides' buckets against the reports with indexes in {@code counted}. */
    void assertAggregated(List<Integer> counted) throws Exception {
      BatchAggregation l = merged(leaderStore);
      BatchAggregation h = merged(helperStore);
      List<List<BigInteger>> ms = new ArrayList<>();
      List<ReportId> cids = new ArrayList<>();
      for (int i : counted) {
        ms.add(measurements.get(i));
        cids.add(ids.get(i));
      }
      assertEquals(counted.size(), l.reportCount(), "Leader report count");
      assertEquals(counted.size(), h.reportCount(), "Helper report count");
      assertArrayEquals(LeaderPair.checksum(cids), l.checksum().toByteArray(), "Leader checksum");
      assertArrayEquals(LeaderPair.checksum(cids), h.checksum().toByteArray(), "Helper checksum");
      Prio3 prio3 = new Prio3(pair.variant);
      List<BigInteger> sum = prio3.unshard(List.of(
          FieldVector.decode(prio3.field(), l.aggregateShare().toByteArray(), prio3.outputLength()),
          FieldVector.decode(prio3.field(), h.aggregateShare().toByteArray(), prio3.outputLength())),
          counted.size());
      assertEquals(pair.truth(ms), sum, "unsharded aggregate");
    }

    List<Integer> all() {
      List<Integer> out = new ArrayList<>();
      for (int i = 0; i < ids.size(); i++) {
        out.add(i);
      }
      return out;
    }
  }

  @ParameterizedTest
  @MethodSource("variants")
  void everyPrio3TypeAggregatesExactlyOnBothSides(Prio3Variant variant) throws Exception {
    Setup s = new Setup(variant, false);
    s.upload(50);
    LeaderAggregationDriver d = s.driver(20, Clock.systemUTC());
    assertEquals(3, d.runOnce(), "jobs of 20, 20 and 10");
    s.assertAggregated(s.all());
    assertEquals(0, d.runOnce(), "nothing left");
    s.upload(5);
    assertEquals(1, d.runOnce());
    s.assertAggregated(s.all()); // each report counted once
  }

  /**
   * DAP-19 "Leader Initialization", "Helper Initialization" with key sets that differ for a while,
   * as in a rotation done in the wrong order: the Leader has a newer key 1 the Helper does not
   * have yet. The Helper rejects every report of that job with unknown_verification_key_id and
   * counts none; the Leader puts them back into its pool and aggregates them in the next job
   * under key 0; once the Helper has key 1 and the backoff has passed, the Leader uses key 1
   * again; after the Helper retires key 0, nothing is lost.
   */
  @Test
  void aKeyTheHelperDoesNotKnowYetSendsItsReportsBackToThePoolAndAnOlderKeyAggregatesThem()
      throws Exception {
    Setup s = new Setup(new Prio3Variant.Histogram(10, 3), false);
    MutableClock clock = new MutableClock(Instant.now());
    VdafVerifyKeys leaderKeys = new VdafVerifyKeys(s.leaderStore, clock);
    VdafVerifyKeys helperKeys = new VdafVerifyKeys(s.helperStore, clock);
    byte[] key1 = new byte[32];
    random.nextBytes(key1);
    clock.advance(Duration.ofSeconds(1)); // key 1 is newer than the task file's key 0
    assertTrue(leaderKeys.add(s.pair.leader, 1, key1));
    assertEquals(1, leaderKeys.choose(s.pair.leader).orElseThrow().id(), "the newest key");
    s.upload(12);
    LeaderAggregationDriver d = s.driver(100, clock);

    assertEquals(1, d.runOnce(), "one job, under key 1");
    assertEquals(0, s.merged(s.helperStore).reportCount(), "the Helper counted none");
    assertEquals(0, s.merged(s.leaderStore).reportCount(), "nor did the Leader");
    assertTrue(leaderKeys.all(s.pair.leader).stream()
        .anyMatch(k -> k.id() == 1 && k.helperRejectedAt().isPresent()), "refusal recorded");
    assertEquals(0, leaderKeys.choose(s.pair.leader).orElseThrow().id(), "falls back to key 0");

    assertEquals(0, d.runOnce(), "back in the pool, but not before the requeue delay");
    clock.advance(LeaderAggregationDriver.REQUEUE_DELAY);
    assertEquals(1, d.runOnce(), "the same reports, in a new job under key 0");
    s.assertAggregated(s.all());

    // the Helper gets key 1; after the backoff the Leader sends key 1 and the Helper accepts it
    assertTrue(helperKeys.add(s.pair.helper, 1, key1));
    clock.advance(VdafVerifyKeys.HELPER_REFUSAL_BACKOFF.plusSeconds(1));
    assertEquals(1, leaderKeys.choose(s.pair.leader).orElseThrow().id());
    s.upload(5);
    assertEquals(1, d.runOnce());
    s.assertAggregated(s.all());
    assertTrue(leaderKeys.all(s.pair.leader).stream()
        .allMatch(k -> k.helperRejectedAt().isEmpty()), "the Helper knew key 1: note cleared");

    // key 0 retired on both sides, Leader first: reports keep aggregating under key 1
    assertTrue(leaderKeys.retire(s.pair.leader, 0));
    assertTrue(helperKeys.retire(s.pair.helper, 0));
    s.upload(3);
    assertEquals(1, d.runOnce());
    s.assertAggregated(s.all());
  }

  /**
   * DAP-19 "Leader Initialization": every attempt of a job sends the same request. The Helper
   * commits the first attempt but its answer is lost; meanwhile both sides get a newer key. The
   * retry must still name the first key (the Helper answers from its stored job); a retry under
   * the new key would be a new job to the Helper, whose reports it already counted
   * (report_replayed), and the two sides' buckets would disagree.
   */
  @Test
  void aRetriedJobSendsTheKeyOfItsFirstAttemptEvenAfterANewerKeyArrives() throws Exception {
    Setup s = new Setup(new Prio3Variant.Count(), false);
    MutableClock clock = new MutableClock(Instant.now());
    s.upload(8);
    HttpHelperPeer http = s.peer();
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    HelperPeer losesTheFirstAnswer = new HelperPeer() {
      @Override
      public org.priodp.aggregator.dap.AggregationJobResp initializeAggregationJob(
          TaskDefinition task, org.priodp.aggregator.dap.AggregationJobInitReq req) {
        org.priodp.aggregator.dap.AggregationJobResp resp = http.initializeAggregationJob(task, req);
        if (calls.getAndIncrement() == 0) {
          throw new HelperException("the answer was lost", null, true, null);
        }
        return resp;
      }

      @Override
      public org.priodp.aggregator.dap.AggregateShare aggregateShare(TaskDefinition task,
          org.priodp.aggregator.dap.AggregateShareReq req) {
        return http.aggregateShare(task, req);
      }
    };
    LeaderAggregationDriver d = s.driver(100, clock, losesTheFirstAnswer);
    d.createJobs();
    assertEquals(LeaderAggregationDriver.Outcome.RETRY_LATER, d.stepOnce());
    assertEquals(8, s.merged(s.helperStore).reportCount(), "the Helper committed attempt 1");

    byte[] key1 = new byte[32];
    random.nextBytes(key1);
    clock.advance(Duration.ofSeconds(5)); // past the retry delay; key 1 is the newest
    assertTrue(new VdafVerifyKeys(s.helperStore, clock).add(s.pair.helper, 1, key1));
    assertTrue(new VdafVerifyKeys(s.leaderStore, clock).add(s.pair.leader, 1, key1));
    assertEquals(LeaderAggregationDriver.Outcome.FINISHED, d.stepOnce());
    assertEquals(2, calls.get());
    s.assertAggregated(s.all());
  }

  @Test
  void asynchronousHelperWithRetryAfter() throws Exception {
    Setup s = new Setup(new Prio3Variant.Histogram(10, 3), true);
    s.upload(30);
    LeaderAggregationDriver d = s.driver(10, Clock.systemUTC());
    assertEquals(3, d.runOnce());
    s.assertAggregated(s.all());
  }

  @Test
  void badReportsAreRejectedByTheLeaderAndNotSent() throws Exception {
    Setup s = new Setup(new Prio3Variant.Sum(BigInteger.valueOf(100)), false);
    s.upload(10);
    // a report whose Leader share is sealed to the Helper's key: the Leader cannot open it
    List<BigInteger> m = s.pair.measurement();
    long time = LeaderPair.now();
    Report good = s.pair.report(s.helperKey, s.helperKey, time, m);
    HpkeCiphertext c = good.reportMetadata() == null ? null : good.leaderEncryptedInputShare();
    Report bad = new Report(good.reportMetadata(), good.publicShare(), new HpkeCiphertext(
        s.leaderKey.id(), c.enc(), c.payload()), good.helperEncryptedInputShare());
    s.leaderStore.inTaskTransaction(s.pair.taskId, tx -> tx.clientReports().insertIfAbsent(
        bad.reportMetadata().reportId(), time, ByteString.copyOf(bad.encode())));
    s.leaderStore.inTaskTransaction(s.pair.taskId,
        tx -> tx.clientReports().insertIfAbsent(new ReportId(
        new byte[16]), time, ByteString.copyOf(new byte[] {1, 2, 3})));
    assertEquals(1, s.driver(100, Clock.systemUTC()).runOnce());
    s.assertAggregated(s.all());
  }

  @Test
  void reportsOfABatchTheLeaderAlreadyReleasedAreNeverSentToTheHelper() throws Exception {
    Setup s = new Setup(new Prio3Variant.Count(), false);
    s.upload(10); // even indexes at the current time unit, odd ones at the previous unit
    long previous = LeaderPair.now() - 1;
    // the Leader released a batch covering the previous unit after these reports were uploaded
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:"
        + dir.resolve("leader-" + seed + ".db"));
        java.sql.PreparedStatement p = c.prepareStatement("INSERT INTO collected_intervals"
            + " (task_id, batch_identifier, range_start, range_end) VALUES (?, ?, ?, ?)")) {
      p.setBytes(1, s.pair.taskId.bytes());
      p.setBytes(2, new byte[] {1});
      p.setLong(3, Long.MIN_VALUE ^ previous);
      p.setLong(4, Long.MIN_VALUE ^ (previous + 1));
      p.executeUpdate();
    }
    assertEquals(1, s.driver(100, Clock.systemUTC()).runOnce());
    List<Integer> current = new ArrayList<>();
    for (int i = 0; i < 10; i += 2) {
      current.add(i);
    }
    // both sides count exactly the reports of the unreleased unit: the Helper never saw the
    // others (had it, it would count them and the released batch would mismatch)
    s.assertAggregated(current);
  }

  @Test
  void leaderSelectedJobsFillBatchesToTheMinimumOnBothSides() throws Exception {
    Setup s = new Setup(Prio3Variant.SumVec.of(3, BigInteger.valueOf(5), 2),
        false, org.priodp.aggregator.dap.BatchMode.LEADER_SELECTED, 15);
    s.upload(40);
    LeaderAggregationDriver d = s.driver(10, Clock.systemUTC());
    assertEquals(4, d.runOnce());
    // jobs of 10: the first batch takes two jobs (10 < 15), the second the next two
    java.util.Map<org.priodp.aggregator.datastore.BatchIdentifier, Long> batches =
        new java.util.LinkedHashMap<>();
    Prio3 prio3 = new Prio3(s.pair.variant);
    List<FieldVector> shares = new ArrayList<>();
    long total = 0;
    for (org.priodp.aggregator.datastore.BatchIdentifier b : batchesOf(s)) {
      BatchAggregation l = s.leaderStore.inTaskTransaction(s.pair.taskId,
          tx -> tx.batchBuckets().get(b)).orElseThrow();
      BatchAggregation h = s.helperStore.inTaskTransaction(s.pair.taskId,
          tx -> tx.batchBuckets().get(b)).orElseThrow();
      assertEquals(20, l.reportCount(), "Leader batch count");
      assertEquals(l.reportCount(), h.reportCount(), "Helper batch count");
      assertEquals(l.checksum(), h.checksum(), "checksums agree");
      batches.put(b, l.reportCount());
      shares.add(FieldVector.decode(prio3.field(), l.aggregateShare().toByteArray(),
          prio3.outputLength()));
      shares.add(FieldVector.decode(prio3.field(), h.aggregateShare().toByteArray(),
          prio3.outputLength()));
      total += l.reportCount();
    }
    assertEquals(2, batches.size(), "two batches: " + batches);
    assertEquals(40, total);
    FieldVector leader = shares.get(0).add(shares.get(2));
    FieldVector helper = shares.get(1).add(shares.get(3));
    assertEquals(s.pair.truth(s.measurements), prio3.unshard(List.of(leader, helper), 40));
  }

  /** Returns the distinct batches of the task's Leader jobs, in creation order. */
  private List<org.priodp.aggregator.datastore.BatchIdentifier> batchesOf(Setup s)
      throws Exception {
    List<org.priodp.aggregator.datastore.BatchIdentifier> out = new ArrayList<>();
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:"
        + dir.resolve("leader-" + seed + ".db"));
        java.sql.PreparedStatement p = c.prepareStatement("SELECT batch_identifier FROM"
            + " leader_aggregation_jobs WHERE task_id = ? ORDER BY created_at_ms, job_id")) {
      p.setBytes(1, s.pair.taskId.bytes());
      try (java.sql.ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          org.priodp.aggregator.datastore.BatchIdentifier b =
              org.priodp.aggregator.datastore.BatchIdentifier.of(rs.getBytes(1));
          if (!out.contains(b)) {
            out.add(b);
          }
        }
      }
    }
    return out;
  }

  /** A clock the test moves. */
  static final class MovableClock extends Clock {
    volatile Instant now = Instant.now();

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void anExpiredLeaseIsTakenOverAndNothingIsCountedTwice() throws Exception {
    Setup s = new Setup(new Prio3Variant.Histogram(10, 3), false);
    s.upload(40);
    MovableClock clock = new MovableClock();
    LeaderAggregationDriver dead = s.driver(20, clock);
    LeaderAggregationDriver alive = s.driver(20, clock);
    assertEquals(2, dead.createJobs());
    // the dead lessee holds both jobs; while their leases run, nobody else takes them
    LeaderAggregationJob first = dead.lease().orElseThrow();
    LeaderAggregationJob second = dead.lease().orElseThrow();
    assertEquals(LeaderAggregationDriver.Outcome.IDLE, alive.stepOnce());
    // it even got as far as the Helper with the first job before it died
    assertEquals(LeaderAggregationDriver.Outcome.FINISHED, dead.step(first));
    clock.now = clock.now.plus(Duration.ofMinutes(2));
    // the second job's lease expired: another driver takes it over
    LeaderAggregationJob takenOver = alive.lease().orElseThrow();
    assertEquals(second.jobId(), takenOver.jobId());
    // the dead lessee wakes up and tries to commit the job it no longer holds: dropped
    assertEquals(LeaderAggregationDriver.Outcome.LEASE_LOST, dead.step(second));
    assertEquals(LeaderAggregationDriver.Outcome.FINISHED, alive.step(takenOver));
    assertEquals(LeaderAggregationDriver.Outcome.IDLE, alive.stepOnce());
    s.assertAggregated(s.all());
    Optional<LeaderAggregationJob> j = s.leaderStore.inTaskTransaction(s.pair.taskId,
        tx -> tx.aggregationJobs().leader(second.jobId()));
    assertEquals(LeaderAggregationJob.State.FINISHED, j.orElseThrow().state());
    assertEquals(2, j.get().leaseAttempts());
  }

  /** A Setup whose in-process Helper's clock is behind the reports, and the Leader's driver. */
  record Skewed(Setup s, long time, MutableClock leaderClock, MutableClock helperClock,
      LeaderAggregationDriver driver) {}

  /**
   * Returns a Setup with {@code reports} reports of the current time unit, a Leader clock at
   * now and an in-process Helper whose clock is {@code behind} the reports' time.
   */
  private Skewed skewed(Prio3Variant variant, int reports, Duration behind) throws Exception {
    Setup s = new Setup(variant, false);
    long time = LeaderPair.now();
    MutableClock leaderClock = new MutableClock(Instant.now());
    MutableClock helperClock = new MutableClock(
        Instant.ofEpochSecond(time * LeaderPair.PRECISION).minus(behind));
    s.uploadAt(reports, time);
    return new Skewed(s, time, leaderClock, helperClock,
        s.driver(100, leaderClock, s.inProcessHelper(helperClock)));
  }

  /**
   * Issue 24, DAP-19 "Leader Initialization" (a report rejected with report_too_early may go into
   * a later job): a Helper whose clock is 10 minutes behind the reports rejects all 80 as
   * report_too_early; they go back to the Leader's pool, not before the requeue delay; once the
   * Helper's clock is right, the next job aggregates every report exactly once on both sides.
   * Before the fix the 80 reports stayed with the finished job and were lost.
   */
  @Test
  void reportsAHelperBehindRejectsAsTooEarlyAreAggregatedOnceItsClockIsRight() throws Exception {
    Skewed k = skewed(new Prio3Variant.Histogram(10, 3), 80, Duration.ofMinutes(10));
    Setup s = k.s();
    long time = k.time();
    MutableClock leaderClock = k.leaderClock();
    MutableClock helperClock = k.helperClock();
    LeaderAggregationDriver d = k.driver();

    assertEquals(1, d.runOnce());
    assertEquals(0, s.merged(s.helperStore).reportCount(), "the Helper counted none");
    assertEquals(0, s.merged(s.leaderStore).reportCount(), "nor did the Leader");
    assertEquals(0, s.held(LeaderAggregationJob.State.FINISHED), "all 80 back in the pool");
    boolean outstanding = s.leaderStore.inTaskTransaction(s.pair.taskId,
        tx -> tx.clientReports().outstanding(time, time + 1));
    assertTrue(outstanding, "outstanding for collection");
    assertEquals(0, d.runOnce(), "not before the requeue delay");

    helperClock.now.set(leaderClock.instant());
    leaderClock.advance(LeaderAggregationDriver.REQUEUE_DELAY);
    assertEquals(1, d.runOnce(), "a new job of the same reports: a request the Helper never saw");
    s.assertAggregated(s.all());
    assertEquals(80, s.held(LeaderAggregationJob.State.FINISHED));
    leaderClock.advance(LeaderAggregationDriver.MAX_REQUEUE_DELAY);
    assertEquals(0, d.runOnce(), "nothing left");
    s.assertAggregated(s.all());
  }

  /**
   * The identical-request rule: a lone report the Helper rejected as report_too_early has only
   * one possible request, which the Helper answers from its stored job (report_too_early again,
   * even after its clock is right). The Leader does not send it again: the report waits in the
   * pool, without using up its placements, until others join it, and the three (a request never
   * sent) are aggregated. Sending the lone report again would have used up its placements on the
   * stored answer and lost it.
   */
  @Test
  void aLoneReportWaitsForCompanyRatherThanResendAnIdenticalRequest() throws Exception {
    Skewed k = skewed(new Prio3Variant.Count(), 1, Duration.ofMinutes(10));
    Setup s = k.s();
    long time = k.time();
    MutableClock leaderClock = k.leaderClock();
    MutableClock helperClock = k.helperClock();
    LeaderAggregationDriver d = k.driver();
    assertEquals(1, d.runOnce());
    assertEquals(0, s.merged(s.helperStore).reportCount());

    helperClock.now.set(leaderClock.instant());
    leaderClock.advance(LeaderAggregationDriver.REQUEUE_DELAY);
    assertEquals(1, d.runOnce(), "a job, which finds no request the Helper has not seen");
    assertEquals(0, s.merged(s.leaderStore).reportCount(), "not sent, not counted");
    assertEquals(0, s.merged(s.helperStore).reportCount());
    assertEquals(0, s.held(LeaderAggregationJob.State.FINISHED), "back in the pool");

    // alone, it waits (an hour at a time) and is never given up: the Helper never saw why
    for (int round = 0; round < LeaderAggregationDriver.MAX_PLACEMENTS + 2; round++) {
      leaderClock.advance(LeaderAggregationDriver.MAX_REQUEUE_DELAY);
      d.runOnce();
    }
    assertEquals(0, d.reportsGivenUp());
    leaderClock.advance(LeaderAggregationDriver.MAX_REQUEUE_DELAY);
    s.uploadAt(2, time);
    assertEquals(1, d.runOnce(), "the lone report with company");
    s.assertAggregated(s.all());
  }

  /**
   * A job active when migration 12 ran (order salt -1) may have sent its first request in the
   * order of version 11 (report time, then report ID); its retry sends that order, so the Helper
   * answers from its stored job instead of seeing a new job of reports it already counted.
   */
  @Test
  void aJobFromBeforeMigration12SendsItsReportsInTheOldOrder() throws Exception {
    Setup s = new Setup(new Prio3Variant.Count(), false);
    s.upload(12);
    List<List<ReportId>> sent = new ArrayList<>();
    HttpHelperPeer http = s.peer();
    HelperPeer recording = new HelperPeer() {
      @Override
      public org.priodp.aggregator.dap.AggregationJobResp initializeAggregationJob(
          TaskDefinition task, org.priodp.aggregator.dap.AggregationJobInitReq req) {
        sent.add(req.reportIds());
        return http.initializeAggregationJob(task, req);
      }

      @Override
      public org.priodp.aggregator.dap.AggregateShare aggregateShare(TaskDefinition task,
          org.priodp.aggregator.dap.AggregateShareReq req) {
        return http.aggregateShare(task, req);
      }
    };
    LeaderAggregationDriver d = s.driver(100, Clock.systemUTC(), recording);
    assertEquals(1, d.createJobs());
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:"
        + dir.resolve("leader-" + seed + ".db"));
        java.sql.Statement st = c.createStatement()) {
      assertEquals(1, st.executeUpdate("UPDATE leader_aggregation_jobs SET order_salt = -1"));
    }
    assertEquals(1, d.runOnce());
    List<ReportId> oldOrder = new ArrayList<>();
    for (long t : new long[] {LeaderPair.now() - 1, LeaderPair.now()}) {
      for (int i = 0; i < s.ids.size(); i++) {
        if (s.times.get(i) == t) {
          oldOrder.add(s.ids.get(i));
        }
      }
    }
    oldOrder.sort((a, b) -> Long.compare(s.times.get(s.ids.indexOf(a)),
        s.times.get(s.ids.indexOf(b))) != 0
        ? Long.compare(s.times.get(s.ids.indexOf(a)), s.times.get(s.ids.indexOf(b)))
        : java.util.Arrays.compareUnsigned(a.bytes(), b.bytes()));
    assertEquals(List.of(oldOrder), sent);
    s.assertAggregated(s.all());
  }

  /**
   * The bound: a Helper that stays behind rejects the same reports as report_too_early in every
   * job; each placement waits twice as long as the one before; after {@link
   * LeaderAggregationDriver#MAX_PLACEMENTS} placements the reports are given up for good (counted,
   * and they stay with their last job), and no further job takes them.
   */
  @Test
  void reportsAreGivenUpAfterTenPlacements() throws Exception {
    Skewed k = skewed(new Prio3Variant.Count(), 5, Duration.ofHours(2));
    Setup s = k.s();
    MutableClock leaderClock = k.leaderClock();
    LeaderAggregationDriver d = k.driver();
    Duration wait = LeaderAggregationDriver.REQUEUE_DELAY;
    for (int placement = 1; placement <= LeaderAggregationDriver.MAX_PLACEMENTS; placement++) {
      assertEquals(1, d.runOnce(), "placement " + placement);
      if (placement == LeaderAggregationDriver.MAX_PLACEMENTS) {
        break;
      }
      assertEquals(0, d.reportsGivenUp(), "after placement " + placement);
      leaderClock.advance(wait.minusSeconds(1));
      assertEquals(0, d.runOnce(), "not before " + wait + " after placement " + placement);
      leaderClock.advance(Duration.ofSeconds(1));
      wait = wait.multipliedBy(2).compareTo(LeaderAggregationDriver.MAX_REQUEUE_DELAY) > 0
          ? LeaderAggregationDriver.MAX_REQUEUE_DELAY : wait.multipliedBy(2);
    }
    assertEquals(5, d.reportsGivenUp());
    assertEquals(5, s.held(LeaderAggregationJob.State.FINISHED), "they stay with the last job");
    leaderClock.advance(Duration.ofDays(1));
    assertEquals(0, d.runOnce(), "given up for good");
    assertEquals(0, s.merged(s.helperStore).reportCount());
  }

  /**
   * Issue 24: a Leader whose bearer token the Helper refuses (HTTP 401/403, over HTTP) keeps the
   * job, beyond maxAttempts, with a backoff that doubles from retryDelay; once the operator fixes
   * the token every report is counted. Before the fix the job was abandoned at the first 401 and
   * its reports were lost.
   */
  @Test
  void aJobRefusedForAWrongTokenIsRetriedWithBackoffAndCountedOnceTheTokenIsFixed()
      throws Exception {
    Setup s = new Setup(new Prio3Variant.Count(), false);
    TaskDefinition right = s.pair.leader;
    TaskDefinition wrong = new TaskDefinition(right.taskId(), right.role(), right.configuration(),
        right.variant(), right.dpStrategy(), right.sensitivityRule(),
        right.collectorHpkeConfig(), org.priodp.aggregator.task.AuthToken.of(
            "wrong-token_0123456789")).withVdafVerifyKeys(Map.of(0, s.pair.verifyKey));
    java.util.concurrent.atomic.AtomicReference<TaskDefinition> task =
        new java.util.concurrent.atomic.AtomicReference<>(wrong);
    s.upload(12);
    MutableClock clock = new MutableClock(Instant.now());
    Duration retry = Duration.ofSeconds(30);
    LeaderAggregationDriver d = new LeaderAggregationDriver(s.leaderStore, s.leaderKeys, s.peer(),
        () -> List.of(task.get()), clock, new SecureRandom(), THREADS,
        new LeaderAggregationDriver.Options(100, 1, Duration.ofMinutes(1), 2, retry, 1,
            Duration.ofMillis(100)), "t");
    assertEquals(1, d.createJobs());
    ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger)
        org.slf4j.LoggerFactory.getLogger(LeaderAggregationDriver.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
        new ch.qos.logback.core.read.ListAppender<>();
    captured.start();
    log.addAppender(captured);
    ch.qos.logback.classic.Level level = log.getLevel();
    log.setLevel(ch.qos.logback.classic.Level.INFO);
    try {
      Duration wait = retry;
      for (int attempt = 1; attempt <= 4; attempt++) {
        assertEquals(LeaderAggregationDriver.Outcome.RETRY_LATER, d.stepOnce(),
            "attempt " + attempt);
        clock.advance(wait.minusSeconds(1));
        assertEquals(LeaderAggregationDriver.Outcome.IDLE, d.stepOnce(), "backoff " + wait);
        clock.advance(Duration.ofSeconds(1));
        wait = wait.multipliedBy(2);
      }
      assertEquals(0, s.merged(s.helperStore).reportCount());
      task.set(right); // the operator fixes the token
      assertEquals(LeaderAggregationDriver.Outcome.FINISHED, d.stepOnce());
      s.assertAggregated(s.all());
    } finally {
      log.detachAppender(captured);
      log.setLevel(level);
    }
    List<String> lines = captured.list.stream()
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
    assertEquals(4, lines.stream().filter(l -> l.contains("HTTP 40")
        && l.contains("check the task's leader auth token")).count(), lines.toString());
    assertTrue(lines.contains("task " + right.taskId().toBase64Url()
        + ": Helper reachable again after 4 failed attempts"), lines.toString());
  }

  /**
   * Issue 24, clock skew named on the Leader: the Helper's HTTP Date header says its clock is 10
   * minutes behind this Leader's; the Leader logs one WARN naming it, not again within the hour
   * (one line per task per hour, never one per job), and again after the hour.
   */
  @Test
  void aHelperClockBehindIsNamedOncePerTaskPerHour() throws Exception {
    Setup s = new Setup(new Prio3Variant.Count(), false);
    MutableClock clock = new MutableClock(Instant.now().plus(Duration.ofMinutes(10)));
    ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger)
        org.slf4j.LoggerFactory.getLogger(LeaderAggregationDriver.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
        new ch.qos.logback.core.read.ListAppender<>();
    captured.start();
    log.addAppender(captured);
    try {
      LeaderAggregationDriver d = s.driver(100, clock);
      s.upload(2);
      assertEquals(1, d.runOnce());
      s.upload(2);
      clock.advance(Duration.ofMinutes(1));
      assertEquals(1, d.runOnce());
      java.util.function.Supplier<List<String>> skews = () -> captured.list.stream()
          .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
          .filter(m -> m.contains("the Helper's clock is")).toList();
      assertEquals(1, skews.get().size(), captured.list.toString());
      assertTrue(skews.get().get(0).matches(".*the Helper's clock is (9m 5[0-9]s|10m [0-9]s)"
          + " behind this Leader's.*"), skews.get().get(0));
      s.upload(2);
      clock.advance(Duration.ofHours(1));
      assertEquals(1, d.runOnce());
      assertEquals(2, skews.get().size(), "again after the hour");
    } finally {
      log.detachAppender(captured);
    }
  }

  /**
   * A Helper that is down (connection refused) keeps the job active beyond maxAttempts, with a
   * backoff that doubles from retryDelay; nothing is abandoned or counted meanwhile.
   */
  @Test
  void aFailingHelperLeavesTheJobActiveWithBackoffBeyondMaxAttempts() throws Exception {
    Setup s = new Setup(new Prio3Variant.Count(), false);
    s.upload(5);
    s.helper.close(); // the Helper is gone: connection refused
    MovableClock clock = new MovableClock();
    HttpHelperPeer peer = HttpHelperPeer.create(new HttpHelperPeer.Options(Duration.ofSeconds(2),
        Duration.ofMillis(300), Duration.ofMillis(20), Duration.ofMillis(50),
        Duration.ofSeconds(1)));
    LeaderAggregationDriver d = new LeaderAggregationDriver(s.leaderStore, s.leaderKeys, peer,
        List.of(s.pair.leader), clock, new SecureRandom(), THREADS,
        new LeaderAggregationDriver.Options(10, 1,
            Duration.ofMinutes(1), 2, Duration.ofSeconds(30), 1, Duration.ofMillis(100)), "t");
    assertEquals(1, d.createJobs());
    Duration wait = Duration.ofSeconds(30);
    for (int attempt = 1; attempt <= 4; attempt++) {
      assertEquals(LeaderAggregationDriver.Outcome.RETRY_LATER, d.stepOnce(), "attempt " + attempt);
      clock.now = clock.now.plus(wait.minusSeconds(1));
      assertEquals(LeaderAggregationDriver.Outcome.IDLE, d.stepOnce(), "not before " + wait);
      clock.now = clock.now.plus(Duration.ofSeconds(1));
      wait = wait.multipliedBy(2);
    }
    assertEquals(0, s.merged(s.leaderStore).reportCount());
    assertEquals(5, s.held(LeaderAggregationJob.State.ACTIVE), "the job keeps its reports");
  }

  /**
   * Throughput, run only with {@code -Dpriodp.leaderbench.reports=N}: N Prio3Histogram(10)
   * reports, jobs of 1000, Leader and Helper on SQLite over loopback HTTP; prints reports/s of
   * the driver (all workers) from the first job to the last commit, report generation excluded.
   */
  @Test
  void throughput() throws Exception {
    int n = Integer.getInteger("priodp.leaderbench.reports", 0);
    org.junit.jupiter.api.Assumptions.assumeTrue(n > 0, "-Dpriodp.leaderbench.reports not set");
    int workers = Integer.getInteger("priodp.leaderbench.workers", 2);
    Setup s = new Setup(new Prio3Variant.Histogram(10, 3), false);
    s.upload(n);
    HttpHelperPeer peer = HttpHelperPeer.create(HttpHelperPeer.Options.defaults());
    LeaderAggregationDriver d = new LeaderAggregationDriver(s.leaderStore, s.leaderKeys, peer,
        List.of(s.pair.leader), Clock.systemUTC(), new SecureRandom(), THREADS,
        new LeaderAggregationDriver.Options(1000, 1,
            Duration.ofMinutes(10), 10, Duration.ofSeconds(30), workers, Duration.ofMillis(20)),
        "bench");
    long t0 = System.nanoTime();
    d.start();
    while (s.merged(s.leaderStore).reportCount() < n) {
      Thread.sleep(20);
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    d.close();
    System.out.printf("leader aggregation: %d Prio3Histogram(10) reports, jobs of 1000, %d"
        + " workers, SQLite: %d ms, %.0f reports/s%n", n, workers, ms, n * 1000.0 / ms);
    s.assertAggregated(s.all());
  }

  /**
   * A replica stopped (SIGTERM: its worker interrupted) while it waits for the Helper says so in
   * one INFO line and frees the job's lease for the next run at once; it does not warn that the
   * Helper may be down, and the job is not counted as a Helper failure.
   */
  @Test
  void aStopWhileTalkingToTheHelperFreesTheLeaseWithoutBlamingTheHelper() throws Exception {
    Setup s = new Setup(new Prio3Variant.Count(), false);
    MutableClock clock = new MutableClock(Instant.now());
    s.upload(4);
    HttpHelperPeer http = s.peer();
    java.util.concurrent.atomic.AtomicBoolean stopping =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    HelperPeer interrupted = new HelperPeer() {
      @Override
      public org.priodp.aggregator.dap.AggregationJobResp initializeAggregationJob(
          TaskDefinition task, org.priodp.aggregator.dap.AggregationJobInitReq req) {
        if (stopping.getAndSet(false)) {
          throw new HelperException("interrupted while waiting for the Helper", null, true,
              new InterruptedException());
        }
        return http.initializeAggregationJob(task, req);
      }

      @Override
      public org.priodp.aggregator.dap.AggregateShare aggregateShare(TaskDefinition task,
          org.priodp.aggregator.dap.AggregateShareReq req) {
        return http.aggregateShare(task, req);
      }
    };
    LeaderAggregationDriver d = s.driver(100, clock, interrupted);
    d.createJobs();
    List<String> lines = logged(() -> assertEquals(LeaderAggregationDriver.Outcome.RETRY_LATER,
        d.stepOnce()));
    assertTrue(lines.stream().anyMatch(l -> l.contains("stopped while talking to the Helper")),
        lines.toString());
    assertTrue(lines.stream().noneMatch(l -> l.contains("check that the Helper")),
        "no blame on the Helper: " + lines);
    // the lease is free at once (no backoff) and no Helper failure was counted
    assertEquals(LeaderAggregationDriver.Outcome.FINISHED, d.stepOnce());
    s.assertAggregated(s.all());
  }

  /** Captures the driver's log lines at INFO and above while it runs {@code body}. */
  private static List<String> logged(ThrowingRunnable body) throws Exception {
    ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger)
        org.slf4j.LoggerFactory.getLogger(LeaderAggregationDriver.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
        new ch.qos.logback.core.read.ListAppender<>();
    captured.start();
    ch.qos.logback.classic.Level level = log.getLevel();
    log.setLevel(ch.qos.logback.classic.Level.INFO);
    log.addAppender(captured);
    try {
      body.run();
    } finally {
      log.detachAppender(captured);
      log.setLevel(level);
    }
    return captured.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(
        ch.qos.logback.classic.Level.INFO)).map(e -> e.getFormattedMessage()).toList();
  }

  /** A test body that may throw. */
  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }

  /**
   * Issue 24: a replica killed while it holds two job leases, restarted under the same name
   * within the lease, frees them and finishes both at once (before the fix it waited for the
   * expiry: the owner was host/pid, and nothing freed a lease); another replica did not get
   * them meanwhile. No takeover is logged: the leases were given back.
   */
  @Test
  void aReplicaRestartedUnderItsNameReclaimsItsLeasesAtOnce() throws Exception {
    Setup s = new Setup(new Prio3Variant.Histogram(10, 3), false);
    s.upload(40);
    MovableClock clock = new MovableClock();
    HelperPeer peer = s.peer();
    LeaderAggregationDriver killed = s.driver(20, clock, peer, "replica-a");
    assertEquals(2, killed.createJobs());
    killed.lease().orElseThrow();
    killed.lease().orElseThrow();
    LeaderAggregationDriver restarted = s.driver(20, clock, peer, "replica-a");
    LeaderAggregationDriver other = s.driver(20, clock, peer, "replica-b");
    assertEquals(LeaderAggregationDriver.Outcome.IDLE, other.stepOnce(), "both still leased");
    List<String> lines = logged(() -> {
      assertEquals(2, restarted.reclaimLeases());
      assertEquals(LeaderAggregationDriver.Outcome.FINISHED, restarted.stepOnce());
      assertEquals(LeaderAggregationDriver.Outcome.FINISHED, restarted.stepOnce());
      assertEquals(LeaderAggregationDriver.Outcome.IDLE, restarted.stepOnce());
    });
    s.assertAggregated(s.all());
    assertTrue(lines.stream().anyMatch(l -> l.contains("replica replica-a: freed 2 job"
        + " lease(s)")), lines.toString());
    assertTrue(lines.stream().noneMatch(l -> l.contains("taking over")), lines.toString());
    assertEquals(0, restarted.reclaimLeases(), "nothing left to free");
  }

  /**
   * Issue 24: while a job's Helper call takes longer than the lease, the heartbeat keeps the
   * lease (another replica does not take the job); once a replica stops renewing (paused past
   * its lease), another takes the job over and logs from whom, the paused one's renewal finds
   * the lease lost and its late commit changes nothing. Fails without the renewal (the second
   * replica takes the job while the first still works on it).
   */
  @Test
  void theHeartbeatKeepsASlowJobAndATakeoverIsLogged() throws Exception {
    Setup s = new Setup(new Prio3Variant.Histogram(10, 3), false);
    s.upload(40);
    MovableClock clock = new MovableClock();
    HelperPeer real = s.peer();
    java.util.concurrent.CountDownLatch inHelper = new java.util.concurrent.CountDownLatch(2);
    java.util.concurrent.CountDownLatch answer = new java.util.concurrent.CountDownLatch(1);
    HelperPeer slow = new HelperPeer() {
      @Override
      public org.priodp.aggregator.dap.AggregationJobResp initializeAggregationJob(
          TaskDefinition task, org.priodp.aggregator.dap.AggregationJobInitReq req) {
        inHelper.countDown();
        try {
          answer.await();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        return real.initializeAggregationJob(task, req);
      }

      @Override
      public org.priodp.aggregator.dap.AggregateShare aggregateShare(TaskDefinition task,
          org.priodp.aggregator.dap.AggregateShareReq req) {
        return real.aggregateShare(task, req);
      }
    };
    LeaderAggregationDriver a = s.driver(20, clock, slow, "replica-a");
    LeaderAggregationDriver b = s.driver(20, clock, real, "replica-b");
    assertEquals(2, a.createJobs());
    LeaderAggregationJob kept = a.lease().orElseThrow();
    LeaderAggregationJob paused = a.lease().orElseThrow();
    java.util.concurrent.ExecutorService steps = java.util.concurrent.Executors
        .newFixedThreadPool(2);
    try {
      java.util.concurrent.Future<LeaderAggregationDriver.Outcome> keptStep =
          steps.submit(() -> a.step(kept));
      java.util.concurrent.Future<LeaderAggregationDriver.Outcome> pausedStep =
          steps.submit(() -> a.step(paused));
      assertTrue(inHelper.await(60, java.util.concurrent.TimeUnit.SECONDS));
      // both wait on the Helper for 50 s, then 50 s more (one-minute leases), renewed between
      clock.now = clock.now.plusSeconds(50);
      assertEquals(0, a.renewLeases());
      clock.now = clock.now.plusSeconds(50);
      assertEquals(LeaderAggregationDriver.Outcome.IDLE, b.stepOnce(), "renewed: not taken");
      // a pause: no renewal for two minutes; b takes both over and says from whom
      clock.now = clock.now.plusSeconds(120);
      List<String> lines = logged(() -> {
        assertEquals(LeaderAggregationDriver.Outcome.FINISHED, b.stepOnce());
        assertEquals(LeaderAggregationDriver.Outcome.FINISHED, b.stepOnce());
      });
      assertEquals(2, lines.stream().filter(l -> l.contains("taking over from replica"
          + " replica-a, whose lease expired at")).count(), lines.toString());
      assertEquals(2, a.renewLeases(), "a's renewals find both leases gone");
      answer.countDown();
      assertEquals(LeaderAggregationDriver.Outcome.LEASE_LOST, keptStep.get(60,
          java.util.concurrent.TimeUnit.SECONDS));
      assertEquals(LeaderAggregationDriver.Outcome.LEASE_LOST, pausedStep.get(60,
          java.util.concurrent.TimeUnit.SECONDS));
    } finally {
      answer.countDown();
      steps.shutdownNow();
    }
    s.assertAggregated(s.all());
  }
}
