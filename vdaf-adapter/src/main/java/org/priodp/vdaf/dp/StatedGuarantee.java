package org.priodp.vdaf.dp;

import java.math.BigInteger;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.LedgerEntry;
import org.priodp.noise.ledger.PrivacyLedger;
import org.priodp.noise.ledger.PrivacyUnit;
import org.priodp.noise.ledger.ReleaseGuarantee;
import org.priodp.noise.ledger.Span;

/**
 * States exactly what one release of a {@link Prio3DpMechanism} guarantees per report (docs
 * PRIVACY.md "Central noise on aggregate shares", "Timing-hardened sampler"): the budget, the
 * sampler both aggregators draw with, the total variation between the release and the exact
 * mechanism (n draws of a fixed-work sampler each within delta_draw, so n delta_draw), and for
 * pure DP the resulting delta = (1 + e^epsilon) n delta_draw, an exact rational upper bound.
 *
 * <p>Why (1 + e^epsilon) TV: if a mechanism M' is within total variation TV of an epsilon-DP
 * mechanism M on every input, then for every set S, P[M'(x) in S] <= P[M(x) in S] + TV <=
 * e^epsilon P[M(x') in S] + TV <= e^epsilon (P[M'(x') in S] + TV) + TV. e^epsilon is bounded
 * above exactly (the ledger's {@link PrivacyLedger#statement()} of this one release), so the
 * stated delta is never below the true one.
 *
 * @param budget epsilon or rho per report, empty when the task adds no noise
 * @param sampler the sampler's name for people, e.g. "fixed-work discrete Laplace"
 * @param totalVariation the bound on the total variation distance between the release and the
 *     exact mechanism's: 0 for the exact samplers
 * @param coordinates the number of noised coordinates n (the VDAF's output length)
 */
public record StatedGuarantee(Optional<Budget> budget, String sampler, Rational totalVariation,
    int coordinates) {

  /** Validates the parts. */
  public StatedGuarantee {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(sampler, "sampler");
    Objects.requireNonNull(totalVariation, "totalVariation");
    if (totalVariation.signum() < 0) {
      throw new IllegalArgumentException("totalVariation must be >= 0");
    }
    if (coordinates < 0) {
      throw new IllegalArgumentException("coordinates must be >= 0");
    }
  }

  /**
   * Returns the guarantee of one release of {@code m}, as both aggregators noise it with the
   * sampler {@code m} names (each aggregator adds its own draw; the guarantee holds with one
   * honest aggregator).
   */
  public static StatedGuarantee of(Prio3DpMechanism m) {
    Objects.requireNonNull(m, "m");
    int n = m.variant().outputLength();
    if (!m.addsNoise()) {
      return new StatedGuarantee(Optional.empty(), "none", Rational.ZERO, n);
    }
    String family = family(m);
    if (!m.hardened()) {
      return new StatedGuarantee(m.strategy().budget(), "exact " + family, Rational.ZERO, n);
    }
    return new StatedGuarantee(m.strategy().budget(), "fixed-work " + family,
        m.totalVariation(), n);
  }

  private static String family(Prio3DpMechanism m) {
    return m.strategy().budget().orElseThrow() instanceof Budget.PureDp
        ? "discrete Laplace" : "discrete Gaussian";
  }

  /**
   * Returns delta of the (epsilon, delta)-DP guarantee of a pure-DP release: (1 + e^epsilon) TV,
   * with e^epsilon bounded above exactly; 0 for the exact sampler.
   *
   * @throws IllegalStateException if the release is not pure DP
   */
  public Rational delta() {
    if (!(budget.orElse(null) instanceof Budget.PureDp p)) {
      throw new IllegalStateException("delta of a pure-DP release only");
    }
    if (totalVariation.signum() == 0) {
      return Rational.ZERO;
    }
    // the ledger's statement of this one release: (epsilon, (1 + e^epsilon) TV), e^epsilon
    // bounded above exactly, at most 1
    LedgerEntry release = LedgerEntry.of("release", new Span(0, 1), new PrivacyUnit.Report(),
        new ReleaseGuarantee(p, totalVariation), 0);
    return PrivacyLedger.uncapped(List.of(release)).statement().delta();
  }

  /**
   * Returns the guarantee for people: "(1, 2^-57.3)-DP" for a fixed-work discrete Laplace, "1-DP"
   * for the exact one, "1/2-zCDP" (with " up to total variation 2^-60" for a fixed-work
   * Gaussian), or "none". The power of two is rounded up, so the printed delta is an upper bound.
   */
  public String text() {
    if (budget.isEmpty()) {
      return "none";
    }
    Budget b = budget.get();
    if (b instanceof Budget.PureDp p) {
      Rational d = delta();
      return d.signum() == 0 ? p.epsilon() + "-DP"
          : "(" + p.epsilon() + ", " + powerOfTwo(d) + ")-DP";
    }
    String zcdp = b.parameter() + "-zCDP";
    return totalVariation.signum() == 0 ? zcdp
        : zcdp + " up to total variation " + powerOfTwo(totalVariation);
  }

  /**
   * Returns the sentence that says what the release guarantees and why, e.g. "(1, 2^-57.3)-DP per
   * report: epsilon = 1 with the fixed-work discrete Laplace sampler, each of the 10 draws per
   * aggregator within total variation 2^-64 of the exact one".
   */
  public String explain() {
    if (budget.isEmpty()) {
      return "no differential privacy: the task adds no noise";
    }
    String parameter = (budget.get() instanceof Budget.PureDp ? "epsilon = " : "rho = ")
        + budget.get().parameter();
    if (totalVariation.signum() == 0) {
      return text() + " per report: " + parameter + " with the " + sampler + " sampler";
    }
    return text() + " per report: " + parameter + " with the " + sampler + " sampler, the "
        + coordinates + " draws of each aggregator within total variation "
        + powerOfTwo(totalVariation) + " of the exact noise";
  }

  /**
   * Returns a positive rational as a power of two for people, "2^-57.3", the exponent rounded up
   * to one decimal (so the printed value is at least {@code r}); "0" for zero.
   */
  public static String powerOfTwo(Rational r) {
    if (r.signum() == 0) {
      return "0";
    }
    if (r.signum() < 0) {
      throw new IllegalArgumentException("expected r >= 0, got " + r);
    }
    BigInteger n = r.numerator();
    BigInteger d = r.denominator();
    long t;
    if (n.bitCount() == 1 && d.bitCount() == 1) {
      t = 10L * (n.bitLength() - d.bitLength()); // an exact power of two
    } else {
      double log2 = log2(n) - log2(d); // a figure printed to people; the margin rounds it up
      t = (long) Math.ceil(log2 * 10 + 1e-6);
    }
    String abs = (Math.abs(t) / 10) + (Math.abs(t) % 10 == 0 ? "" : "." + Math.abs(t) % 10);
    return "2^" + (t < 0 ? "-" : "") + abs;
  }

  private static double log2(BigInteger v) {
    int shift = Math.max(0, v.bitLength() - 62);
    return Math.log(v.shiftRight(shift).doubleValue()) / Math.log(2) + shift;
  }
}
