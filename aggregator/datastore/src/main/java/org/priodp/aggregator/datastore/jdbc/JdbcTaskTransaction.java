package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregateShareRepository;
import org.priodp.aggregator.datastore.AggregationJobRepository;
import org.priodp.aggregator.datastore.BatchBucketRepository;
import org.priodp.aggregator.datastore.ClientReportRepository;
import org.priodp.aggregator.datastore.CollectionJobRepository;
import org.priodp.aggregator.datastore.CounterRepository;
import org.priodp.aggregator.datastore.LedgerRepository;
import org.priodp.aggregator.datastore.ReleaseRepository;
import org.priodp.aggregator.datastore.RetentionRepository;
import org.priodp.aggregator.datastore.StatusRepository;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.aggregator.datastore.VdafVerifyKeyRepository;

/**
 * A {@link TaskTransaction} on the connection of one JDBC transaction that holds the task's lock
 * ({@link JdbcDatastore#inTaskTransaction}; DESIGN.md non-negotiable 3): its repositories share
 * that connection.
 */
final class JdbcTaskTransaction implements TaskTransaction {
  private final TaskId taskId;
  private final JdbcClientReports clientReports;
  private final JdbcAggregationJobs aggregationJobs;
  private final JdbcBatchBuckets batchBuckets;
  private final JdbcReleases releases;
  private final JdbcAggregateShares aggregateShares;
  private final JdbcCollectionJobs collectionJobs;
  private final JdbcRetention retention;
  private final JdbcVdafVerifyKeys vdafVerifyKeys;
  private final JdbcCounters counters;
  private final JdbcLedger ledger;
  private final JdbcStatus status;
  private final JdbcCollectorBatches collectorBatches;

  JdbcTaskTransaction(Connection c, TaskId taskId) {
    this.taskId = taskId;
    this.clientReports = new JdbcClientReports(c, taskId);
    this.aggregationJobs = new JdbcAggregationJobs(c, taskId);
    this.batchBuckets = new JdbcBatchBuckets(c, taskId);
    this.releases = new JdbcReleases(c, taskId);
    this.aggregateShares = new JdbcAggregateShares(c, taskId);
    this.collectionJobs = new JdbcCollectionJobs(c, taskId);
    this.retention = new JdbcRetention(c, taskId);
    this.vdafVerifyKeys = new JdbcVdafVerifyKeys(c, taskId);
    this.counters = new JdbcCounters(c, taskId);
    this.ledger = new JdbcLedger(c, taskId);
    this.status = new JdbcStatus(c, taskId);
    this.collectorBatches = new JdbcCollectorBatches(c, taskId);
  }

  @Override
  public TaskId taskId() {
    return taskId;
  }

  @Override
  public ClientReportRepository clientReports() {
    return clientReports;
  }

  @Override
  public AggregationJobRepository aggregationJobs() {
    return aggregationJobs;
  }

  @Override
  public BatchBucketRepository batchBuckets() {
    return batchBuckets;
  }

  @Override
  public ReleaseRepository releases() {
    return releases;
  }

  @Override
  public AggregateShareRepository aggregateShares() {
    return aggregateShares;
  }

  @Override
  public CollectionJobRepository collectionJobs() {
    return collectionJobs;
  }

  @Override
  public RetentionRepository retention() {
    return retention;
  }

  @Override
  public VdafVerifyKeyRepository vdafVerifyKeys() {
    return vdafVerifyKeys;
  }

  @Override
  public LedgerRepository ledger() {
    return ledger;
  }

  @Override
  public CounterRepository counters() {
    return counters;
  }

  @Override
  public StatusRepository status() {
    return status;
  }

  @Override
  public org.priodp.aggregator.datastore.CollectorBatchRepository collectorBatches() {
    return collectorBatches;
  }
}
