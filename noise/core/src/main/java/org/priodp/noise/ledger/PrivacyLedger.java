package org.priodp.noise.ledger;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;

/**
 * A task's privacy ledger (issue 25, items 1 and 2): its releases with their per-unit costs and
 * its budget cap, and the exact worst-case loss of one privacy unit over the task's life or over
 * any window.
 *
 * <p>Costs are in the cap's currency: epsilon under an epsilon cap, rho under a rho cap. A pure-DP
 * release under a rho cap costs rho = epsilon^2 / 2 (epsilon-DP implies epsilon^2/2-zCDP, Bun and
 * Steinke 2016, Proposition 1.4; zCDP composes by adding rho); a zCDP release under an epsilon cap
 * is refused at construction (zCDP does not imply pure DP). Without a cap the currency is epsilon
 * if every release is pure DP, else rho.
 *
 * <p>Windows: a release touches [t, t + W) if its span [a, b) intersects it, that is for integer
 * t in [a - W + 1, b - 1]. The worst window is the largest sum over t; it is found by a sweep over
 * these integer intervals' end points in O(n log n).
 *
 * @param entries the releases, in any order
 * @param cap the budget, empty for an uncapped task (the ledger still records)
 */
public record PrivacyLedger(List<LedgerEntry> entries, Optional<BudgetCap> cap) {

  /**
   * Copies the entries and checks that each release's kind fits the cap.
   *
   * @throws IllegalArgumentException for a zCDP release under an epsilon cap
   */
  public PrivacyLedger {
    entries = List.copyOf(entries);
    Objects.requireNonNull(cap, "cap");
    if (cap.isPresent() && cap.get().total() instanceof Budget.PureDp) {
      for (LedgerEntry e : entries) {
        checkFits(cap.get(), e);
      }
    }
  }

  /** Returns the ledger of {@code entries} under {@code cap}. */
  public static PrivacyLedger of(List<LedgerEntry> entries, BudgetCap cap) {
    return new PrivacyLedger(entries, Optional.of(cap));
  }

  /** Returns an uncapped ledger of {@code entries}. */
  public static PrivacyLedger uncapped(List<LedgerEntry> entries) {
    return new PrivacyLedger(entries, Optional.empty());
  }

  /** Returns true if the costs are rho (zCDP), false if epsilon. */
  public boolean inRho() {
    return cap.map(c -> c.total() instanceof Budget.ZCdp)
        .orElseGet(() -> entries.stream().anyMatch(e -> e.perUnit().perRelease() instanceof Budget.ZCdp));
  }

  /** Returns the per-unit cost of {@code e} in this ledger's currency. */
  public Rational cost(LedgerEntry e) {
    return costIn(inRho(), e);
  }

