package org.priodp.aggregator.datastore;

import org.priodp.aggregator.dap.TaskId;

/**
 * The aggregator's datastore port (DAP-18 "Distributed Systems and Synchronization Concerns"):
 * everything that concerns one task is read and written in a {@link #inTaskTransaction task
 * transaction}, through the repositories of {@link TaskTransaction}; only what spans tasks is
 * reached from here: this aggregator's HPKE keys, the leases that hand Leader aggregation jobs
 * and collection jobs to one driver at a time, readiness, the schema version and closing.
 * Implementations are thread-safe. Failures of the underlying database surface as {@link
 * DatastoreException}.
 */
public interface Datastore extends AutoCloseable {
  /**
   * Runs {@code work} in one database transaction serialized with every other task transaction of
   * the same task across all processes sharing the database (PostgreSQL: a transaction-scoped
   * advisory lock on the task; SQLite: {@code BEGIN IMMEDIATE}, the database write lock), so that
   * a check-then-insert inside it is atomic (DESIGN.md non-negotiable 3). Commits when {@code
   * work} returns and rolls back when it throws, rethrowing its exception unchanged; a database
   * failure rolls back and throws {@link DatastoreException}. Task transactions do not nest.
   */
  <T> T inTaskTransaction(TaskId taskId, TaskWork<T> work);

  /** The work of a {@link #inTaskTransaction task transaction}. */
  @FunctionalInterface
  interface TaskWork<T> {
    /** Runs inside the transaction. */
    T run(TaskTransaction tx);
  }

  /** Returns this aggregator's HPKE keys (DAP-18 "HPKE Configuration Request"), of all tasks. */
  HpkeKeyRepository hpkeKeys();

  /**
   * Returns the leases of Leader aggregation jobs and collection jobs (DAP-18 "Leader
   * Initialization", "Collection Job Initialization"), which hand each job to one driver at a
   * time across processes, each in a short transaction of its own.
   */
  JobLeaseRepository jobLeases();

  /** Returns the schema version the database is at after migration. */
  int schemaVersion();

  /**
   * Checks that the database answers a trivial query now; throws {@link DatastoreException} with
   * the cause if it does not (used by the readiness probe).
   */
  void checkReady();

  /** Releases the database connections. */
  @Override
  void close();
}
