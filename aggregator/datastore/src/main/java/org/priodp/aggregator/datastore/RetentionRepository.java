package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Optional;

/**
 * A task's retention inside a {@link TaskTransaction} (DAP-18 "Reducing Storage Requirements"):
 * the cutoff below which report IDs may have been deleted, and the collection of expired rows.
 * Times are in time_precision units, unsigned.
 */
public interface RetentionRepository {
  /**
   * Returns the task's retention cutoff: report IDs of reports older than it may have been
   * deleted, so such reports must be rejected (report_dropped). Empty if nothing was ever
   * collected.
   */
  Optional<Long> cutoff();

  /**
   * Collects the task's expired rows: first raises the stored retention cutoff to {@code cutoff}
   * (never lowers it), then deletes the report IDs whose time is below the stored cutoff and the
   * finished (ready, failed, abandoned) Helper aggregation jobs created before {@code
   * jobsCreatedBefore}, and the Leader's uploaded reports below the cutoff that no active Leader
   * aggregation job holds (counted with the report IDs). Noised and released shares, collected
   * intervals and batch buckets are never touched.
   */
  RetentionCounts collectExpired(long cutoff, Instant jobsCreatedBefore);
}
