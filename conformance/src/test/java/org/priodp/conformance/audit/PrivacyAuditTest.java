package org.priodp.conformance.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.priodp.noise.Accuracy;
import org.priodp.noise.Budget;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.NoiseSampler;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

/**
 * Privacy audit of the discrete Laplace mechanism M(x) = x + Z on the neighbouring inputs 0
 * and the sensitivity: the empirical lower bound on epsilon (Clopper-Pearson, alpha = 1e-6)
 * must stay at or below the configured epsilon, and a sampler whose scale is 20% too small
 * must be caught.
 */
class PrivacyAuditTest {
  static final int N = 1_000_000;
  static final double ALPHA = 1e-6;

  static PrivacyAudit audit(String what, NoiseSampler z, long sensitivity, Rational scale) {
    SeededRandomSource rnd = SeededRandomSource.fromHex(String.format("a0d1%02x%04x", sensitivity, what.hashCode() & 0xffff));
    long[] a = new long[N];
    long[] b = new long[N];
    z.fill(a, rnd);
    z.fill(b, rnd);
    for (int i = 0; i < N; i++) {
      b[i] += sensitivity; // M(sensitivity); a is M(0)
    }
    long t = Math.max(1, Math.round(Accuracy.toDouble(scale)));
    long[] thresholds = {sensitivity + 1, sensitivity + 1 + t, sensitivity + 1 + 2 * t, -t};
    PrivacyAudit r = PrivacyAudit.run(a, b, thresholds, ALPHA);
    System.out.printf("%s: seed=%s epsilon lower bound %.4f (threshold %d)%n", what, rnd.seedHex(),
        r.epsilonLowerBound(), r.bestThreshold());
    return r;
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "3, 1/2", "1, 2"})
  void correctScaleStaysAtOrBelowEpsilon(long sensitivity, String epsilon) {
    Budget.PureDp budget = Budget.PureDp.parse(epsilon);
    DiscreteLaplace dl = DiscreteLaplace.forBudget(java.math.BigInteger.valueOf(sensitivity), budget);
    double eps = Accuracy.toDouble(budget.epsilon());
    PrivacyAudit plain = audit("plain GS=" + sensitivity + " eps=" + epsilon, dl, sensitivity, dl.scale());
    assertTrue(plain.epsilonLowerBound() <= eps, plain.toString());
    PrivacyAudit hardened = audit("hardened GS=" + sensitivity + " eps=" + epsilon, dl.hardened(), sensitivity, dl.scale());
    assertTrue(hardened.epsilonLowerBound() <= eps, hardened.toString());
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "3, 1/2", "1, 2"})
  void scaleTwentyPercentTooSmallIsCaught(long sensitivity, String epsilon) {
    Budget.PureDp budget = Budget.PureDp.parse(epsilon);
    Rational wrongScale = DiscreteLaplace.forBudget(java.math.BigInteger.valueOf(sensitivity), budget)
        .scale().multiply(Rational.of(4, 5));
    PrivacyAudit r = audit("scale x0.8 GS=" + sensitivity + " eps=" + epsilon, DiscreteLaplace.of(wrongScale),
        sensitivity, wrongScale);
    assertTrue(r.epsilonLowerBound() > Accuracy.toDouble(budget.epsilon()), r.toString());
  }
}
