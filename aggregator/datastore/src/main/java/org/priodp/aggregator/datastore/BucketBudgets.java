package org.priodp.aggregator.datastore;

import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.task.MicroEpsilon;

/**
 * The privacy budgets of the reports counted in a batch bucket (draft-ietf-ppm-dap-attribution-00,
 * sections 3 and 5): the least privacy_budget report extension among them, and whether any was
 * counted without one. A bucket written before schema version 16, which kept no budgets, reads as
 * {@link #UNKNOWN} (some report may have lacked one). Immutable.
 *
 * @param minimum the least privacy_budget of the counted reports that carried one
 * @param missing whether some counted report carried none (or is not known to have one)
 */
public record BucketBudgets(Optional<MicroEpsilon> minimum, boolean missing) {
  /** No report counted. */
  public static final BucketBudgets EMPTY = new BucketBudgets(Optional.empty(), false);

  /** Reports counted whose budgets were not kept: treated as lacking one. */
  public static final BucketBudgets UNKNOWN = new BucketBudgets(Optional.empty(), true);

  /** Rejects a null minimum. */
  public BucketBudgets {
    Objects.requireNonNull(minimum, "minimum");
  }

  /** Returns the budgets of one report: its privacy_budget, or missing. */
  public static BucketBudgets ofReport(Optional<MicroEpsilon> budget) {
    return new BucketBudgets(budget, budget.isEmpty());
  }

  /** Returns the budgets of the union of both buckets' reports: the lesser minimum, either missing. */
  public BucketBudgets union(BucketBudgets o) {
    Optional<MicroEpsilon> m = minimum.isEmpty() ? o.minimum
        : o.minimum.isEmpty() ? minimum
        : Optional.of(minimum.get().compareTo(o.minimum.get()) <= 0 ? minimum.get() : o.minimum.get());
    return new BucketBudgets(m, missing || o.missing);
  }
}
