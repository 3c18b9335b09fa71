package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.ReportTimes;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.noise.Budget;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.BudgetCap;
import org.priodp.noise.ledger.PrivacyUnit;
import org.priodp.noise.ledger.Span;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * The budget decided in the release transaction (issue 25, items 2 and 4), on SQLite and on the
 * PostgreSQL of PRIODP_PG_URL (skipped without it). The fixture's buckets are 100 s wide, at
 * time_precision units 10, 11, ...; epsilon is 1 per release.
 */
class PrivacyBudgetTest {
  @TempDir
  Path dir;

  static final SecureRandom RANDOM = new SecureRandom();

  private JdbcDatastore open(String backend) {
    if (backend.equals("postgresql")) {
      String url = System.getenv("PRIODP_PG_URL");
      if (url == null || url.isBlank()) {
        System.out.println("SKIPPED PostgreSQL budget test: PRIODP_PG_URL is not set");
      }
      Assumptions.assumeTrue(url != null && !url.isBlank(), "set PRIODP_PG_URL");
      return JdbcDatastore.open(url);
    }
    return JdbcDatastore.openSqlite(dir.resolve("budget.db"));
  }

  private static Fixture fixture(DpStrategy strategy) {
    byte[] id = new byte[32];
    RANDOM.nextBytes(id);
    return new Fixture(3, new TaskId(id), strategy, Fixture.PRECISION, null, false);
  }

  private static TaskDefinition capped(Fixture f, PrivacyUnit unit, BudgetCap cap) {
    return f.task.withPrivacy(new PrivacySettings(unit, Optional.of(cap)));
  }

  private static NoisedShareService service(JdbcDatastore store) {
    return new NoisedShareService(store, RandomSource.seeded(new byte[] {7}),
        Clock.fixed(Instant.ofEpochSecond(1_000_000), ZoneOffset.UTC));
  }

  private static List<LedgerRecord> ledger(JdbcDatastore store, TaskDefinition task) {
    return store.inTaskTransaction(task.taskId(), tx -> tx.ledger().entries());
  }

