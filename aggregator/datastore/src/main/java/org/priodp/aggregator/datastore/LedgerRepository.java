package org.priodp.aggregator.datastore;

import java.util.List;

/**
 * A task's privacy ledger inside a {@link TaskTransaction} (issue 25, items 1 and 2): one record
 * per batch whose noise was drawn. The release transaction reads it, decides the budget and
 * inserts the new record, so the decision and the draw commit together.
 */
public interface LedgerRepository {
  /** Returns the task's ledger, oldest draw first (then by batch identifier). */
  List<LedgerRecord> entries();

  /**
   * Inserts the record of a batch; returns false, writing nothing, if the batch already has one
   * (a batch costs once).
   */
  boolean insert(LedgerRecord record);

  /**
   * Returns the canonical DP settings texts recorded with the task's releases, each with how
   * many releases recorded it, oldest first: what start-up compares the task's settings to.
   */
  List<RecordedSettings> settings();

  /** A settings text and the number of releases that recorded it. */
  record RecordedSettings(String settings, long releases) {}
}
