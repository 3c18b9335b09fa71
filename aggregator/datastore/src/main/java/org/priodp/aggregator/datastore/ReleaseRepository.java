package org.priodp.aggregator.datastore;

import java.util.List;
import java.util.Optional;

/**
 * What a task released inside a {@link TaskTransaction} (DAP-18 "Obtaining Aggregate Shares",
 * "Aggregate Share Encryption"; DESIGN.md non-negotiable 3): the noised share of each batch,
 * persisted before it is released so that noise is drawn once; the sealed aggregate share, stored
 * once because HPKE sealing is randomized; and the time ranges of released time-interval batches
 * for the batchOverlap check. Noised and released shares are never deleted.
 */
public interface ReleaseRepository {
  /** Returns the noised share of a batch, if any. */
  Optional<NoisedAggregateShare> noisedShare(BatchIdentifier batch);

  /**
   * Inserts the noised share of a new batch and, for a time-interval batch, the range it covers;
   * throws {@link DatastoreException} if the batch already has one (the caller checked first,
   * under the same transaction, so this means a bug).
   */
  void insertNoisedShare(NoisedAggregateShare share, Optional<CollectedInterval> range);

  /** Returns the released aggregate share of a batch, if any. */
  Optional<ReleasedAggregateShare> releasedShare(BatchIdentifier batch);

  /**
   * Stores the released (sealed) aggregate share unless the batch has one, then returns the
   * stored one: the first writer wins and every caller gets the same bytes.
   */
  ReleasedAggregateShare putReleasedShareIfAbsent(ReleasedAggregateShare candidate);

  /** Returns the time ranges of the task's released time-interval batches, by start. */
  List<CollectedInterval> collectedIntervals();

  /** Returns whether a released batch of the task covers any point of {@code range}. */
  boolean collectedIntervalOverlaps(CollectedInterval range);
}
