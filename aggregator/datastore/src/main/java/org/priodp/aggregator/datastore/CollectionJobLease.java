package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import org.priodp.aggregator.dap.ByteString;

/**
 * A lease on a pending collection job (DAP-18 "Distributed Systems and Synchronization
 * Concerns"): the job as it was when leased, who holds the lease, the random token every write
 * of the lessee must present (a write whose token no longer matches changes nothing), when the
 * lease expires and how many times the job was leased so far.
 */
public record CollectionJobLease(CollectionJobRecord job, String owner, ByteString token,
    Instant expiresAt, int attempts) {
  /** Validates the fields. */
  public CollectionJobLease {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(owner, "owner");
    StoreValues.nonEmpty(token, "token");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
