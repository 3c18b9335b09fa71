package org.priodp.noise.ledger;

import java.util.Objects;
import java.util.Optional;
import org.priodp.noise.Budget;

/**
 * A task's privacy budget per privacy unit (issue 25, item 2): a total epsilon (pure DP) or rho
 * (zCDP), over the task's life or over any window of {@code windowSeconds}.
 *
 * <p>A release touches the window [t, t + W) if its span intersects it; the cap bounds, for
 * every t, the sum of the per-unit costs of the releases touching [t, t + W).
 *
 * @param total the budget
 * @param windowSeconds empty for the task's life, else W >= 1
 */
public record BudgetCap(Budget total, Optional<Long> windowSeconds) {

  /**
   * Validates that the window, if any, is at least one second.
   *
   * @throws IllegalArgumentException otherwise
   */
  public BudgetCap {
    Objects.requireNonNull(total, "total");
    Objects.requireNonNull(windowSeconds, "windowSeconds");
    if (windowSeconds.isPresent() && windowSeconds.get() < 1) {
      throw new IllegalArgumentException("budget window must be >= 1 second, got " + windowSeconds.get());
    }
  }

  /** Returns a cap over the task's life. */
  public static BudgetCap life(Budget total) {
    return new BudgetCap(total, Optional.empty());
  }

  /** Returns a cap over any window of {@code seconds}. */
  public static BudgetCap window(Budget total, long seconds) {
    return new BudgetCap(total, Optional.of(seconds));
  }

  /** Returns "epsilon" or "rho". */
  public String parameterName() {
    return total instanceof Budget.PureDp ? "epsilon" : "rho";
  }

  /**
   * Returns the cap for people, naming the unit, e.g. "epsilon 1 per client (1 report per
   * 86400 s) over any 30d window" or "rho 1/2 per report over the task's life".
   */
  public String describe(PrivacyUnit unit) {
    return parameterName() + " " + total.parameter() + " per " + unit.describe()
        + windowSeconds.map(w -> " over any " + Durations.format(w) + " window").orElse(" over the task's life");
  }
}
