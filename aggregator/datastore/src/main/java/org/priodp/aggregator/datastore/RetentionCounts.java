package org.priodp.aggregator.datastore;

/**
 * What one collection of a task's expired rows deleted (DAP-18 "Reducing Storage
 * Requirements"): the cutoff in force afterwards, report IDs and uploaded reports, aggregation
 * jobs and batch buckets.
 */
public record RetentionCounts(long cutoff, int reports, int jobs, int buckets) {
  /** Counts without buckets (the datastore step deletes none). */
  public RetentionCounts(long cutoff, int reports, int jobs) {
    this(cutoff, reports, jobs, 0);
  }
}
