package org.priodp.aggregator.datastore;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.LedgerEntry;
import org.priodp.noise.ledger.PrivacyUnit;
import org.priodp.noise.ledger.ReleaseGuarantee;
import org.priodp.noise.ledger.Span;

class LedgerRecordTest {
  @Test
  void refusesTextsLongerThanTheirColumns() {
    LedgerEntry e = LedgerEntry.of("b", new Span(0, 1), new PrivacyUnit.Report(),
        new ReleaseGuarantee(Budget.PureDp.parse("1"), Rational.ZERO), 0);
    BatchIdentifier id = BatchIdentifier.of(new byte[] {1});
    new LedgerRecord(id, e, "s".repeat(LedgerRecord.MAX_SAMPLER), "x".repeat(LedgerRecord.MAX_SETTINGS));
    assertThrows(IllegalArgumentException.class,
        () -> new LedgerRecord(id, e, "s".repeat(LedgerRecord.MAX_SAMPLER + 1), "x"));
    assertThrows(IllegalArgumentException.class,
        () -> new LedgerRecord(id, e, "s", "x".repeat(LedgerRecord.MAX_SETTINGS + 1)));
    LedgerEntry longBatch = LedgerEntry.of("b".repeat(201), new Span(0, 1), new PrivacyUnit.Report(),
        new ReleaseGuarantee(Budget.PureDp.parse("1"), Rational.ZERO), 0);
    assertThrows(IllegalArgumentException.class, () -> new LedgerRecord(id, longBatch, "s", "x"));
    assertThrows(NullPointerException.class, () -> new LedgerRecord(null, e, "s", "x"));
  }
}
