package org.priodp.aggregator.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.priodp.noise.Budget;
import org.priodp.noise.ledger.BudgetCap;
import org.priodp.noise.ledger.PrivacyUnit;

/**
 * A task's privacy unit and budget cap (issue 25, items 1 and 2), and the canonical text of a
 * task's DP settings that each ledger entry records, so a changed setting is found at start
 * (item 4).
 *
 * <p>The canonical text is one {@code field=value} line per setting, in a fixed order, with
 * exact values (rationals as "p/q", durations in seconds): the same settings always give the
 * same text.
 *
 * @param unit whom the guarantee protects; {@link PrivacyUnit.Report} by default
 * @param cap the budget, empty for an uncapped task (the ledger still records)
 */
public record PrivacySettings(PrivacyUnit unit, Optional<BudgetCap> cap) {

  /** One report, no cap: today's behaviour. */
  public static final PrivacySettings DEFAULT = new PrivacySettings(new PrivacyUnit.Report(), Optional.empty());

  /** Validates that both parts are present. */
  public PrivacySettings {
    Objects.requireNonNull(unit, "privacy_unit");
    Objects.requireNonNull(cap, "privacy_budget");
  }

  /** Returns the unit's and the cap's canonical fields, in order. */
  public Map<String, String> fields() {
    Map<String, String> f = new LinkedHashMap<>();
    if (unit instanceof PrivacyUnit.ClientBound c) {
      f.put("privacy_unit", "client");
      f.put("privacy_unit.max_reports", Long.toString(c.maxReports()));
      f.put("privacy_unit.period", Long.toString(c.periodSeconds()));
    } else {
      f.put("privacy_unit", "report");
    }
    cap.ifPresent(c -> {
      f.put("privacy_budget." + c.parameterName(), c.total().parameter().toString());
      c.windowSeconds().ifPresent(w -> f.put("privacy_budget.window", Long.toString(w)));
    });
    return f;
  }

  /** Returns fields as canonical text: one "field=value" line each, in order. */
  public static String canonicalText(Map<String, String> fields) {
    StringBuilder b = new StringBuilder();
    fields.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
    return b.toString();
  }

  /**
   * Returns the first setting that differs between a recorded canonical text and the current
   * one, e.g. "dp_strategy.epsilon changed from 1 to 2"; empty if they are equal. A setting that
   * one side lacks reads "(none)".
   */
  public static Optional<String> firstChange(String recorded, String current) {
    Map<String, String> was = parse(recorded);
    Map<String, String> now = parse(current);
    List<String> keys = new ArrayList<>(now.keySet());
    was.keySet().stream().filter(k -> !now.containsKey(k)).forEach(keys::add);
    for (String k : keys) {
      String a = was.getOrDefault(k, "(none)");
      String b = now.getOrDefault(k, "(none)");
      if (!a.equals(b)) {
        return Optional.of(k + " changed from " + a + " to " + b);
      }
    }
    return Optional.empty();
  }

  private static Map<String, String> parse(String text) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        m.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return m;
  }

  /**
   * Checks that the cap fits a task whose per-release guarantee is {@code perRelease} (empty for
   * a task without noise): no cap without noise, no epsilon cap on a zCDP task.
   *
   * @throws IllegalArgumentException naming privacy_budget otherwise
   */
  void checkFits(Optional<Budget> perRelease) {
    if (cap.isEmpty()) {
      return;
    }
    if (perRelease.isEmpty()) {
      throw new IllegalArgumentException("privacy_budget: the task adds no noise"
          + " (NoDifferentialPrivacy), so it has no privacy to budget; remove privacy_budget or"
          + " choose a DP strategy");
    }
    if (perRelease.get() instanceof Budget.ZCdp && cap.get().total() instanceof Budget.PureDp) {
      throw new IllegalArgumentException("privacy_budget: a zCDP task's budget is a rho"
          + " (zCDP does not imply pure epsilon-DP), got epsilon " + cap.get().total().parameter());
    }
  }
}
