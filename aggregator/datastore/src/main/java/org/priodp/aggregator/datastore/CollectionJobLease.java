package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.ByteString;

/**
 * A lease on a pending collection job (DAP-18 "Distributed Systems and Synchronization
 * Concerns"): the job as it was when leased, who holds the lease, the random token every write
 * of the lessee must present (a write whose token no longer matches changes nothing), when the
 * lease expires, how many times the job was leased so far, and the expired lease of another
 * replica it took over, if any.
 */
public record CollectionJobLease(CollectionJobRecord job, String owner, ByteString token,
    Instant expiresAt, int attempts, Optional<LeaseTakeover> takeover) {
  /** Validates the fields. */
  public CollectionJobLease {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(owner, "owner");
    StoreValues.nonEmpty(token, "token");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(takeover, "takeover");
  }

  /** A lease that took over no other replica's lease. */
  public CollectionJobLease(CollectionJobRecord job, String owner, ByteString token,
      Instant expiresAt, int attempts) {
    this(job, owner, token, expiresAt, attempts, Optional.empty());
  }
}