  /**
   * Returns the worst-case loss of one privacy unit: the largest sum of costs over any window of
   * the cap, or the sum of all costs for a life cap or no cap.
   */
  public Rational spent() {
    return worst(this::cost, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * Returns cap minus {@link #spent()}, never negative.
   *
   * @throws IllegalStateException for an uncapped ledger
   */
  public Rational remaining() {
    Rational total = cap.orElseThrow(() -> new IllegalStateException("the task has no privacy budget"))
        .total().parameter();
    Rational left = total.subtract(spent());
    return left.signum() < 0 ? Rational.ZERO : left;
  }

  /**
   * Returns the largest sum of costs over the windows that intersect {@code span}: what a new
   * release with this span would be added to (for a life cap or no cap, the sum of all costs).
   */
  public Rational spentTouching(Span span) {
    Optional<Long> w = window();
    if (w.isEmpty()) {
      return worst(this::cost, Long.MIN_VALUE, Long.MAX_VALUE);
    }
    return worst(this::cost, Math.subtractExact(span.start(), w.get()) + 1, span.end() - 1);
  }

  /**
   * Decides whether {@code next} fits under the cap: it does if the worst window it touches plus
   * its cost stays at most the cap. Always admitted without a cap.
   *
   * @throws IllegalArgumentException for a zCDP release under an epsilon cap
   */
  public Decision admit(LedgerEntry next) {
    if (cap.isEmpty()) {
      return new Decision.Admitted(cost(next));
    }
    BudgetCap c = cap.get();
    checkFits(c, next);
    Rational asked = cost(next);
    Rational spent = spentTouching(next.span());
    Rational total = c.total().parameter();
    if (spent.add(asked).compareTo(total) <= 0) {
      return new Decision.Admitted(asked);
    }
    Rational left = total.subtract(spent);
    return new Decision.Refused(c, spent, left.signum() < 0 ? Rational.ZERO : left, asked);
  }

  /**
   * Returns this ledger with {@code next} added.
   *
   * @throws IllegalArgumentException for a zCDP release under an epsilon cap
   */
  public PrivacyLedger with(LedgerEntry next) {
    List<LedgerEntry> all = new ArrayList<>(entries);
    all.add(next);
    return new PrivacyLedger(all, cap);
  }

  /**
   * Returns the stated guarantee of the worst window for a pure-DP ledger: (E, (1 + e^E) T)-DP
   * with E the worst window's epsilon and T the worst window's total variation (each maximized
   * separately, which only loosens the statement).
   *
   * @throws IllegalStateException for a rho ledger (name a delta' with {@link #statement(Rational)})
   */
  public Guarantee statement() {
    if (inRho()) {
      throw new IllegalStateException("a zCDP ledger's (epsilon, delta) statement needs a delta'");
    }
    return Guarantee.pureDp(spent(), worstVariation());
  }

  /**
   * Returns the stated guarantee of the worst window: for pure DP as {@link #statement()}; for
   * zCDP R-zCDP up to total variation T, with epsilon = R + 2 sqrt(R ln(1/delta')) and delta =
   * delta' + (1 + e^epsilon) T, both rounded up.
   */
  public Guarantee statement(Rational deltaPrime) {
    if (!inRho()) {
      return statement();
    }
    return Guarantee.zCdp(spent(), worstVariation(), deltaPrime);
  }

  private Rational worstVariation() {
    Rational t = worst(e -> e.perUnit().totalVariation(), Long.MIN_VALUE, Long.MAX_VALUE);
    return t.compareTo(Rational.ONE) > 0 ? Rational.ONE : t;
  }

  private Optional<Long> window() {
    return cap.flatMap(BudgetCap::windowSeconds);
  }

  /**
   * Returns the largest, over integer t in [lo, hi], of the sum of {@code value} over the entries
   * touching the window at t; over all entries if the ledger has no window.
   */
  private Rational worst(Function<LedgerEntry, Rational> value, long lo, long hi) {
    Optional<Long> w = window();
    if (w.isEmpty()) {
      return entries.stream().map(value).reduce(Rational.ZERO, Rational::add);
    }
    long width = w.get();
    // entry touches t for t in [start - W + 1, end - 1]: +value at start - W + 1, -value at end
    record Event(long at, Rational delta) {}
    List<Event> events = new ArrayList<>();
    for (LedgerEntry e : entries) {
      long from = Math.max(lo, Math.subtractExact(e.span().start(), width) + 1);
      long to = Math.min(hi, e.span().end() - 1);
      if (from <= to) {
        Rational v = value.apply(e);
        events.add(new Event(from, v));
        events.add(new Event(to == Long.MAX_VALUE ? to : to + 1, v.negate()));
      }
    }
    events.sort(Comparator.comparingLong(Event::at));
    Rational best = Rational.ZERO;
    Rational sum = Rational.ZERO;
    for (int i = 0; i < events.size(); i++) {
      sum = sum.add(events.get(i).delta());
      boolean last = i + 1 == events.size() || events.get(i + 1).at() != events.get(i).at();
      if (last && sum.compareTo(best) > 0) {
        best = sum;
      }
    }
    return best;
  }

  private static Rational costIn(boolean rho, LedgerEntry e) {
    Budget b = e.perUnit().perRelease();
    if (b instanceof Budget.PureDp p) {
      return rho ? p.toZCdp().rho() : p.epsilon();
    }
    if (!rho) {
      throw new IllegalArgumentException(
          "a zCDP release (rho " + b.parameter() + ") cannot be charged to an epsilon budget");
    }
    return b.parameter();
  }

  private static void checkFits(BudgetCap cap, LedgerEntry e) {
    costIn(cap.total() instanceof Budget.ZCdp, e);
  }
}
