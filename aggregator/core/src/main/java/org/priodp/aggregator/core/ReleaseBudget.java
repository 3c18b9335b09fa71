package org.priodp.aggregator.core;

import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.CollectionJobExtension;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.datastore.BucketBudgets;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * Decides the privacy budget of one release under the DAP attribution draft
 * (draft-ietf-ppm-dap-attribution-00, section 5, min_dp_budget; section 3, privacy_budget): the
 * collection job extensions an aggregator accepts, the safeguard that refuses a batch holding a
 * report below the job's minimum, and the epsilon the release is noised with. Both roles call it:
 * the Leader when a collection job is created and for its own share, the Helper for each
 * AggregateShareReq (which carries the collection job's extensions), so each aggregator enforces
 * the minimum on its own batch buckets (DAP-19: each aggregator validates extensions
 * independently). Stateless.
 *
 * <p>The release epsilon of a report-budget task ({@link
 * org.priodp.vdaf.dp.DpStrategy#budgetFromReports()}): the job's min_dp_budget when present (the
 * draft's "optimization and safeguard" use: the noise is calibrated to the minimum), otherwise the
 * least privacy_budget of the batch's reports (the "safeguard alone" use). Any other task noises
 * as configured; a min_dp_budget on it is the safeguard alone.
 */
final class ReleaseBudget {
  private ReleaseBudget() {
  }

  /**
   * Returns the min_dp_budget of a collection job's extensions, if any: the one collection job
   * extension prio-dp supports.
   *
   * @throws Refusal unsupportedExtension for any other type, invalidExtension for a min_dp_budget
   *     that is not a non-zero 4-byte uint32
   */
  static Optional<MicroEpsilon> minDpBudget(TaskDefinition task,
      List<CollectionJobExtension> extensions) {
    int type = task.attribution().codePoints().minDpBudget();
    for (CollectionJobExtension e : extensions) {
      if (e.extensionType() != type) {
        throw Refusal.of(DapError.UNSUPPORTED_EXTENSION, task.taskId(), "collection job"
            + " extensions: only min_dp_budget (type " + type + ") is supported, got type "
            + e.extensionType());
      }
    }
    try {
      return ReportBudgets.minDpBudget(task.attribution().codePoints(), extensions);
    } catch (IllegalArgumentException x) {
      throw Refusal.of(DapError.INVALID_EXTENSION, task.taskId(), x.getMessage());
    }
  }

  /**
   * Returns the mechanism that noises the release of a batch whose reports have {@code budgets},
   * after the safeguard: with a min_dp_budget, a batch with a report below it or without a
   * privacy_budget is refused with invalidMessage naming min_dp_budget (the collection job asks
   * for what this batch cannot give; nothing is drawn or charged). Not batchMismatch: the Leader
   * reads that from its own release as "an aggregation job committed meanwhile, try again",
   * which would keep such a job waiting forever instead of failing it.
   *
   * @throws Refusal invalidMessage as above, and if a report-budget task's batch has no defined
   *     epsilon (a report without a budget counted before version 16) or the fixed-work sampler
   *     cannot serve the scale at the release epsilon
   */
  static Prio3DpMechanism mechanism(TaskDefinition task, Optional<MicroEpsilon> minDpBudget,
      BucketBudgets budgets) {
    if (minDpBudget.isPresent() && (budgets.missing() || budgets.minimum()
        .map(m -> m.compareTo(minDpBudget.get()) < 0).orElse(false))) {
      throw Refusal.of(DapError.INVALID_MESSAGE, task.taskId(), "min_dp_budget: the batch holds"
          + " a report whose privacy_budget is below " + minDpBudget.get().toDecimal()
          + " or absent (draft-ietf-ppm-dap-attribution-00, section 5)");
    }
    if (!task.dpStrategy().budgetFromReports()) {
      return task.mechanism();
    }
    Optional<MicroEpsilon> epsilon = minDpBudget.isPresent() ? minDpBudget
        : budgets.missing() ? Optional.empty() : budgets.minimum();
    if (epsilon.isEmpty() || epsilon.get().micros() == 0) {
      throw Refusal.of(DapError.INVALID_MESSAGE, task.taskId(), "the batch has no release"
          + " epsilon: a report was counted without a non-zero privacy_budget; give min_dp_budget");
    }
    try {
      return task.mechanismAt(epsilon.get().epsilon());
    } catch (IllegalArgumentException x) {
      throw Refusal.of(DapError.INVALID_MESSAGE, task.taskId(), "release epsilon "
          + epsilon.get().toDecimal() + ": " + x.getMessage());
    }
  }
}
