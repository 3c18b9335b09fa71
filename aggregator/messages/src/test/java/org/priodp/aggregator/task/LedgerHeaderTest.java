package org.priodp.aggregator.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Rational;

/** The Priodp-Privacy-Ledger header: its RFC 8941 form, written and read back, and refusals. */
class LedgerHeaderTest {
  private static final LedgerHeader CAPPED = new LedgerHeader("epsilon", Rational.parse("1/30"),
      Rational.parse("3/10"), Optional.of(Rational.parse("7/10")), Rational.ZERO, 1767225600L,
      Optional.of("epsilon 1 per client (1 report per 86400 s) over any 2592000 s window"));

  @Test
  void theValueIsAnRfc8941DictionaryAndReadsBack() {
    assertEquals("measure=epsilon, cost=\"1/30\", spent=\"3/10\", remaining=\"7/10\","
        + " released=1767225600, cap=\"epsilon 1 per client (1 report per 86400 s) over any"
        + " 2592000 s window\"", CAPPED.format());
    assertEquals(CAPPED, LedgerHeader.parse(CAPPED.format()));
    LedgerHeader open = new LedgerHeader("rho", Rational.parse("1/8"), Rational.parse("1/4"),
        Optional.empty(), Rational.parse("1/1000"), 0, Optional.of("a \"quoted\" \\ cap"));
    assertEquals(open, LedgerHeader.parse(open.format()));
  }

  @Test
  void membersAnotherVersionAddsAreIgnoredAndSpacingIsFree() {
    LedgerHeader h = LedgerHeader.parse("future=?0,measure=epsilon,  cost=\"1/30\",spent=\"3/10\""
        + ", remaining=\"7/10\", released=1767225600,cap=\"epsilon 1 per client (1 report per"
        + " 86400 s) over any 2592000 s window\", later=token, flag");
    assertEquals(CAPPED, h);
  }

  @Test
  void aValueThatIsNotTheHeaderIsRefusedNamingTheMember() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LedgerHeader.parse(
        "measure=epsilon, cost=\"x\", spent=\"0\", released=1")).getMessage()
        .startsWith("Priodp-Privacy-Ledger: cost: "));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LedgerHeader.parse(
        "measure=delta, cost=\"0\", spent=\"0\", released=1")).getMessage()
        .contains("measure"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> LedgerHeader.parse(
        "measure=epsilon, cost=\"0\", spent=\"0\"")).getMessage().contains("released: missing"));
    assertThrows(IllegalArgumentException.class, () -> LedgerHeader.parse(
        "measure=epsilon, cost=\"1, spent=\"0\", released=1"));
    assertThrows(IllegalArgumentException.class, () -> LedgerHeader.parse(
        "measure=epsilon;p=1, cost=\"1\", spent=\"0\", released=1"));
    assertThrows(IllegalArgumentException.class, () -> LedgerHeader.parse(
        "measure=epsilon, cost=\"-1\", spent=\"0\", released=1"));
    assertThrows(IllegalArgumentException.class, () -> LedgerHeader.parse(
        "measure=epsilon, cost=\"1\", spent=\"0\", released=1,"));
    assertThrows(IllegalArgumentException.class, () -> new LedgerHeader("epsilon", Rational.ONE,
        Rational.ONE, Optional.empty(), Rational.ZERO, 1, Optional.of("caf\u00e9")));
  }

  @Test
  void describeSaysCostSpentRemainingAndTheCap() {
    assertEquals("this release cost epsilon 1/30 per privacy unit; spent 3/10, remaining 7/10"
        + " of the cap: epsilon 1 per client (1 report per 86400 s) over any 2592000 s window",
        CAPPED.describe());
    LedgerHeader tv = new LedgerHeader("epsilon", Rational.ONE, Rational.ONE, Optional.empty(),
        Rational.parse("3/18446744073709551616"), 0, Optional.empty());
    assertEquals("this release cost epsilon 1 per privacy unit; spent 1 (no cap); the fixed-work"
        + " draws of the spent releases add total variation 2^-62.4", tv.describe());
  }
}
