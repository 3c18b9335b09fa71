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
   * Widens the recorded report-time range of the bucket with this identifier to include
   * [earliest, latest] (issue 25: the span of a leader-selected batch); a bucket without a range
   * takes this one. Does nothing if the bucket does not exist.
   */
  void widenReportTimes(BatchIdentifier batch, ReportTimes times);

  /**
   * Returns the report-time range over the buckets whose identifiers lie in [fromInclusive,
   * toExclusive), empty if none of them has one (none counted a report since version 14).
   */
  Optional<ReportTimes> reportTimes(BatchIdentifier fromInclusive, BatchIdentifier toExclusive);

  /**
   * Deletes the task's batch aggregations whose identifiers lie in [fromInclusive, toExclusive);
   * returns how many.
   */
  int deleteRange(BatchIdentifier fromInclusive, BatchIdentifier toExclusive);
}
