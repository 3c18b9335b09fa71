package org.priodp.noise.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;

/** The ledger's arithmetic on hand-computed cases (issue 25). */
class PrivacyLedgerTest {

  private static final long DAY = 86400;
  private static final PrivacyUnit DAILY = new PrivacyUnit.ClientBound(1, DAY);
  private static final PrivacyUnit REPORT = new PrivacyUnit.Report();

  private static ReleaseGuarantee eps(String e) {
    return new ReleaseGuarantee(Budget.PureDp.parse(e), Rational.ZERO);
  }

  private static ReleaseGuarantee rho(String r) {
    return new ReleaseGuarantee(Budget.ZCdp.parse(r), Rational.ZERO);
  }

  private static LedgerEntry day(int d, PrivacyUnit unit, ReleaseGuarantee g) {
    return LedgerEntry.of("day " + d, new Span(d * DAY, (d + 1) * DAY), unit, g, d * DAY);
  }

  private static LedgerEntry at(long start, long end, String epsilon) {
    return LedgerEntry.of(start + "-" + end, new Span(start, end), REPORT, eps(epsilon), 0);
  }

  /** Adds each admitted entry; returns which were refused. */
  private static List<Integer> run(PrivacyLedger ledger, List<LedgerEntry> releases, PrivacyLedger[] out) {
    List<Integer> refused = new ArrayList<>();
    for (int i = 0; i < releases.size(); i++) {
      if (ledger.admit(releases.get(i)) instanceof Decision.Admitted) {
        ledger = ledger.with(releases.get(i));
      } else {
        refused.add(i);
      }
    }
    out[0] = ledger;
    return refused;
  }

  @Test
  void lifeCapAdmitsUntilSpentThenSaysWhatIsLeft() {
    PrivacyLedger ledger = PrivacyLedger.of(List.of(), BudgetCap.life(Budget.PureDp.parse("1")));
    for (int d = 0; d < 4; d++) {
      Decision admitted = ledger.admit(day(d, REPORT, eps("1/4")));
      assertEquals(new Decision.Admitted(Rational.of(1, 4)), admitted);
      ledger = ledger.with(day(d, REPORT, eps("1/4")));
    }
    assertEquals(Rational.ONE, ledger.spent());
    assertEquals(Rational.ZERO, ledger.remaining());
    Decision.Refused r = assertInstanceOf(Decision.Refused.class, ledger.admit(day(100, REPORT, eps("1/100"))));
    assertEquals(Rational.ONE, r.spent());
    assertEquals(Rational.ZERO, r.remaining());
    assertEquals(Rational.of(1, 100), r.asked());
    assertEquals("privacy budget exhausted: epsilon 1 per report over the task's life; spent epsilon 1, left 0;"
        + " this release would cost 1/100", r.describe(REPORT));
  }

  @Test
  void aReleaseThatExactlyFillsTheCapIsAdmitted() {
    PrivacyLedger ledger = PrivacyLedger.of(List.of(day(0, REPORT, eps("2/3"))), BudgetCap.life(Budget.PureDp.parse("1")));
    assertEquals(Rational.of(1, 3), ledger.remaining());
    assertInstanceOf(Decision.Admitted.class, ledger.admit(day(1, REPORT, eps("1/3"))));
    Decision.Refused r = assertInstanceOf(Decision.Refused.class, ledger.admit(day(1, REPORT, eps("1/2"))));
    assertEquals(Rational.of(1, 3), r.remaining());
  }

