package org.priodp.aggregator.core;

import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.CollectionJobExtension;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.task.AttributionCodePoints;
import org.priodp.aggregator.task.MicroEpsilon;

/**
 * Reads and applies the privacy budgets of the DAP attribution draft
 * (draft-ietf-ppm-dap-attribution-00): the privacy_budget report extension (section 3), which a
 * Client puts in its report's public extensions so that both aggregators see the same value (the
 * InputShareAad binds them), and the min_dp_budget collection job extension (section 5), under
 * which aggregators reject reports that lack privacy_budget or carry less than the minimum.
 * Stateless; the code points come from the task.
 */
public final class ReportBudgets {
  private ReportBudgets() {
  }

  /** What a report's public extensions say of its privacy budget. */
  public sealed interface Stated permits Absent, Malformed, Spent {
  }

  /** The report carries no privacy_budget extension. */
  public record Absent() implements Stated {
  }

  /** The privacy_budget extension is not a 4-byte uint32; {@code why} says what it is. */
  public record Malformed(String why) implements Stated {
  }

  /** The report says the Client spent this much budget on it. */
  public record Spent(MicroEpsilon budget) implements Stated {
  }

  /** Returns what the public extensions of a report say of its privacy budget. */
  public static Stated stated(AttributionCodePoints codePoints,
      List<ReportExtension> publicExtensions) {
    for (ReportExtension e : publicExtensions) {
      if (e.extensionType() == codePoints.privacyBudget()) {
        try {
          return new Spent(MicroEpsilon.decode(e.extensionData(), "privacy_budget"));
        } catch (IllegalArgumentException x) {
          return new Malformed(x.getMessage());
        }
      }
    }
    return new Absent();
  }

  /**
   * Returns the min_dp_budget of a collection job's extensions, if it has one.
   *
   * @throws IllegalArgumentException starting with "min_dp_budget:" if its data is not a 4-byte
   *     uint32 or is zero (a minimum of no budget would call for unbounded noise)
   */
  public static Optional<MicroEpsilon> minDpBudget(AttributionCodePoints codePoints,
      List<CollectionJobExtension> extensions) {
    for (CollectionJobExtension e : extensions) {
      if (e.extensionType() == codePoints.minDpBudget()) {
        MicroEpsilon m = MicroEpsilon.decode(e.extensionData(), "min_dp_budget");
        if (m.micros() == 0) {
          throw new IllegalArgumentException("min_dp_budget: must be at least one micro-epsilon");
        }
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /**
   * Applies a collection job's minimum to one report (draft section 5: "Reports that lack a
   * privacy budget extension or those with a value below the indicated threshold must be
   * rejected"): a malformed privacy_budget is {@code invalid_message}; an absent one or one below
   * the minimum is {@code report_dropped}; otherwise empty (admitted).
   */
  public static Optional<ReportError> admit(Stated stated, MicroEpsilon minimum) {
    if (stated instanceof Malformed) {
      return Optional.of(ReportError.INVALID_MESSAGE);
    }
    if (stated instanceof Spent s && s.budget().compareTo(minimum) >= 0) {
      return Optional.empty();
    }
    return Optional.of(ReportError.REPORT_DROPPED);
  }
}
