package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.AggregationJobContinueReq;
import org.priodp.aggregator.dap.AggregationJobExtension;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.RetentionCounts;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * The job-level rules of DAP-18 "Helper Initialization" and "Helper Continuation" on the core
 * service (the per-report paths run over HTTP in AggregationJobsRouteTest).
 */
class AggregationJobServiceTest {
  @TempDir
  Path dir;

  private static DapError refusal(Runnable r) {
    return assertThrows(Refusal.class, r::run).dapError().orElseThrow();
  }

  private static AggregationJobInitReq req(int keyId, byte[] aggParam,
      List<AggregationJobExtension> ext) {
    return new AggregationJobInitReq(keyId, aggParam, ext, List.of());
  }

  @Test
  void jobLevelChecksRefuseWithTheSpecErrors() {
    Fixture f = new Fixture(3, new DpStrategy.NoDifferentialPrivacy());
    TaskDefinition task = f.task.withVdafVerifyKeys(Map.of(0, new byte[32]));
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("s.db"))) {
      AggregationJobService s = new AggregationJobService(store,
          new HelperHpkeKeys(store, new SecureRandom(), Clock.systemUTC()), Clock.systemUTC(),
          AggregationJobService.DEFAULT_CLOCK_SKEW);
      // DAP-18 has no report error for an unknown key: the job is invalidMessage
      assertEquals(DapError.INVALID_MESSAGE, refusal(() -> s.checkJob(
          f.task.withDapVersion(DapVersion.DAP_18), req(0, new byte[0], List.of()))),
          "no verify key");
      assertEquals(DapError.INVALID_MESSAGE, refusal(() -> s.checkJob(
          task.withDapVersion(DapVersion.DAP_18), req(1, new byte[0], List.of()))),
          "unknown verification_key_id");
      // DAP-19 rejects each report instead (AggregationJobsRouteTest shows the response)
      assertEquals(java.util.Optional.empty(), s.checkJob(task, req(1, new byte[0], List.of())));
      assertEquals(DapError.UNSUPPORTED_EXTENSION, refusal(() -> s.checkJob(task,
          req(0, new byte[0], List.of(new AggregationJobExtension(0x7777, new byte[0]))))));
      assertEquals(DapError.INVALID_MESSAGE, refusal(() -> s.checkJob(task,
          req(0, new byte[0], List.of(AggregationJobExtension.leaderSelectedBatchId(
              new BatchId(new byte[32])))))), "batch id in a time-interval task");
      assertEquals(DapError.INVALID_AGGREGATION_PARAMETER, refusal(() -> s.checkJob(task,
          req(0, new byte[] {1}, List.of()))));

      // DAP-18: a repeat of a stored job gets it even after the Helper retired the job's key
      TaskDefinition task18 = new Fixture(4, new DpStrategy.NoDifferentialPrivacy()).task
          .withVdafVerifyKeys(Map.of(0, new byte[32])).withDapVersion(DapVersion.DAP_18);
      AggregationJobInitReq first = req(0, new byte[0], List.of());
      var firstDigest = AggregationJobService.digest(first.encode());
      AggregationJobRecord stored = s.initialize(task18, first, firstDigest);
      assertTrue(new VdafVerifyKeys(store, Clock.systemUTC()).retire(task18, 0));
      assertEquals(stored, s.initialize(task18, first, firstDigest), "the stored job");
      assertEquals(stored, s.accept(task18, first, firstDigest), "asynchronously too");
      assertEquals(DapError.INVALID_MESSAGE, refusal(() -> s.initialize(task18,
          req(0, new byte[] {}, List.of(new AggregationJobExtension(0x7777, new byte[0]))),
          AggregationJobService.digest(new byte[] {1}))), "a new job under the retired key");

      AggregationJobInitReq empty = req(0, new byte[0], List.of());
      var digest = AggregationJobService.digest(empty.encode());
      AggregationJobRecord job = s.initialize(task, empty, digest);
      assertEquals(AggregationJobRecord.State.READY, job.state());
      assertEquals(job, s.initialize(task, empty, digest), "a repeat finds the stored job");
      AggregationJobContinueReq step1 = new AggregationJobContinueReq(1, List.of());
      var d1 = AggregationJobService.digest(step1.encode());
      assertEquals(DapError.STEP_MISMATCH, refusal(() -> s.continueJob(task, job.jobId(), step1,
          d1)), "nothing awaits continuation");
      assertEquals(DapError.UNRECOGNIZED_AGGREGATION_JOB, refusal(() -> s.continueJob(task,
          new AggregationJobId(new byte[16]), step1, d1)));
      assertEquals(true, s.abandon(task.taskId(), job.jobId()));
      assertFalse(s.abandon(task.taskId(), job.jobId()), "abandoned once");
      assertEquals(DapError.UNRECOGNIZED_AGGREGATION_JOB, refusal(() -> s.continueJob(task,
          job.jobId(), step1, d1)));
    }
  }

  /**
   * Issue 24, clock skew named on the Helper: a Helper whose clock is 10 minutes behind the
   * reports rejects each as report_too_early and logs ONE warning for the job, naming how far
   * ahead of its clock the newest report is (never one line per report).
   */
  @Test
  void aJobOfReportsTooEarlyGetsOneWarningNamingHowFarAheadTheyAre() throws Exception {
    long seed = System.nanoTime();
    System.out.println("AggregationJobServiceTest seed " + seed);
    org.priodp.aggregator.testing.LeaderPair pair = new org.priodp.aggregator.testing.LeaderPair(
        new org.priodp.vdaf.Prio3Variant.Count(), new java.util.Random(seed), 1);
    long time = org.priodp.aggregator.testing.LeaderPair.now();
    java.time.Instant helperNow = java.time.Instant.ofEpochSecond(
        time * org.priodp.aggregator.testing.LeaderPair.PRECISION).minusSeconds(600);
    Clock helperClock = Clock.fixed(helperNow, java.time.ZoneOffset.UTC);
    ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger)
        org.slf4j.LoggerFactory.getLogger(AggregationJobService.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
        new ch.qos.logback.core.read.ListAppender<>();
    captured.start();
    log.addAppender(captured);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("h.db"))) {
      HelperHpkeKeys keys = new HelperHpkeKeys(store, new SecureRandom(), helperClock);
      var helperKey = keys.ensureActive().config();
      List<org.priodp.aggregator.dap.VerifyInit> inits = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        org.priodp.aggregator.dap.Report r = pair.report(helperKey, helperKey, time,
            pair.measurement());
        inits.add(new org.priodp.aggregator.dap.VerifyInit(r.helperReportShare(), new byte[1]));
      }
      AggregationJobService s = new AggregationJobService(store, keys, helperClock,
          AggregationJobService.DEFAULT_CLOCK_SKEW);
      AggregationJobInitReq req = new AggregationJobInitReq(0, new byte[0], List.of(), inits);
      AggregationJobRecord job = s.initialize(pair.helper, req,
          AggregationJobService.digest(req.encode()));
      org.priodp.aggregator.dap.AggregationJobResp resp =
          org.priodp.aggregator.dap.AggregationJobResp.decode(
              job.response().orElseThrow().toByteArray(), pair.helper.dapVersion());
      assertTrue(resp.verifyResps().stream().allMatch(v -> v.result()
          instanceof org.priodp.aggregator.dap.VerifyResp.Reject r
          && r.reportError() == org.priodp.aggregator.dap.ReportError.REPORT_TOO_EARLY));
      List<String> warnings = captured.list.stream()
          .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
          .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
      assertEquals(1, warnings.size(), warnings.toString());
      assertTrue(warnings.get(0).contains("3/3 reports rejected as report_too_early, up to"
          + " 10m 0s ahead of this Helper's clock: this clock may be behind"), warnings.get(0));
    } finally {
      log.detachAppender(captured);
    }
  }

  @Test
  void retentionDeletesOnlyOldBucketsInsideCollectedRanges() {
    Fixture f = new Fixture(3, new DpStrategy.NoDifferentialPrivacy());
    TaskDefinition task = f.task;
    long precision = task.configuration().timePrecision();
    // now is the start of unit 1000; keeping 990 units puts the cutoff at unit 10
    Clock clock = Clock.fixed(java.time.Instant.ofEpochSecond(1000 * precision),
        java.time.ZoneOffset.UTC);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("r.db"))) {
      AggregationJobService s = new AggregationJobService(store,
          new HelperHpkeKeys(store, new SecureRandom(), clock), clock,
          AggregationJobService.DEFAULT_CLOCK_SKEW);
      var empty = org.priodp.aggregator.dap.ByteString.EMPTY;
      var b32 = org.priodp.aggregator.dap.ByteString.copyOf(new byte[32]);
      store.inTaskTransaction(task.taskId(), tx -> {
        for (long t = 0; t < 20; t++) {
          tx.batchBuckets().put(new BatchAggregation(task.taskId(),
              BatchBuckets.timeIntervalBucket(t), empty, b32, 1, b32));
        }
        // released: [2, 5) and [8, 14); [5, 8) and everything from 14 on never collected
        for (long[] r : new long[][] {{2, 3}, {8, 6}}) {
          BatchIdentifier batch = BatchBuckets.batchIdentifier(
              new org.priodp.aggregator.dap.BatchSelector.TimeInterval(
                  org.priodp.aggregator.dap.Interval.of(r[0], r[1])));
          tx.releases().insertNoisedShare(new NoisedAggregateShare(task.taskId(), batch, empty, 1,
              b32, b32, b32, java.time.Instant.ofEpochMilli(1)),
              java.util.Optional.of(new CollectedInterval(r[0], r[0] + r[1])));
        }
        return null;
      });
      RetentionCounts c = s.collectExpired(task,
          java.time.Duration.ofSeconds(990 * precision));
      assertEquals(10, c.cutoff());
      assertEquals(5, c.buckets(), "2, 3, 4, 8, 9");
      java.util.Set<Long> kept = new java.util.TreeSet<>();
      for (long t = 0; t < 20; t++) {
        BatchIdentifier bucket = BatchBuckets.timeIntervalBucket(t);
        if (store.inTaskTransaction(task.taskId(), tx -> tx.batchBuckets().get(bucket))
            .isPresent()) {
          kept.add(t);
        }
      }
      assertEquals(java.util.Set.of(0L, 1L, 5L, 6L, 7L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L,
          18L, 19L), kept, "uncollected or not older than the cutoff");
      assertEquals(2, store.inTaskTransaction(task.taskId(),
          tx -> tx.releases().collectedIntervals()).size(), "collected ranges stay");
      assertTrue(store.inTaskTransaction(task.taskId(), tx -> tx.releases().noisedShare(
          BatchBuckets.batchIdentifier(new org.priodp.aggregator.dap.BatchSelector.TimeInterval(
              org.priodp.aggregator.dap.Interval.of(2, 3))))).isPresent(), "noised shares stay");
    }
  }

  /**
   * A job's reports are decrypted and verified in parallel (four threads, so chunks of {@link
   * ParallelReports#CHUNK} finish in any order) and answered in request order: each VerifyResp
   * names the report of the VerifyInit at its position, a report whose input share does not open
   * is that report's hpke_decrypt_error, one whose Leader message belongs to another report is
   * that report's vdaf_verify_error, and every other report of the job is accepted and counted
   * once; a second job repeating two of its reports around a new one gets report_replayed for
   * the two (the set-based replay check) and counts the new one.
   */
  @Test
  void parallelVerificationAnswersInReportOrderWithPerReportErrors() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AggregationJobServiceTest.parallel seed=" + seed);
    java.util.Random random = new java.util.Random(seed);
    org.priodp.aggregator.testing.LeaderPair pair = new org.priodp.aggregator.testing.LeaderPair(
        new org.priodp.vdaf.Prio3Variant.Count(), random, 1);
    long time = org.priodp.aggregator.testing.LeaderPair.now();
    Clock clock = Clock.systemUTC();
    java.util.concurrent.ExecutorService pool = ParallelReports.pool(3, "test-verify");
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("p.db"))) {
      HelperHpkeKeys keys = new HelperHpkeKeys(store, new SecureRandom(), clock);
      var key = keys.ensureActive().config();
      org.priodp.vdaf.Prio3 prio3 = new org.priodp.vdaf.Prio3(pair.variant);
      ReportIntake.Job leader = new ReportIntake(keys, clock,
          AggregationJobService.DEFAULT_CLOCK_SKEW).job(pair.leader, prio3, pair.verifyKey);
      PingPong pingPong = new PingPong(prio3, pair.leader.dapVersion(), pair.taskId);
      int n = 7 * ParallelReports.CHUNK + 5;
      // two distinct positions in [1, n - 2]: the bad proof borrows the previous report's message
      int badHpke = 1 + random.nextInt(n - 2);
      int badProof = 1 + (badHpke + random.nextInt(n - 3)) % (n - 2);
      List<org.priodp.aggregator.dap.VerifyInit> inits = new java.util.ArrayList<>();
      byte[] previousPayload = null;
      for (int i = 0; i < n + 1; i++) {
        org.priodp.aggregator.dap.Report r = pair.report(key, key, time, pair.measurement());
        ReportIntake.Prepared p = (ReportIntake.Prepared) leader.prepare(r.leaderReportShare());
        byte[] payload = pingPong.leaderInitialized(p.init()).outbound().encode();
        org.priodp.aggregator.dap.ReportShare share = r.helperReportShare();
        if (i == badHpke) {
          org.priodp.aggregator.dap.HpkeCiphertext c = share.encryptedInputShare();
          byte[] ct = c.payload().toByteArray();
          ct[random.nextInt(ct.length)] ^= 1;
          share = new org.priodp.aggregator.dap.ReportShare(share.reportMetadata(),
              share.publicShare(), new org.priodp.aggregator.dap.HpkeCiphertext(c.configId(),
                  c.enc(), org.priodp.aggregator.dap.ByteString.copyOf(ct)));
        }
        inits.add(new org.priodp.aggregator.dap.VerifyInit(share,
            i == badProof ? previousPayload : payload));
        previousPayload = payload;
      }
      org.priodp.aggregator.dap.VerifyInit fresh = inits.remove(n);
      AggregationJobService s = new AggregationJobService(store, keys, clock,
          AggregationJobService.DEFAULT_CLOCK_SKEW, PipelineObserver.NONE,
          ParallelReports.on(pool, 4));
      AggregationJobInitReq req = new AggregationJobInitReq(0, new byte[0], List.of(), inits);
      AggregationJobRecord job = s.initialize(pair.helper, req,
          AggregationJobService.digest(req.encode()));
      List<org.priodp.aggregator.dap.VerifyResp> resps =
          org.priodp.aggregator.dap.AggregationJobResp.decode(job.response().orElseThrow()
              .toByteArray(), pair.helper.dapVersion()).verifyResps();
      assertEquals(n, resps.size());
      for (int i = 0; i < n; i++) {
        assertEquals(inits.get(i).reportShare().reportId(), resps.get(i).reportId(),
            "VerifyResp " + i + " names the report of VerifyInit " + i);
        Object expected = i == badHpke ? org.priodp.aggregator.dap.ReportError.HPKE_DECRYPT_ERROR
            : i == badProof ? org.priodp.aggregator.dap.ReportError.VDAF_VERIFY_ERROR
                : "continue";
        Object got = resps.get(i).result() instanceof org.priodp.aggregator.dap.VerifyResp.Reject
            x ? x.reportError() : "continue";
        assertEquals(expected, got, "report " + i + " (bad HPKE at " + badHpke + ", bad proof at "
            + badProof + ")");
      }
      assertEquals(n - 2, store.inTaskTransaction(pair.taskId, tx -> tx.batchBuckets()
          .get(BatchBuckets.timeIntervalBucket(time))).orElseThrow().reportCount());
      AggregationJobInitReq again = new AggregationJobInitReq(0, new byte[0], List.of(),
          List.of(inits.get(n - 1), fresh, inits.get(0)));
      List<org.priodp.aggregator.dap.VerifyResp> second =
          org.priodp.aggregator.dap.AggregationJobResp.decode(s.initialize(pair.helper, again,
              AggregationJobService.digest(again.encode())).response().orElseThrow()
              .toByteArray(), pair.helper.dapVersion()).verifyResps();
      assertEquals(List.of("report_replayed", "continue", "report_replayed"), second.stream()
          .map(r -> r.result() instanceof org.priodp.aggregator.dap.VerifyResp.Reject x
              ? x.reportError().specName() : "continue").toList());
      assertEquals(n - 1, store.inTaskTransaction(pair.taskId, tx -> tx.batchBuckets()
          .get(BatchBuckets.timeIntervalBucket(time))).orElseThrow().reportCount());
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Batch buckets keep the least privacy_budget of their reports and whether one lacked it
   * (attribution draft section 5), merged in the transaction that adds the output shares, across
   * several aggregation jobs (each its own task transaction, as the Helper and the Leader commit
   * them) and buckets, on SQLite and on the PostgreSQL of PRIODP_PG_URL (skipped without it).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"sqlite", "postgresql"})
  void bucketsKeepTheLeastBudgetAcrossJobsAndBuckets(String backend) {
    String pg = System.getenv("PRIODP_PG_URL");
    if (backend.equals("postgresql") && (pg == null || pg.isBlank())) {
      System.out.println("SKIPPED AggregationJobServiceTest postgresql: PRIODP_PG_URL is not set");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(backend.equals("sqlite")
        || (pg != null && !pg.isBlank()), "PRIODP_PG_URL is not set");
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AggregationJobServiceTest.budgets " + backend + " seed=" + seed);
    java.util.Random random = new java.util.Random(seed);
    Fixture f = Fixture.laplaceRandomTask(9, random); // a persistent database sees a new task
    org.priodp.vdaf.Prio3 prio3 = new org.priodp.vdaf.Prio3(f.variant);
    org.priodp.field.FieldVector zero = org.priodp.field.FieldVector.zeros(prio3.field(),
        prio3.outputLength());
    BatchIdentifier a = BatchBuckets.timeIntervalBucket(10);
    BatchIdentifier b = BatchBuckets.timeIntervalBucket(11);
    BatchIdentifier c = BatchBuckets.timeIntervalBucket(12);
    try (JdbcDatastore store = backend.equals("sqlite")
        ? JdbcDatastore.openSqlite(dir.resolve("budgets.db")) : JdbcDatastore.open(pg)) {
      // one aggregation job: each call is one job's commit of (bucket, time, budget in micros or -1)
      java.util.function.Consumer<long[][]> job = reports -> store.inTaskTransaction(f.taskId,
          tx -> {
            java.util.Map<BatchIdentifier, AggregationJobService.Bucket> open =
                new java.util.LinkedHashMap<>();
            for (long[] r : reports) {
              BatchIdentifier id = BatchBuckets.timeIntervalBucket(r[0]);
              byte[] rid = new byte[16];
              random.nextBytes(rid);
              open.computeIfAbsent(id, k -> AggregationJobService.Bucket.load(tx, f.task, prio3, k))
                  .add(zero, new org.priodp.aggregator.dap.ReportId(rid), r[0], r[1] < 0
                      ? java.util.Optional.empty()
                      : java.util.Optional.of(new org.priodp.aggregator.task.MicroEpsilon(r[1])));
            }
            open.values().forEach(x -> x.store(tx, f.task));
            return null;
          });
      job.accept(new long[][] {{10, 500_000}, {10, 300_000}, {11, 700_000}});
      job.accept(new long[][] {{10, 200_000}, {11, 900_000}, {12, -1}});
      job.accept(new long[][] {{12, 100_000}, {11, 800_000}});
      java.util.function.Function<BatchIdentifier, org.priodp.aggregator.datastore.BucketBudgets>
          read = id -> store.inTaskTransaction(f.taskId, tx -> tx.batchBuckets().get(id))
              .orElseThrow().budgets();
      assertEquals(budgets(200_000, false), read.apply(a));
      assertEquals(budgets(700_000, false), read.apply(b));
      assertEquals(budgets(100_000, true), read.apply(c));
      assertEquals(3, store.inTaskTransaction(f.taskId, tx -> tx.batchBuckets().get(a))
          .orElseThrow().reportCount(), "three reports counted in bucket a");
      // over a range (as a release merges them): the least of all, missing if any is
      assertEquals(budgets(100_000, true), store.inTaskTransaction(f.taskId,
          tx -> tx.batchBuckets().range(a, BatchBuckets.timeIntervalBucket(13))).stream()
          .map(org.priodp.aggregator.datastore.BatchAggregation::budgets)
          .reduce(org.priodp.aggregator.datastore.BucketBudgets.EMPTY,
              org.priodp.aggregator.datastore.BucketBudgets::union));
    }
  }

  private static org.priodp.aggregator.datastore.BucketBudgets budgets(long micros,
      boolean missing) {
    return new org.priodp.aggregator.datastore.BucketBudgets(java.util.Optional.of(
        new org.priodp.aggregator.task.MicroEpsilon(micros)), missing);
  }
}
