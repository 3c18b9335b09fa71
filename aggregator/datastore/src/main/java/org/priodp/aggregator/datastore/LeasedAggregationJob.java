package org.priodp.aggregator.datastore;

import java.util.Objects;
import java.util.Optional;

/**
 * A Leader aggregation job as just leased (DAP-18 "Distributed Systems and Synchronization
 * Concerns"), with the expired lease of another replica this lease took over, if any.
 */
public record LeasedAggregationJob(LeaderAggregationJob job, Optional<LeaseTakeover> takeover) {
  /** Validates the fields. */
  public LeasedAggregationJob {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(takeover, "takeover");
  }
}
