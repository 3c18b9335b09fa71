package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobExtension;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BucketBudgets;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.task.AttributionCodePoints;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * The release side of the attribution draft (draft-ietf-ppm-dap-attribution-00, section 5) as
 * the Helper runs it for an AggregateShareReq: min_dp_budget in collection_job_req.extensions is
 * accepted (others unsupportedExtension, malformed invalidExtension), a batch whose recorded least
 * privacy_budget is below it is refused with invalidMessage before anything is drawn or charged,
 * and the release is noised and charged at min_dp_budget, or else at the batch's least budget.
 * Buckets 0, 1, 2 of the Fixture hold reports whose least budgets are 0.5, 0.25 and 1.
 */
class ReleaseBudgetTest {
  private static final int MIN_DP = AttributionCodePoints.DEFAULTS.minDpBudget();

  @TempDir
  Path dir;

  private static final List<BucketBudgets> BUDGETS = List.of(budget(500_000), budget(250_000),
      budget(1_000_000));

  private static BucketBudgets budget(long micros) {
    return new BucketBudgets(Optional.of(new MicroEpsilon(micros)), false);
  }

  private static void writeBuckets(Datastore store, Fixture f, List<BucketBudgets> budgets) {
    for (int k = 0; k < budgets.size(); k++) {
      BatchAggregation bucket = new BatchAggregation(f.taskId,
          BatchBuckets.timeIntervalBucket(Fixture.FIRST_BUCKET + k), ByteString.EMPTY,
          ByteString.copyOf(f.share(k)), Fixture.BUCKET_REPORTS,
          ByteString.copyOf(Fixture.bucketChecksum(k)), budgets.get(k));
      store.inTaskTransaction(f.taskId, tx -> {
        tx.batchBuckets().put(bucket);
        return null;
      });
    }
  }

  private static AggregateShareReq withExtensions(AggregateShareReq req,
      CollectionJobExtension... ext) {
    return new AggregateShareReq(new CollectionJobReq(req.collectionJobReq().query(), new byte[0],
        List.of(ext)), req.batchSelector(), req.reportCount(), req.checksum());
  }

  private static CollectionJobExtension minDp(long micros) {
    return new CollectionJobExtension(MIN_DP, new MicroEpsilon(micros).encode());
  }

  private static NoisedShareService service(Datastore store) {
    return new NoisedShareService(store, RandomSource.seeded(new byte[] {2}), Clock.systemUTC());
  }

  private static List<LedgerRecord> ledger(Datastore store, Fixture f) {
    return store.inTaskTransaction(f.taskId, tx -> tx.ledger().entries());
  }

  private static Rational epsilonCharged(LedgerRecord r) {
    return r.entry().perReport().perRelease().parameter();
  }

  private static DapError refusal(Runnable r) {
    return assertThrows(Refusal.class, r::run).dapError().orElseThrow();
  }

  @Test
  void theHelperRefusesAMinimumAboveItsRecordedMinimumThenReleasesAtTheMinimum() {
    Fixture f = new Fixture(3, new DpStrategy.ReportBudgetDiscreteLaplace());
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("h.db"))) {
      writeBuckets(store, f, BUDGETS);
      NoisedShareService s = service(store);
      // bucket 1 holds a report with 0.25 < 0.5: this Helper's batch is not the job's
      assertEquals(DapError.INVALID_MESSAGE,
          refusal(() -> s.release(f.task, withExtensions(f.request(0, 3), minDp(500_000)))));
      assertEquals(DapError.INVALID_MESSAGE,
          refusal(() -> s.release(f.task, withExtensions(f.request(0, 3), minDp(250_001)))));
      assertEquals(0, s.noiseDraws());
      assertTrue(ledger(store, f).isEmpty(), "nothing charged");
      // at the minimum exactly: released, noised and charged at min_dp_budget = 0.2
      s.release(f.task, withExtensions(f.request(0, 3), minDp(200_000)));
      assertEquals(1, s.noiseDraws());
      assertEquals(Rational.of(1, 5), epsilonCharged(ledger(store, f).get(0)));
    }
  }

  @Test
  void withoutMinDpBudgetTheReleaseUsesTheBatchsLeastBudget() {
    Fixture f = new Fixture(4, new DpStrategy.ReportBudgetDiscreteLaplace());
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("m.db"))) {
      writeBuckets(store, f, BUDGETS);
      NoisedShareService s = service(store);
      s.release(f.task, f.request(2, 3)); // bucket 2 alone: 1
      s.release(f.task, f.request(0, 2)); // buckets 0 and 1: min(0.5, 0.25)
      List<LedgerRecord> charged = ledger(store, f);
      assertEquals(List.of(Rational.ONE, Rational.of(1, 4)),
          charged.stream().map(ReleaseBudgetTest::epsilonCharged).sorted((a, b) -> b.compareTo(a)).toList());
    }
  }

  @Test
  void aBucketWithAReportWithoutBudgetFailsTheSafeguardAndHasNoEpsilon() {
    Fixture f = new Fixture(5, new DpStrategy.ReportBudgetDiscreteGaussian(Rational.of(1, 1_000_000_000)));
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("u.db"))) {
      writeBuckets(store, f, List.of(budget(500_000), BucketBudgets.UNKNOWN));
      NoisedShareService s = service(store);
      assertEquals(DapError.INVALID_MESSAGE,
          refusal(() -> s.release(f.task, withExtensions(f.request(0, 2), minDp(1)))));
      assertEquals(DapError.INVALID_MESSAGE, refusal(() -> s.release(f.task, f.request(0, 2))));
      assertEquals(0, s.noiseDraws());
      // the Gaussian at 0.5 is charged as the zCDP rho of (0.5, 10^-9)
      s.release(f.task, f.request(0, 1));
      assertEquals(org.priodp.noise.ledger.ZCdpConversion.rhoFor(Rational.of(1, 2),
          Rational.of(1, 1_000_000_000)), epsilonCharged(ledger(store, f).get(0)));
    }
  }

  @Test
  void aFixedStrategyTaskAppliesTheSafeguardAndKeepsItsNoise() {
    Fixture f = new Fixture(6, DpStrategy.PureDpDiscreteLaplace.parse("2"));
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("p.db"))) {
      writeBuckets(store, f, BUDGETS);
      NoisedShareService s = service(store);
      assertEquals(DapError.INVALID_MESSAGE,
          refusal(() -> s.release(f.task, withExtensions(f.request(0, 2), minDp(300_000)))));
      s.release(f.task, withExtensions(f.request(0, 2), minDp(100_000)));
      assertEquals(Rational.of(2), epsilonCharged(ledger(store, f).get(0)));
    }
  }

  @Test
  void otherOrMalformedCollectionJobExtensionsAreRefused() {
    Fixture f = new Fixture(7, new DpStrategy.ReportBudgetDiscreteLaplace());
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("x.db"))) {
      writeBuckets(store, f, BUDGETS);
      NoisedShareService s = service(store);
      assertEquals(DapError.UNSUPPORTED_EXTENSION, refusal(() -> s.release(f.task,
          withExtensions(f.request(0, 3), new CollectionJobExtension(0x7a00, new byte[4])))));
      assertEquals(DapError.INVALID_EXTENSION, refusal(() -> s.release(f.task,
          withExtensions(f.request(0, 3), new CollectionJobExtension(MIN_DP, new byte[3])))));
      assertEquals(DapError.INVALID_EXTENSION, refusal(() -> s.release(f.task,
          withExtensions(f.request(0, 3), minDp(0)))));
      assertEquals(0, s.noiseDraws());
    }
  }
}
