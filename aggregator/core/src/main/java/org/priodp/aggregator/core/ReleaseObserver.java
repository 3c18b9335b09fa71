package org.priodp.aggregator.core;

import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;

/**
 * Hears of each release of a batch's aggregate share at the one point where its noised share is
 * persisted and nothing sealed has left yet (DAP-18 "Obtaining Aggregate Shares"; DESIGN.md
 * non-negotiable 3: a share is persisted before it is released). Production passes {@link
 * #NONE}; crash tests pass one that halts the process there, to prove that a restart releases
 * exactly the persisted noise.
 */
@FunctionalInterface
public interface ReleaseObserver {
  /** The observer that does nothing. */
  ReleaseObserver NONE = (taskId, batch) -> { };

  /**
   * Called by {@link NoisedShareService} after the batch's noised share is persisted (drawn now
   * or before) and before it is sealed to the Collector and stored as released.
   */
  void noisePersisted(TaskId taskId, BatchIdentifier batch);
}
