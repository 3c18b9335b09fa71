package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The VDAF verification keys of one task by verification_key_id (DAP-19 "Leader
 * Initialization", "Helper Initialization"), in the task transaction: operators add and retire
 * keys while the aggregator runs, and both roles read them at each aggregation job.
 */
public interface VdafVerifyKeyRepository {
  /** Returns the task's keys, active and retired, by id. */
  List<VdafVerifyKey> all();

  /** Inserts a key unless its id is taken (active or retired); returns whether it was inserted. */
  boolean insertIfAbsent(VdafVerifyKey key);

  /** Sets the state of the key with this id; returns whether it exists. */
  boolean setState(int id, VdafVerifyKey.State state);

  /**
   * Records (or, with empty, clears) when the Helper answered unknown_verification_key_id for the
   * key with this id; returns whether it exists.
   */
  boolean setHelperRejectedAt(int id, Optional<Instant> at);
}