  /**
   * Daily telemetry, K = 1 report per day, epsilon 1 over any 30-day window, epsilon 1/30 per
   * daily release: 30 releases fit; the 31st day is refused because the window [1 s, 30 d + 1 s)
   * touches days 0 to 30; then days 31 to 60 fit (each window touches 30 released days) and day
   * 61 is refused again: a 30-day window touches 31 daily batches, so the steady state is 30 of
   * every 31 days at 1/30, or every day at 1/31.
   */
  @Test
  void thirtyDayWindowOnDailyReleases() {
    BudgetCap cap = BudgetCap.window(Budget.PureDp.parse("1"), 30 * DAY);
    List<LedgerEntry> days = new ArrayList<>();
    for (int d = 0; d < 93; d++) {
      days.add(day(d, DAILY, eps("1/30")));
    }
    PrivacyLedger[] out = new PrivacyLedger[1];
    assertEquals(List.of(30, 61, 92), run(PrivacyLedger.of(List.of(), cap), days, out));
    assertEquals(Rational.ONE, out[0].spent());
    assertEquals(90, out[0].entries().size());

    List<LedgerEntry> thirtyFirsts = new ArrayList<>();
    for (int d = 0; d < 93; d++) {
      thirtyFirsts.add(day(d, DAILY, eps("1/31")));
    }
    assertEquals(List.of(), run(PrivacyLedger.of(List.of(), cap), thirtyFirsts, out), "1/31 a day fits forever");
    assertEquals(Rational.ONE, out[0].spent());
  }

  @Test
  void windowEdges() {
    BudgetCap cap = BudgetCap.window(Budget.PureDp.parse("10"), 10);
    // touch t in [-9, 9], [1, 19], [16, 29]
    PrivacyLedger ledger = PrivacyLedger.of(List.of(at(0, 10, "1"), at(10, 20, "1"), at(25, 30, "1")), cap);
    assertEquals(Rational.of(2), ledger.spent());
    assertEquals(Rational.ZERO, ledger.spentTouching(new Span(40, 50)), "no window reaches back 10 s");
    assertEquals(Rational.ONE, ledger.spentTouching(new Span(30, 31)), "[21, 31) holds only [25, 30)");
    assertEquals(Rational.of(2), ledger.spentTouching(new Span(20, 21)));
    PrivacyLedger one = PrivacyLedger.of(List.of(at(0, 10, "1")), cap);
    assertEquals(Rational.ONE, one.spentTouching(new Span(10, 20)), "[1, 11) touches both");
    assertEquals(Rational.ZERO, one.spentTouching(new Span(19, 30)), "adjacent windows do not touch [0, 10)");
    assertEquals(Rational.ONE, one.spentTouching(new Span(18, 30)), "[9, 19) touches [0, 10) at 9");
  }

  @Test
  void overlappingSpansAddUp() {
    BudgetCap cap = BudgetCap.window(Budget.PureDp.parse("10"), 5);
    PrivacyLedger ledger = PrivacyLedger.of(List.of(at(0, 100, "1"), at(50, 60, "2"), at(58, 70, "3"), at(64, 66, "4")), cap);
    // [t, t + 5) for t in [54, 59] touches the first three (6); for t in [60, 65] the first,
    // [58, 70) and [64, 66) (8): [50, 60) and [64, 66) are never in one 5-second window
    assertEquals(Rational.of(8), ledger.spent());
    assertEquals(Rational.of(2), ledger.remaining());
    assertEquals(Rational.ONE, ledger.spentTouching(new Span(0, 40)), "windows up to [39, 44) hold only the first");
    assertEquals(Rational.of(6), ledger.spentTouching(new Span(0, 55)), "windows up to [54, 59)");
  }

  @Test
  void leaderSelectedSpansCountEveryDayTheirReportsTouch() {
    BudgetCap cap = BudgetCap.life(Budget.PureDp.parse("1"));
    // reports from day 0 to the last hour of day 2 (time_precision 1 h): a client's 3 reports
    LedgerEntry threeDays = LedgerEntry.of("batch", Span.ofReportTimes(0, 3 * DAY - 3600, 3600), DAILY, eps("1/4"), 0);
    assertEquals(3, threeDays.groupSize());
    PrivacyLedger ledger = PrivacyLedger.of(List.of(threeDays), cap);
    assertEquals(Rational.of(3, 4), ledger.spent());
    Decision.Refused r = assertInstanceOf(Decision.Refused.class,
        ledger.admit(LedgerEntry.of("b2", Span.ofReportTimes(3 * DAY, 4 * DAY, 3600), DAILY, eps("1/4"), 0)));
    assertEquals(Rational.of(1, 2), r.asked(), "two days: 2 x 1/4");
  }

