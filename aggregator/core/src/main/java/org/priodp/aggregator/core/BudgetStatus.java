package org.priodp.aggregator.core;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.aggregator.task.LedgerHeader;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.BudgetCap;
import org.priodp.noise.ledger.Guarantee;
import org.priodp.noise.ledger.PrivacyLedger;
import org.priodp.noise.ledger.PrivacyUnit;
import org.priodp.noise.ledger.Span;

/**
 * What a task's privacy ledger says at one instant, for people (issue 25, item 3; docs/PRIVACY.md
 * "Privacy over time"): the privacy unit, the cap, each release with its per-unit cost, the
 * worst-case spend (worst window), what the cap leaves, what a batch starting now could still
 * spend, and the stated guarantee of the worst window with its delta. Read in one task
 * transaction from the store only, so {@code budget}, {@code status}, {@code GET /admin/status},
 * the metrics and the Leader's {@link LedgerHeader} all say the same on any replica.
 *
 * @param unit whom the guarantee protects
 * @param cap the task's budget, empty for an uncapped task
 * @param measure "epsilon" or "rho": the currency of every cost and amount here
 * @param releases the ledger's records, oldest draw first
 * @param spent the worst-case loss of one privacy unit (the worst window, or the task's life)
 * @param remaining what the cap leaves of the worst window, if capped
 * @param remainingNow what a batch starting now could still spend, if capped
 * @param statement the worst window's guarantee as (epsilon, delta)-DP, empty with no release
 * @param timePrecision the task's time precision in seconds
 * @param at when it was read
 */
public record BudgetStatus(PrivacyUnit unit, Optional<BudgetCap> cap, String measure,
    List<LedgerRecord> releases, Rational spent, Optional<Rational> remaining,
    Optional<Rational> remainingNow, Optional<Guarantee> statement, long timePrecision,
    Instant at) {
  /**
   * The delta' of a zCDP ledger's (epsilon, delta) statement: rho-zCDP implies (rho + 2 sqrt(rho
   * ln(1/delta')), delta')-DP for every delta' (Bun and Steinke 2016, Proposition 1.3); 10^-9 is
   * a conventional choice, stated with the figure.
   */
  public static final Rational ZCDP_DELTA_PRIME = Rational.of(1, 1_000_000_000L);

  /** Rejects nulls and copies the list. */
  public BudgetStatus {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(cap, "cap");
    Objects.requireNonNull(measure, "measure");
    releases = List.copyOf(releases);
    Objects.requireNonNull(spent, "spent");
    Objects.requireNonNull(remaining, "remaining");
    Objects.requireNonNull(remainingNow, "remainingNow");
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(at, "at");
  }

  /** Returns the task's budget status read in one transaction, empty for a task without noise. */
  public static Optional<BudgetStatus> read(Datastore store, TaskDefinition task, Instant now) {
    if (!task.addsNoise()) {
      return Optional.empty();
    }
    return Optional.of(store.inTaskTransaction(task.taskId(), tx -> read(tx, task, now)));
  }

  /** Returns the budget status of a task that adds noise, read in {@code tx}. */
  public static BudgetStatus read(TaskTransaction tx, TaskDefinition task, Instant now) {
    List<LedgerRecord> records = tx.ledger().entries();
    PrivacyLedger ledger = new PrivacyLedger(records.stream().map(LedgerRecord::entry).toList(),
        task.privacy().cap());
    // an empty uncapped ledger has no currency of its own: the task's
    boolean rho = records.isEmpty() && task.privacy().cap().isEmpty()
        ? task.dpStrategy().forRelease(Rational.ONE).budget().orElseThrow()
            instanceof org.priodp.noise.Budget.ZCdp
        : ledger.inRho();
    long precision = task.configuration().timePrecision();
    Optional<Rational> remaining = ledger.cap().map(c -> ledger.remaining());
    Optional<Rational> remainingNow = ledger.cap().map(c -> {
      Rational left = c.total().parameter().subtract(ledger.spentTouching(new Span(
          now.getEpochSecond(), Math.addExact(now.getEpochSecond(), precision))));
      return left.signum() < 0 ? Rational.ZERO : left;
    });
    Optional<Guarantee> statement = records.isEmpty() ? Optional.empty()
        : Optional.of(ledger.statement(ZCDP_DELTA_PRIME));
    return new BudgetStatus(task.privacy().unit(), task.privacy().cap(),
        rho ? "rho" : "epsilon", records, ledger.spent(), remaining, remainingNow, statement,
        precision, now);
  }

  /** Returns what {@code r} cost one privacy unit, in {@link #measure()}. */
  public Rational cost(LedgerRecord r) {
    return new PrivacyLedger(List.of(r.entry()), cap).cost(r.entry());
  }

  /** Returns the cap as people read it, e.g. "epsilon 1 per client (1 report per 86400 s) over any 30d window", or "no cap". */
  public String capText() {
    return cap.map(c -> c.describe(unit)).orElse("no cap (the ledger records, nothing is refused)");
  }

  /**
   * Returns the {@link LedgerHeader} of the release of {@code batch}: its cost, and the spend and
   * what is left now; empty if the ledger holds no release of that batch.
   */
  public Optional<LedgerHeader> header(BatchIdentifier batch) {
    return releases.stream().filter(r -> r.batch().equals(batch)).findFirst()
        .map(r -> new LedgerHeader(measure, cost(r), spent, remaining,
            statement.map(Guarantee::totalVariation).orElse(Rational.ZERO),
            Math.max(0, r.entry().drawnAt()), cap.map(c -> ascii(c.describe(unit)))));
  }

  private static String ascii(String s) {
    return s.replaceAll("[^\\x20-\\x7e]", "?");
  }
}
