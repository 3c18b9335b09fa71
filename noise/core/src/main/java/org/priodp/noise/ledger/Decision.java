package org.priodp.noise.ledger;

import java.util.Objects;
import org.priodp.noise.Rational;

/**
 * The ledger's answer to a new release (issue 25, item 2): admitted, or refused with the cap,
 * what is spent in the worst window the release would join, what is left there, and what the
 * release would cost.
 */
public sealed interface Decision permits Decision.Admitted, Decision.Refused {

  /** The release fits under the cap (or the task has none). */
  record Admitted(Rational cost) implements Decision {
    /** Validates that the cost is present. */
    public Admitted {
      Objects.requireNonNull(cost, "cost");
    }
  }

  /**
   * The release would push the worst window over the cap.
   *
   * @param cap the cap it would exceed
   * @param spent the most spent in a window the release would touch
   * @param remaining cap minus spent (never negative)
   * @param asked the release's per-unit cost
   */
  record Refused(BudgetCap cap, Rational spent, Rational remaining, Rational asked) implements Decision {
    /** Validates that every part is present. */
    public Refused {
      Objects.requireNonNull(cap, "cap");
      Objects.requireNonNull(spent, "spent");
      Objects.requireNonNull(remaining, "remaining");
      Objects.requireNonNull(asked, "asked");
    }

    /**
     * Returns the refusal for people, e.g. "privacy budget exhausted: epsilon 1 per client (1
     * report per 86400 s) over any 30d window; spent 29/30, left 1/30; this release would cost
     * 1/15".
     */
    public String describe(PrivacyUnit unit) {
      String p = cap.parameterName();
      return "privacy budget exhausted: " + cap.describe(unit) + "; spent " + p + " " + spent
          + ", left " + remaining + "; this release would cost " + asked;
    }
  }
}
