package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;

/**
 * The lease a new lease replaced without it being given back (DAP-18 "Distributed Systems and
 * Synchronization Concerns": a job whose driver stopped is taken up by another): the replica
 * that held it and when it expired. A lease its holder released, postponed or finished leaves
 * none.
 */
public record LeaseTakeover(String previousOwner, Instant expiredAt) {
  /** Validates the fields. */
  public LeaseTakeover {
    Objects.requireNonNull(previousOwner, "previousOwner");
    Objects.requireNonNull(expiredAt, "expiredAt");
  }
}
