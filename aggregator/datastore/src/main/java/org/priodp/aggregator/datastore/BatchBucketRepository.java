package org.priodp.aggregator.datastore;

import java.util.List;
import java.util.Optional;

/**
 * A task's batch buckets inside a {@link TaskTransaction} (DAP-18 "Batch Buckets"): per batch
 * identifier the sum of output shares, the report count and the checksum. Identifier ranges are
 * half-open in unsigned byte-wise order.
 */
public interface BatchBucketRepository {
  /** Returns the batch aggregation (bucket) with this identifier, if any. */
  Optional<BatchAggregation> get(BatchIdentifier batch);

  /**
   * Returns the task's batch aggregations whose identifiers lie in [fromInclusive, toExclusive),
   * sorted by identifier.
   */
  List<BatchAggregation> range(BatchIdentifier fromInclusive, BatchIdentifier toExclusive);

  /** Inserts or replaces the batch aggregation (bucket) with this identifier. */
  void put(BatchAggregation aggregation);

  /**
   * Deletes the task's batch aggregations whose identifiers lie in [fromInclusive, toExclusive);
   * returns how many.
   */
  int deleteRange(BatchIdentifier fromInclusive, BatchIdentifier toExclusive);
}
