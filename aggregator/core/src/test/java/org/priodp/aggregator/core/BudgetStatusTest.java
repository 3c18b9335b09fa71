package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.task.LedgerHeader;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.noise.Budget;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.BudgetCap;
import org.priodp.noise.ledger.PrivacyUnit;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * What budget, status and the Leader's header read of a ledger, on real SQLite and on the
 * PostgreSQL of PRIODP_PG_URL (skipped without it): the fixture's
 * buckets are 100 s wide from 1000 s; epsilon is 1 per release; one report per client per 100 s,
 * a cap of epsilon 2 over any 300 s window.
 */
class BudgetStatusTest {
  @TempDir
  Path dir;

  private static final Instant DRAWN = Instant.ofEpochSecond(1_000_000);

  private JdbcDatastore open(String backend, String file) {
    if (backend.equals("postgresql")) {
      String url = System.getenv("PRIODP_PG_URL");
      org.junit.jupiter.api.Assumptions.assumeTrue(url != null && !url.isBlank(),
          "set PRIODP_PG_URL");
      return JdbcDatastore.open(url);
    }
    return JdbcDatastore.openSqlite(dir.resolve(file));
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"sqlite", "postgresql"})
  void spentRemainingWhatANewBatchCouldSpendAndTheHeaderOfARelease(String backend) {
    byte[] id = new byte[32];
    new java.security.SecureRandom().nextBytes(id); // a fresh task on a shared database
    Fixture f = new Fixture(4, new TaskId(id), DpStrategy.PureDpDiscreteLaplace.parse("1"),
        Fixture.PRECISION, null, false);
    TaskDefinition task = f.task.withPrivacy(new PrivacySettings(new PrivacyUnit.ClientBound(1,
        100), Optional.of(BudgetCap.window(Budget.PureDp.parse("2"), 300))));
    try (JdbcDatastore store = open(backend, "b.db")) {
      f.writeBuckets(store, 6);
      BudgetStatus empty = BudgetStatus.read(store, task, DRAWN).orElseThrow();
      assertEquals(Rational.ZERO, empty.spent());
      assertEquals(Optional.of(Rational.of(2)), empty.remaining());
      assertTrue(empty.statement().isEmpty());
      assertEquals("epsilon", empty.measure());

      NoisedShareService s = new NoisedShareService(store, RandomSource.seeded(new byte[] {7}),
          Clock.fixed(DRAWN, ZoneOffset.UTC));
      s.release(task, f.request(0, 1)); // [1000, 1100): 1 report of a client, epsilon 1
      s.release(task, f.request(5, 6)); // [1500, 1600): no window holds both
      // a batch starting at 1050 s shares a window with the first release only
      BudgetStatus b = BudgetStatus.read(store, task, Instant.ofEpochSecond(1050)).orElseThrow();
      assertEquals(2, b.releases().size());
      assertEquals(Rational.ONE, b.spent(), "the worst window holds one release");
      assertEquals(Optional.of(Rational.ONE), b.remaining());
      assertEquals(Optional.of(Rational.ONE), b.remainingNow());
      // a batch starting after both windows could spend the whole cap
      assertEquals(Optional.of(Rational.of(2)), BudgetStatus.read(store, task,
          Instant.ofEpochSecond(5000)).orElseThrow().remainingNow());
      assertEquals("epsilon 2 per client (1 report per 100 s) over any 5m window", b.capText());
      assertEquals(Rational.ONE, b.cost(b.releases().get(0)));
      assertEquals("epsilon 1 (pure DP)", b.statement().orElseThrow().describe());

      BatchIdentifier first = BatchBuckets.batchIdentifier(f.request(0, 1).batchSelector());
      LedgerHeader h = b.header(first).orElseThrow();
      assertEquals("measure=epsilon, cost=\"1\", spent=\"1\", remaining=\"1\", released=1000000,"
          + " cap=\"epsilon 2 per client (1 report per 100 s) over any 5m window\"", h.format());
      assertTrue(b.header(BatchBuckets.batchIdentifier(f.request(1, 2).batchSelector()))
          .isEmpty(), "no release of that batch");
    }
  }

  @Test
  void aTaskWithoutNoiseHasNoLedger() {
    Fixture f = new Fixture(5, new DpStrategy.NoDifferentialPrivacy());
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("n.db"))) {
      assertTrue(BudgetStatus.read(store, f.task, DRAWN).isEmpty());
    }
  }
}
