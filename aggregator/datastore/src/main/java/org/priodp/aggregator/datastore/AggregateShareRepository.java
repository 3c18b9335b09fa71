package org.priodp.aggregator.datastore;

import java.util.Optional;
import org.priodp.aggregator.dap.AggregateShareId;

/**
 * The Helper's aggregate-share resources of a task inside a {@link TaskTransaction} (DAP-18
 * "Obtaining Aggregate Shares", "Aggregate Share Deletion", "Asynchronous Request Handling"): the
 * resource a request created, found again by a byte-identical request ("Resource Creation"), and
 * the stored request of a resource answered asynchronously. Deleting a resource never deletes the
 * noised share.
 */
public interface AggregateShareRepository {
  /**
   * Creates the resource unless one exists for the same request digest, then returns the stored
   * one; throws {@link DatastoreException} if the id is taken by a different request.
   */
  AggregateShareResource createIfAbsent(AggregateShareResource candidate);

  /** Returns the resource with this id, if any. */
  Optional<AggregateShareResource> get(AggregateShareId id);

  /** Deletes the resource, keeping the noised share; returns whether it existed. */
  boolean delete(AggregateShareId id);

  /**
   * Stores the request of a resource answered asynchronously unless one is stored for its id,
   * then returns the stored one.
   */
  AggregateShareRequest putRequestIfAbsent(AggregateShareRequest candidate);

  /** Returns the stored request of an asynchronous resource, if any. */
  Optional<AggregateShareRequest> request(AggregateShareId id);

  /** Records the DAP error an asynchronous resource failed with; returns whether it is stored. */
  boolean failRequest(AggregateShareId id, String errorType, String errorDetail);
}
