package org.priodp.conformance.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.GridLaplace;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.local.KaryRandomizedResponse;
import org.priodp.noise.local.RandomizedResponse;
import org.priodp.noise.local.SymmetricRappor;

/**
 * Privacy audits of the local randomizers and the grid Laplace mechanism: on neighbouring inputs
 * the empirical lower bound on epsilon (Clopper-Pearson, alpha = 1e-6) must stay at or below the
 * configured epsilon, and a deliberately weakened mechanism (more privacy loss than claimed) must
 * be caught.
 */
class LocalPrivacyAuditTest {
  static final int N = 200_000;
  static final double ALPHA = 1e-6;

  private static PrivacyAudit audit(String what, String seedHex, LongSupplier onX, LongSupplier onNeighbour,
      long... thresholds) {
    long[] a = new long[N];
    long[] b = new long[N];
    for (int i = 0; i < N; i++) {
      a[i] = onX.getAsLong();
      b[i] = onNeighbour.getAsLong();
    }
    PrivacyAudit r = PrivacyAudit.run(a, b, thresholds, ALPHA);
    System.out.printf("%s: seed=%s epsilon lower bound %.4f (threshold %d)%n", what, seedHex, r.epsilonLowerBound(),
        r.bestThreshold());
    return r;
  }

  private static PrivacyAudit auditRr(String what, RandomizedResponse rr, String seedHex) {
    SeededRandomSource rnd = SeededRandomSource.fromHex(seedHex);
    return audit(what, seedHex, () -> rr.randomize(0, rnd), () -> rr.randomize(1, rnd), 1);
  }

  @Test
  void randomizedResponse() {
    PrivacyAudit ok = auditRr("RR eps=1", RandomizedResponse.ofEpsilon(Rational.ONE), "e1");
    assertTrue(ok.epsilonLowerBound() <= 1, ok.toString());
    PrivacyAudit given = auditRr("RR p=1/4 (eps=ln 3)", RandomizedResponse.ofFlipProbability(Rational.of(1, 4)), "e2");
    assertTrue(given.epsilonLowerBound() <= Math.log(3), given.toString());
    // weakened: the flip probability of eps = 3/2 claimed as eps = 1
    PrivacyAudit weak = auditRr("RR eps=3/2 as 1", RandomizedResponse.ofEpsilon(Rational.of(3, 2)), "e3");
    assertTrue(weak.epsilonLowerBound() > 1, weak.toString());
  }

  private static PrivacyAudit auditKrr(String what, KaryRandomizedResponse krr, String seedHex) {
    SeededRandomSource rnd = SeededRandomSource.fromHex(seedHex);
    // the event {report == 0}, on true buckets 0 and 1
    return audit(what, seedHex, () -> krr.randomize(0, rnd) == 0 ? 1 : 0, () -> krr.randomize(1, rnd) == 0 ? 1 : 0, 1);
  }

  @Test
  void karyRandomizedResponse() {
    PrivacyAudit ok = auditKrr("5-RR eps=1", new KaryRandomizedResponse(5, Rational.ONE), "e4");
    assertTrue(ok.epsilonLowerBound() <= 1, ok.toString());
    PrivacyAudit weak = auditKrr("5-RR eps=3/2 as 1", new KaryRandomizedResponse(5, Rational.of(3, 2)), "e5");
    assertTrue(weak.epsilonLowerBound() > 1, weak.toString());
  }

  private static PrivacyAudit auditRappor(String what, SymmetricRappor r, String seedHex) {
    SeededRandomSource rnd = SeededRandomSource.fromHex(seedHex);
    // the two coordinates where buckets 0 and 1 differ: y0 - y1 + 1, event {y0 = 1, y1 = 0} = {>= 2}
    return audit(what, seedHex, () -> {
      boolean[] y = r.randomize(0, rnd);
      return (y[0] ? 1 : 0) - (y[1] ? 1 : 0) + 1;
    }, () -> {
      boolean[] y = r.randomize(1, rnd);
      return (y[0] ? 1 : 0) - (y[1] ? 1 : 0) + 1;
    }, 2, 1);
  }

  @Test
  void truncatedRappor() {
    PrivacyAudit ok = auditRappor("RAPPOR L=6 w=2 eps=1", new SymmetricRappor(6, Rational.ONE, 2), "e6");
    assertTrue(ok.epsilonLowerBound() <= 1, ok.toString());
    // weakened: each bit flipped for eps/2 = 1 instead of 1/2, claimed as eps = 1
    PrivacyAudit weak = auditRappor("RAPPOR per-bit eps as total", new SymmetricRappor(6, Rational.of(2), 2), "e7");
    assertTrue(weak.epsilonLowerBound() > 1, weak.toString());
  }

  @Test
  void gridLaplace() {
    // Δ = 1/3 on the grid 1/4: the neighbours 0.124 and 0.457 snap 2 grid units apart
    GridLaplace m = GridLaplace.of(Rational.of(1, 3), 1, 2, Budget.PureDp.parse("1"));
    BigDecimal x = new BigDecimal("0.124");
    BigDecimal y = new BigDecimal("0.457");
    long sx = m.snap(x).longValueExact();
    long sy = m.snap(y).longValueExact();
    assertTrue(sy - sx == 2);
    SeededRandomSource rnd = SeededRandomSource.fromHex("e8");
    DiscreteLaplace z = m.noise();
    long[] th = {sy, sy + 1, sy + 2, sy + 3};
    PrivacyAudit ok = audit("grid Laplace GS=" + m.gridSensitivity(), "e8", () -> sx + z.sample(rnd), () -> sy + z.sample(rnd), th);
    assertTrue(ok.epsilonLowerBound() <= 1, ok.toString());
    // weakened: the naive grid sensitivity floor(Δ 2^k) = 1, ignoring the rounding
    DiscreteLaplace naive = DiscreteLaplace.of(Rational.ONE);
    PrivacyAudit weak = audit("grid Laplace naive sensitivity", "e9", () -> sx + naive.sample(rnd), () -> sy + naive.sample(rnd), th);
    assertTrue(weak.epsilonLowerBound() > 1, weak.toString());
  }
}