  /**
   * A life cap of epsilon 3 admits exactly three one-bucket releases; a repeat costs nothing;
   * the fourth is refused with privacyBudgetExhausted, draws nothing and stores nothing; a
   * restart keeps the ledger.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aLifeCapAdmitsExactlyThreeAndARestartKeepsTheLedger(String backend) throws Exception {
    Fixture f = fixture(DpStrategy.PureDpDiscreteLaplace.parse("1"));
    TaskDefinition task = capped(f, new PrivacyUnit.Report(), BudgetCap.life(Budget.PureDp.parse("3")));
    byte[] first;
    try (JdbcDatastore store = open(backend)) {
      f.writeBuckets(store, 5);
      NoisedShareService s = service(store);
      first = s.release(task, f.request(0, 1)).aggregateShare().toByteArray();
      s.release(task, f.request(1, 2));
      assertArrayEquals(first, s.release(task, f.request(0, 1)).aggregateShare().toByteArray(), "a repeat");
      s.release(task, f.request(2, 3));
      assertEquals(3, s.noiseDraws());
      assertEquals(3, ledger(store, task).size(), "the repeat cost nothing");
      Refusal r = assertThrows(Refusal.class, () -> s.release(task, f.request(3, 4)));
      assertEquals(ProblemType.PRIVACY_BUDGET_EXHAUSTED, r.error());
      assertEquals("privacy budget exhausted: epsilon 3 per report over the task's life; spent epsilon 3,"
          + " left 0; this release would cost 1", r.detail());
      assertEquals(3, s.noiseDraws(), "a refused release draws nothing");
      AggregateShareReq refused = f.request(3, 4);
      assertTrue(store.inTaskTransaction(f.taskId, tx -> tx.releases()
          .noisedShare(BatchBuckets.batchIdentifier(refused.batchSelector()))).isEmpty(), "stores nothing");
      assertEquals(3, ledger(store, task).size());
      LedgerRecord one = ledger(store, task).get(0);
      assertEquals(new Span(1000, 1100), one.entry().span(), "bucket 10 of 100 s");
      assertEquals(task.dpSettingsText(), one.settings());
    }
    try (JdbcDatastore store = open(backend)) {
      NoisedShareService s = service(store);
      assertEquals(3, ledger(store, task).size(), "a restart keeps the ledger");
      assertInstanceOf(Refusal.class, assertThrows(Refusal.class, () -> s.release(task, f.request(3, 4))));
      assertArrayEquals(first, s.release(task, f.request(0, 1)).aggregateShare().toByteArray());
      assertEquals(0, s.noiseDraws());
    }
  }

  /**
   * One report per 100 s per client, epsilon 2 over any 300 s window: bucket 10 costs 1;
   * buckets 11-12 ([1100, 1300), two periods) would cost 2 and share the window [901, 1201) with
   * bucket 10, so 3 > 2 is refused; bucket 15 ([1500, 1600)) shares no window with bucket 10 and
   * is admitted.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aClientBoundAndAWindowChargeGroupsAndForget(String backend) {
    Fixture f = fixture(DpStrategy.PureDpDiscreteLaplace.parse("1"));
    TaskDefinition task = capped(f, new PrivacyUnit.ClientBound(1, 100),
        BudgetCap.window(Budget.PureDp.parse("2"), 300));
    try (JdbcDatastore store = open(backend)) {
      f.writeBuckets(store, 6);
      NoisedShareService s = service(store);
      s.release(task, f.request(0, 1));
      Refusal r = assertThrows(Refusal.class, () -> s.release(task, f.request(1, 3)));
      assertEquals("privacy budget exhausted: epsilon 2 per client (1 report per 100 s) over any 5m window;"
          + " spent epsilon 1, left 1; this release would cost 2", r.detail());
      s.release(task, f.request(5, 6));
      List<LedgerRecord> l = ledger(store, task);
      assertEquals(2, l.size());
      assertEquals(1, l.get(1).entry().groupSize());
      assertEquals(Rational.ONE, store.inTaskTransaction(f.taskId,
          tx -> PrivacyBudget.ledger(tx, task).spent()), "windows hold one release each");
    }
  }

  /**
   * Sixteen threads over two store instances (two replicas) release sixteen distinct batches at
   * once against a cap that admits exactly three: exactly three are released and thirteen
   * refused with privacyBudgetExhausted, in each of five rounds.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void concurrentReleasesOfDistinctBatchesSpendExactlyTheCap(String backend) throws Exception {
    for (int round = 0; round < 5; round++) {
      Fixture f = fixture(DpStrategy.PureDpDiscreteLaplace.parse("1"));
      TaskDefinition task = capped(f, new PrivacyUnit.Report(), BudgetCap.life(Budget.PureDp.parse("3")));
      try (JdbcDatastore a = open(backend); JdbcDatastore b = open(backend)) {
        f.writeBuckets(a, 16);
        NoisedShareService sa = service(a);
        NoisedShareService sb = service(b);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<String>> out = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
          int k = i;
          out.add(pool.submit(() -> {
            go.await();
            try {
              (k % 2 == 0 ? sa : sb).release(task, f.request(k, k + 1));
              return "released";
            } catch (Refusal r) {
              return r.error().type();
            }
          }));
        }
        go.countDown();
        int released = 0;
        int refused = 0;
        for (Future<String> o : out) {
          String v = o.get();
          if (v.equals("released")) {
            released++;
          } else if (v.equals(ProblemType.PRIVACY_BUDGET_EXHAUSTED.type())) {
            refused++;
          }
        }
        pool.shutdown();
        assertEquals(3, released, "round " + round);
        assertEquals(13, refused, "round " + round);
        assertEquals(3, ledger(a, task).size(), "round " + round);
      }
    }
  }

  @Test
  void aTaskWithoutNoiseHasNoLedgerAndNoBudget() throws Exception {
    Fixture f = fixture(new DpStrategy.NoDifferentialPrivacy());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> capped(f, new PrivacyUnit.Report(), BudgetCap.life(Budget.PureDp.parse("1"))));
    assertTrue(e.getMessage().startsWith("privacy_budget: the task adds no noise"), e.getMessage());
    try (JdbcDatastore store = open("sqlite")) {
      f.writeBuckets(store, 1);
      service(store).release(f.task, f.request(0, 1));
      assertEquals(List.of(), ledger(store, f.task));
    }
  }

  /**
   * A zCDP task with the fixed-work Gaussian (the default): its per-draw total variation is an
   * exact rational of hundreds of digits; the ledger stores it rounded up to a multiple of
   * 2^-128 and reads it back, so every release after the first can be charged (a first release
   * used to succeed and every later one to fail reading its own ledger).
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aHardenedGaussianTaskChargesEveryReleaseAndStatesItsTotalVariation(String backend) {
    Fixture f = fixture(DpStrategy.ZCdpDiscreteGaussian.parse("1/8"));
    TaskDefinition task = hardened(f).withPrivacy(new PrivacySettings(new PrivacyUnit.Report(),
        Optional.of(BudgetCap.life(Budget.ZCdp.parse("3/8")))));
    Rational exact = task.mechanism().totalVariation();
    assertTrue(exact.denominator().bitLength() > 256, "the exact total variation is long: " + exact);
    try (JdbcDatastore store = open(backend)) {
      f.writeBuckets(store, 5);
      NoisedShareService s = service(store);
      for (int i = 0; i < 3; i++) {
        s.release(task, f.request(i, i + 1));
      }
      Refusal r = assertThrows(Refusal.class, () -> s.release(task, f.request(3, 4)));
      assertEquals(ProblemType.PRIVACY_BUDGET_EXHAUSTED, r.error());
      List<LedgerRecord> rows = ledger(store, task);
      assertEquals(3, rows.size());
      Rational stored = rows.get(0).entry().perReport().totalVariation();
      Rational grid = Rational.of(java.math.BigInteger.ONE, java.math.BigInteger.ONE.shiftLeft(128));
      assertTrue(stored.compareTo(exact) >= 0, "rounded up: " + stored + " >= " + exact);
      assertTrue(stored.subtract(exact).compareTo(grid) < 0, "by less than 2^-128");
      assertTrue(stored.toString().length() < 100, stored.toString());
    }
  }

  @Test
  void aZCdpTaskTakesARhoBudgetAndAPureTaskEither() {
    Fixture z = fixture(DpStrategy.ZCdpDiscreteGaussian.parse("1/8"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> capped(z, new PrivacyUnit.Report(), BudgetCap.life(Budget.PureDp.parse("1"))));
    assertTrue(e.getMessage().startsWith("privacy_budget: a zCDP task's budget is a rho"), e.getMessage());
    capped(z, new PrivacyUnit.Report(), BudgetCap.life(Budget.ZCdp.parse("1")));
    capped(fixture(DpStrategy.PureDpDiscreteLaplace.parse("1")), new PrivacyUnit.Report(),
        BudgetCap.life(Budget.ZCdp.parse("1")));
  }

  /** A leader-selected batch's span is [earliest, latest + time_precision) of its reports. */
  @Test
  void aLeaderSelectedSpanComesFromItsBucketsReportTimes() {
    Fixture f = fixture(DpStrategy.PureDpDiscreteLaplace.parse("1"));
    byte[] raw = new byte[32];
    raw[0] = 5;
    BatchSelector selector = new BatchSelector.LeaderSelected(new BatchId(raw));
    BatchIdentifier batch = BatchBuckets.batchIdentifier(selector);
    Instant now = Instant.ofEpochSecond(50_000);
    try (JdbcDatastore store = open("sqlite")) {
      assertEquals(new Span(0, 50_100), store.inTaskTransaction(f.taskId,
          tx -> PrivacyBudget.span(tx, f.task, selector, batch, now)), "no times: conservative");
      store.inTaskTransaction(f.taskId, tx -> {
        tx.batchBuckets().put(new BatchAggregation(f.taskId, batch, ByteString.EMPTY,
            ByteString.copyOf(f.share(0)), 20, ByteString.copyOf(Fixture.bucketChecksum(0))));
        tx.batchBuckets().widenReportTimes(batch, new ReportTimes(12, 30));
        return null;
      });
      assertEquals(new Span(1200, 3100), store.inTaskTransaction(f.taskId,
          tx -> PrivacyBudget.span(tx, f.task, selector, batch, now)));
    }
  }

