package org.priodp.aggregator.datastore.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.priodp.aggregator.datastore.jdbc.Stores.id;
import static org.priodp.aggregator.datastore.jdbc.Stores.randomTask;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.LedgerRepository.RecordedSettings;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.LedgerEntry;
import org.priodp.noise.ledger.PrivacyUnit;
import org.priodp.noise.ledger.ReleaseGuarantee;
import org.priodp.noise.ledger.Span;

class JdbcLedgerTest {
  @TempDir
  Path dir;

  static LedgerRecord record(int day, Budget perReport, String settings) {
    Rational tv = Rational.of(BigInteger.valueOf(3), BigInteger.ONE.shiftLeft(64));
    LedgerEntry e = LedgerEntry.of("day " + day, new Span(day * 86400L, (day + 1) * 86400L),
        new PrivacyUnit.ClientBound(2, 86400), new ReleaseGuarantee(perReport, tv), 1_000_000L + day);
    return new LedgerRecord(id(day * 86400L, 86400), e, "fixed-work discrete Laplace", settings);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void roundTripsExactlyAndABatchCostsOnce(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      LedgerRecord first = record(2, Budget.PureDp.parse("1/30"), "s1");
      LedgerRecord second = record(1, Budget.ZCdp.parse("1/8"), "s1");
      LedgerRecord third = record(3, Budget.PureDp.parse("0.25"), "s2");
      assertTrue((boolean) store.inTaskTransaction(task, tx -> tx.ledger().insert(first)));
      assertTrue((boolean) store.inTaskTransaction(task, tx -> tx.ledger().insert(second)));
      assertTrue((boolean) store.inTaskTransaction(task, tx -> tx.ledger().insert(third)));
      assertFalse((boolean) store.inTaskTransaction(task, tx -> tx.ledger().insert(record(2, Budget.PureDp.parse("5"), "s9"))),
          "the same batch again");
      assertEquals(List.of(second, first, third), store.inTaskTransaction(task, tx -> tx.ledger().entries()),
          "oldest draw first, every rational exact");
      assertEquals(Rational.of(1, 2), second.entry().perUnit().perRelease().parameter(), "2^2 x 1/8");
      assertEquals(List.of(new RecordedSettings("s1", 2), new RecordedSettings("s2", 1)),
          store.inTaskTransaction(task, tx -> tx.ledger().settings()));
      assertEquals(List.of(), store.inTaskTransaction(randomTask(), tx -> tx.ledger().entries()));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void anInsertRollsBackWithItsTransaction(String backend) {
    try (JdbcDatastore store = Stores.open(backend, dir)) {
      TaskId task = randomTask();
      assertThrows(IllegalStateException.class, () -> store.inTaskTransaction(task, tx -> {
        tx.ledger().insert(record(1, Budget.PureDp.parse("1"), "s"));
        throw new IllegalStateException("the draw failed");
      }));
      assertEquals(List.of(), store.inTaskTransaction(task, tx -> tx.ledger().entries()));
    }
  }
}
