package org.priodp.aggregator.datastore;

import org.priodp.aggregator.dap.TaskId;

/**
 * One task's datastore inside one database transaction that is serialized with every other
 * {@link Datastore#inTaskTransaction task transaction} of the same task, in this process and in
 * any other process on the same database (DESIGN.md non-negotiable 3; DAP-18 "Distributed Systems
 * and Synchronization Concerns"). What the work reads cannot change before it commits, so a
 * check-then-insert inside it is atomic. Its repositories, one per aggregate, read and write only
 * this task's rows. Valid only during the call that received it.
 */
public interface TaskTransaction {
  /** Returns the task this transaction holds. */
  TaskId taskId();

  /** Returns the Leader's uploaded reports and both roles' record of aggregated report IDs. */
  ClientReportRepository clientReports();

  /** Returns the Helper's and the Leader's aggregation jobs. */
  AggregationJobRepository aggregationJobs();

  /** Returns the batch buckets (batch aggregations). */
  BatchBucketRepository batchBuckets();

  /** Returns the noised and released aggregate shares and the ranges of collected batches. */
  ReleaseRepository releases();

  /** Returns the Helper's aggregate-share resources and their asynchronous requests. */
  AggregateShareRepository aggregateShares();

  /** Returns the Leader's collection jobs. */
  CollectionJobRepository collectionJobs();

  /** Returns the retention cutoff and the collection of expired rows. */
  RetentionRepository retention();

  /** Returns the task's VDAF verification keys by verification_key_id. */
  VdafVerifyKeyRepository vdafVerifyKeys();

  /** Returns the task's privacy ledger: one record per batch whose noise was drawn (issue 25). */
  LedgerRepository ledger();

  /** Returns the task's pipeline counters, incremented by the transactions that decide events. */
  CounterRepository counters();

  /** Returns the read-only view of the task's pipeline an operator's status shows. */
  StatusRepository status();

  /** Returns the batches of the task's collector-selected collection jobs. */
  CollectorBatchRepository collectorBatches();
}
