package org.priodp.aggregator.store;

import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.TaskId;

/**
 * What the DAP-18 aggregate-share service persists ("Obtaining Aggregate Shares", "Aggregate
 * Share Deletion"): batch aggregations written by the host, noised shares written once per batch
 * (first writer wins), and the aggregate-share resources served by GET and DELETE. Implementations
 * are thread-safe. Failures of the underlying database surface as {@link StoreException}.
 */
public interface AggregateShareStore extends AutoCloseable {
  /** Returns the schema version the database is at after migration. */
  int schemaVersion();

  /** Inserts or replaces the host's batch aggregation for (task, batch identifier). */
  void putBatchAggregation(BatchAggregation aggregation);

  /** Returns the batch aggregation for (task, batch identifier), if any. */
  Optional<BatchAggregation> batchAggregation(TaskId taskId, byte[] batchIdentifier);

  /**
   * Returns the task's batch aggregations whose identifiers lie in [fromInclusive, toExclusive)
   * in unsigned byte-wise order, sorted by identifier.
   */
  List<BatchAggregation> batchAggregations(TaskId taskId, byte[] fromInclusive, byte[] toExclusive);

  /**
   * Stores the noised share unless one exists for (task, batch identifier), then returns the
   * stored one: the first writer wins and every caller gets the same share.
   */
  NoisedAggregateShare putNoisedShareIfAbsent(NoisedAggregateShare candidate);

  /** Returns the noised share for (task, batch identifier), if any. */
  Optional<NoisedAggregateShare> noisedShare(TaskId taskId, byte[] batchIdentifier);

  /**
   * Returns the batch identifiers of the task's noised shares, in unsigned byte-wise order (used
   * for the DAP-18 batchOverlap check).
   */
  List<byte[]> noisedBatchIdentifiers(TaskId taskId);

  /**
   * Stores the released (sealed) aggregate share unless one exists for (task, batch identifier),
   * then returns the stored one: the first writer wins and every caller gets the same bytes.
   */
  ReleasedAggregateShare putReleasedShareIfAbsent(ReleasedAggregateShare candidate);

  /** Returns the released aggregate share for (task, batch identifier), if any. */
  Optional<ReleasedAggregateShare> releasedShare(TaskId taskId, byte[] batchIdentifier);

  /**
   * Creates the resource unless one exists for the same (task, request digest), then returns the
   * stored one; throws StoreException if the id is taken by a different request.
   */
  AggregateShareResource createResourceIfAbsent(AggregateShareResource candidate);

  /** Returns the resource (task, id), if any. */
  Optional<AggregateShareResource> resource(TaskId taskId, AggregateShareId id);

  /** Deletes the resource (task, id), keeping the noised share; returns whether it existed. */
  boolean deleteResource(TaskId taskId, AggregateShareId id);

  /**
   * Checks that the database answers a trivial query now; throws {@link StoreException} with the
   * cause if it does not (used by the readiness probe).
   */
  void checkReady();

  /** Releases the database connections. */
  @Override
  void close();
}