  @Test
  void zCdpGroupsBySquareAndComposesByAddition() {
    BudgetCap cap = BudgetCap.life(Budget.ZCdp.parse("1/2"));
    PrivacyUnit twiceDaily = new PrivacyUnit.ClientBound(2, DAY);
    PrivacyLedger ledger = PrivacyLedger.of(List.of(), cap);
    LedgerEntry first = day(0, twiceDaily, rho("1/8"));
    assertEquals(new Decision.Admitted(Rational.of(1, 2)), ledger.admit(first), "2^2 x 1/8");
    ledger = ledger.with(first);
    assertInstanceOf(Decision.Refused.class, ledger.admit(day(1, twiceDaily, rho("1/1000"))));
    assertTrue(ledger.inRho());
  }

  @Test
  void pureDpUnderARhoCapCostsEpsilonSquaredOverTwo() {
    PrivacyLedger ledger = PrivacyLedger.of(List.of(), BudgetCap.life(Budget.ZCdp.parse("1/2")));
    List<LedgerEntry> days = new ArrayList<>();
    for (int d = 0; d < 5; d++) {
      days.add(day(d, REPORT, eps("1/2")));
    }
    PrivacyLedger[] out = new PrivacyLedger[1];
    assertEquals(List.of(4), run(ledger, days, out), "rho 1/8 each: four fit in 1/2");
    assertEquals(Rational.of(1, 2), out[0].spent());
  }

  @Test
  void zCdpUnderAnEpsilonCapIsRefusedAtConstruction() {
    BudgetCap cap = BudgetCap.life(Budget.PureDp.parse("1"));
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.of(List.of(day(0, REPORT, rho("1/8"))), cap));
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.of(List.of(), cap).admit(day(0, REPORT, rho("1/8"))));
  }

  @Test
  void uncappedLedgersRecordAndAdmitEverything() {
    PrivacyLedger ledger = PrivacyLedger.uncapped(List.of(day(0, DAILY, eps("1")), day(1, DAILY, eps("2"))));
    assertEquals(Rational.of(3), ledger.spent());
    assertInstanceOf(Decision.Admitted.class, ledger.admit(day(2, DAILY, eps("100"))));
    assertThrows(IllegalStateException.class, ledger::remaining);
    assertEquals(Rational.of(1, 2), PrivacyLedger.uncapped(List.of(day(0, REPORT, eps("1")))).with(day(1, REPORT, rho("0"+"1/2")))
        .entries().get(1).perUnit().perRelease().parameter());
    assertTrue(PrivacyLedger.uncapped(List.of(day(0, REPORT, eps("1")), day(1, REPORT, rho("1/2")))).inRho());
    assertEquals(Rational.ONE, PrivacyLedger.uncapped(List.of(day(0, REPORT, eps("1")), day(1, REPORT, rho("1/2")))).spent(),
        "epsilon 1 as rho 1/2, plus rho 1/2");
  }

  @Test
  void statementsComposeTheWorstWindow() {
    Rational tv = GuaranteeTest.TWO_TO_MINUS_64;
    ReleaseGuarantee hardened = new ReleaseGuarantee(Budget.PureDp.parse("1/4"), tv);
    PrivacyLedger ledger = PrivacyLedger.of(
        List.of(day(0, REPORT, hardened), day(1, REPORT, hardened)), BudgetCap.life(Budget.PureDp.parse("1")));
    Guarantee g = ledger.statement();
    assertEquals(Rational.of(1, 2), g.epsilon());
    assertEquals(tv.multiply(Rational.of(2)), g.totalVariation());
    assertEquals(g, ledger.statement(Rational.of(1, 1000)), "pure DP needs no delta'");

    PrivacyLedger z = PrivacyLedger.uncapped(List.of(day(0, REPORT, rho("1/8")), day(1, REPORT, rho("1/8"))));
    assertThrows(IllegalStateException.class, z::statement);
    Guarantee zg = z.statement(Rational.of(1, 1_000_000_000));
    assertEquals(Rational.of(1, 4), zg.parameter());
    assertEquals(Guarantee.zCdp(Rational.of(1, 4), Rational.ZERO, Rational.of(1, 1_000_000_000)), zg);
  }
}
