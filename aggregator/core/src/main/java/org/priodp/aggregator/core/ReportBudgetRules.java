package org.priodp.aggregator.core;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntPredicate;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.task.MicroEpsilon;

/**
 * Applies the privacy_budget report extension of the DAP attribution draft
 * (draft-ietf-ppm-dap-attribution-00, section 3) to one report, the same way at the Leader's
 * upload and in both roles' aggregation (DAP-19 "Report Extensions", "Input Share Validation":
 * each aggregator validates the extensions it recognizes). The type under the task's code point
 * is the one report extension prio-dp recognizes. It must be public, so that both aggregators see
 * the same value (the InputShareAad binds it): in a private list it is {@code invalid_message}; so
 * is data that is not a 4-byte uint32. In a task whose DP strategy takes epsilon from the
 * reports ({@link org.priodp.vdaf.dp.DpStrategy#budgetFromReports()}) a report without it is
 * {@code report_dropped}, and so is one that states a budget of zero (it could be counted under no
 * finite noise), so the batch's least budget is always defined and positive. Stateless.
 */
final class ReportBudgetRules {
  private ReportBudgetRules() {
  }

  /** One report's verdict: the error that refuses it, else the budget it carries (if any). */
  record Verdict(Optional<ReportError> error, Optional<MicroEpsilon> budget) {
    /** Rejects null parts. */
    Verdict {
      Objects.requireNonNull(error, "error");
      Objects.requireNonNull(budget, "budget");
    }

    static Verdict refuse(ReportError e) {
      return new Verdict(Optional.of(e), Optional.empty());
    }
  }

  /** Returns the report extension types the task recognizes: privacy_budget under its code point. */
  static IntPredicate recognized(TaskDefinition task) {
    int type = task.attribution().codePoints().privacyBudget();
    return t -> t == type;
  }

  /**
   * Returns the verdict on a report whose extension lists already passed {@link
   * ReportExtension#validate} with {@link #recognized}: a privacy_budget among the private
   * extensions or malformed is {@code invalid_message}; none in a report-budget task is {@code
   * report_dropped}; otherwise the budget it states, if any.
   */
  static Verdict check(TaskDefinition task, List<ReportExtension> publicExtensions,
      List<ReportExtension> privateExtensions) {
    int type = task.attribution().codePoints().privacyBudget();
    if (privateExtensions.stream().anyMatch(e -> e.extensionType() == type)) {
      return Verdict.refuse(ReportError.INVALID_MESSAGE);
    }
    ReportBudgets.Stated stated = ReportBudgets.stated(task.attribution().codePoints(),
        publicExtensions);
    if (stated instanceof ReportBudgets.Malformed) {
      return Verdict.refuse(ReportError.INVALID_MESSAGE);
    }
    if (stated instanceof ReportBudgets.Spent s) {
      if (s.budget().micros() == 0 && task.dpStrategy().budgetFromReports()) {
        // a report that spent nothing can be counted under no finite noise, and would leave
        // its batch without a release epsilon: it is dropped, as one without a budget
        return Verdict.refuse(ReportError.REPORT_DROPPED);
      }
      return new Verdict(Optional.empty(), Optional.of(s.budget()));
    }
    return task.dpStrategy().budgetFromReports() ? Verdict.refuse(ReportError.REPORT_DROPPED)
        : new Verdict(Optional.empty(), Optional.empty());
  }
}