  /**
   * DP settings are fixed once a task has released (issue 25, item 4): a changed epsilon,
   * sampler, unit or budget is refused in one line naming the field; unchanged settings pass,
   * and a task without releases may change.
   */
  @Test
  void changedDpSettingsAreRefusedOnceTheTaskHasReleased() {
    Fixture f = fixture(DpStrategy.PureDpDiscreteLaplace.parse("1"));
    PrivacyUnit daily = new PrivacyUnit.ClientBound(1, 86400);
    BudgetCap cap = BudgetCap.window(Budget.PureDp.parse("3"), 30 * 86400L);
    TaskDefinition task = f.task.withPrivacy(new PrivacySettings(daily, Optional.of(cap)));
    try (JdbcDatastore store = open("sqlite")) {
      TaskDefinition epsilon2 = new Fixture(3, f.taskId, DpStrategy.PureDpDiscreteLaplace.parse("2"),
          Fixture.PRECISION, null, false).task.withPrivacy(task.privacy());
      PrivacyBudget.checkSettingsUnchanged(store, epsilon2); // no release yet: may change
      f.writeBuckets(store, 3);
      NoisedShareService s = service(store);
      s.release(task, f.request(0, 1));
      s.release(task, f.request(1, 2));
      PrivacyBudget.checkSettingsUnchanged(store, task);
      String id = f.taskId.toBase64Url();
      assertEquals("task " + id + ": dp_strategy.epsilon changed from 1 to 2 after 2 releases; DP settings"
          + " are fixed once a task has released: use a new task id",
          assertThrows(IllegalStateException.class, () -> PrivacyBudget.checkSettingsUnchanged(store, epsilon2))
              .getMessage());
      assertChange(store, hardened(f).withPrivacy(task.privacy()), "noise_sampler changed from exact to hardened");
      assertChange(store, f.task.withPrivacy(new PrivacySettings(new PrivacyUnit.Report(), Optional.of(cap))),
          "privacy_unit changed from client to report");
      assertChange(store, f.task.withPrivacy(new PrivacySettings(new PrivacyUnit.ClientBound(2, 86400), Optional.of(cap))),
          "privacy_unit.max_reports changed from 1 to 2");
      assertChange(store, f.task.withPrivacy(new PrivacySettings(daily,
          Optional.of(BudgetCap.window(Budget.PureDp.parse("4"), 30 * 86400L)))),
          "privacy_budget.epsilon changed from 3 to 4");
      assertChange(store, f.task.withPrivacy(new PrivacySettings(daily, Optional.of(BudgetCap.life(Budget.PureDp.parse("3"))))),
          "privacy_budget.window changed from 2592000 to (none)");
      assertChange(store, f.task.withPrivacy(new PrivacySettings(daily, Optional.empty())),
          "privacy_budget.epsilon changed from 3 to (none)");
    }
  }

  private static TaskDefinition hardened(Fixture f) {
    TaskDefinition t = f.task;
    return new TaskDefinition(t.taskId(), t.role(), t.configuration(), t.variant(), t.dpStrategy(),
        t.sensitivityRule(), t.collectorHpkeConfig(), t.authToken(), true);
  }

  private static void assertChange(JdbcDatastore store, TaskDefinition changed, String field) {
    String m = assertThrows(IllegalStateException.class,
        () -> PrivacyBudget.checkSettingsUnchanged(store, changed)).getMessage();
    assertTrue(m.contains(": " + field + " after 2 releases;"), m);
  }
}
