package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.priodp.noise.internal.Exact;
import org.priodp.noise.local.KaryRandomizedResponse;
import org.priodp.noise.local.RandomizedResponse;
import org.priodp.noise.local.SymmetricRappor;

/**
 * Exact-distribution tests of the local randomizers and the grid Laplace mechanism, without
 * statistics (as {@link SamplerExactnessTest}): every random bit string up to a fixed length is
 * fed to the randomizer, and the mass of each output must bracket its exact probability. It also
 * checks the lecture's Theorem 2 (RR_p is ln((1 - p)/p)-DP) on the enumerated probabilities. The
 * negative controls at the end show that the checks catch plausible mistakes.
 */
class LocalExactnessTest {
  private static final BigDecimal SLACK = new BigDecimal("1e-40");
  private static final MathContext MC = ExactPmf.MC;

  private static List<String> check(String what, Function<RandomSource, Long> sampler, int depth,
      long lo, long hi, LongFunction<BigDecimal> pmf, BigDecimal maxUnresolved) {
    Enumeration e = Enumeration.of(sampler, depth);
    List<String> v = e.violations(lo, hi, pmf, SLACK);
    System.out.println(what + ": depth " + depth + ", unresolved mass "
        + e.unresolvedMass().round(new MathContext(4)) + ", outputs " + e.mass.size()
        + ", violations " + v.size());
    assertTrue(e.unresolvedMass().compareTo(maxUnresolved) < 0,
        what + ": unresolved mass " + e.unresolvedMass() + " is too large to say anything");
    return v;
  }

  private static BigDecimal dec(Rational r) {
    return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), MC);
  }

  /** 1/(1 + e^eps) = e^-eps/(1 + e^-eps), to 50 digits. */
  private static BigDecimal flipProbability(Rational eps) {
    BigDecimal q = ExactPmf.expNeg(eps);
    return q.divide(BigDecimal.ONE.add(q), MC);
  }

  // ------------------------------------------------------------------ binary RR

  @ParameterizedTest
  @CsvSource({"1, 0", "1, 1", "1/2, 1", "2, 0", "3/10, 1"})
  void randomizedResponseFromEpsilonIsExact(String epsText, int bit) {
    Rational eps = Rational.parse(epsText);
    RandomizedResponse rr = RandomizedResponse.ofEpsilon(eps);
    BigDecimal p = flipProbability(eps);
    List<String> v = check("RR(eps=" + eps + ")(" + bit + ")", rnd -> (long) rr.randomize(bit, rnd), 24,
        0, 1, y -> y == bit ? BigDecimal.ONE.subtract(p) : p, new BigDecimal("0.05"));
    assertTrue(v.isEmpty(), v.toString());
  }

  @ParameterizedTest
  @CsvSource({"1/3, 0", "1/10, 1", "1/2, 1", "2/7, 0"})
  void randomizedResponseFromRationalPIsExact(String pText, int bit) {
    Rational p = Rational.parse(pText);
    RandomizedResponse rr = RandomizedResponse.ofFlipProbability(p);
    List<String> v = check("RR(p=" + p + ")(" + bit + ")", rnd -> (long) rr.randomize(bit, rnd), 24,
        0, 1, y -> dec(y == bit ? Rational.ONE.subtract(p) : p), new BigDecimal("1e-4"));
    assertTrue(v.isEmpty(), v.toString());
  }

  /** Lecture Theorem 2: P[RR(1) = 1]/P[RR(0) = 1] = (1 - p)/p, the largest ratio over outputs. */
  @ParameterizedTest
  @CsvSource({"1/3", "1/10", "1/4"})
  void lectureTheorem2PrivacyLevelIsLnOneMinusPOverP(String pText) {
    Rational p = Rational.parse(pText);
    RandomizedResponse rr = RandomizedResponse.ofFlipProbability(p);
    Enumeration on1 = Enumeration.of(rnd -> (long) rr.randomize(1, rnd), 30);
    Enumeration on0 = Enumeration.of(rnd -> (long) rr.randomize(0, rnd), 30);
    BigDecimal unit = on1.unit();
    BigDecimal lo1 = new BigDecimal(on1.mass.get(1L)).multiply(unit, MC);
    BigDecimal hi1 = lo1.add(on1.unresolvedMass());
    BigDecimal lo0 = new BigDecimal(on0.mass.get(1L)).multiply(unit, MC);
    BigDecimal hi0 = lo0.add(on0.unresolvedMass());
    BigDecimal ratio = dec(((org.priodp.noise.local.FlipProbability.Given) rr.flipProbability()).expEpsilon());
    assertTrue(dec(Rational.ONE.subtract(p).divide(p)).compareTo(ratio) == 0);
    // the exact ratio lies in [lo1/hi0, hi1/lo0], and that interval is narrow
    assertTrue(lo1.divide(hi0, MC).compareTo(ratio) <= 0 && hi1.divide(lo0, MC).compareTo(ratio) >= 0,
        "ratio " + ratio + " outside [" + lo1.divide(hi0, MC) + ", " + hi1.divide(lo0, MC) + "]");
    assertTrue(hi1.divide(lo0, MC).subtract(lo1.divide(hi0, MC)).compareTo(new BigDecimal("1e-6")) < 0);
  }

  // ------------------------------------------------------------------ k-ary RR

  @ParameterizedTest
  @CsvSource({"3, 1, 0", "3, 1, 2", "5, 1/2, 3", "4, 1/2, 1"})
  void karyRandomizedResponseIsExact(int k, String epsText, int bucket) {
    Rational eps = Rational.parse(epsText);
    KaryRandomizedResponse krr = new KaryRandomizedResponse(k, eps);
    BigDecimal q = ExactPmf.expNeg(eps);
    BigDecimal keep = BigDecimal.ONE.divide(BigDecimal.ONE.add(q.multiply(BigDecimal.valueOf(k - 1))), MC);
    BigDecimal other = q.multiply(keep, MC);
    List<String> v = check(k + "-RR(eps=" + eps + ")(" + bucket + ")", rnd -> (long) krr.randomize(bucket, rnd),
        22, 0, k - 1, j -> j == bucket ? keep : other, new BigDecimal("0.3"));
    assertTrue(v.isEmpty(), v.toString());
  }

  // ------------------------------------------------------------------ RAPPOR

  /** Exact PMF of truncated RAPPOR over bitmasks: the product of per-bit probabilities, conditioned on weight <= w. */
  private static LongFunction<BigDecimal> rapporPmf(int length, Rational eps, int maxWeight, int bucket) {
    BigDecimal f = flipProbability(eps.divide(Rational.of(2)));
    BigDecimal[] raw = new BigDecimal[1 << length];
    BigDecimal accept = BigDecimal.ZERO;
    for (int y = 0; y < raw.length; y++) {
      BigDecimal p = BigDecimal.ONE;
      for (int i = 0; i < length; i++) {
        boolean set = ((y >> i) & 1) == 1;
        boolean truth = i == bucket;
        p = p.multiply(set == truth ? BigDecimal.ONE.subtract(f) : f, MC);
      }
      raw[y] = Integer.bitCount(y) <= maxWeight ? p : BigDecimal.ZERO;
      accept = accept.add(raw[y]);
    }
    BigDecimal total = accept;
    return y -> y >= 0 && y < raw.length ? raw[(int) y].divide(total, MC) : BigDecimal.ZERO;
  }

  private static long mask(boolean[] bits) {
    long m = 0;
    for (int i = 0; i < bits.length; i++) {
      if (bits[i]) {
        m |= 1L << i;
      }
    }
    return m;
  }

  @ParameterizedTest
  @CsvSource({"2, 2, 2, 1", "2, 2, 1, 0", "3, 2, 2, 2"})
  void rapporIsExactIncludingTruncation(int length, String epsText, int maxWeight, int bucket) {
    Rational eps = Rational.parse(epsText);
    SymmetricRappor r = new SymmetricRappor(length, eps, maxWeight);
    List<String> v = check("RAPPOR(L=" + length + ", eps=" + eps + ", w=" + maxWeight + ")(" + bucket + ")",
        rnd -> mask(r.randomize(bucket, rnd)), 21, 0, (1L << length) - 1,
        rapporPmf(length, eps, maxWeight, bucket), new BigDecimal("0.4"));
    assertTrue(v.isEmpty(), v.toString());
  }

  // ------------------------------------------------------------------ grid Laplace

  @ParameterizedTest
  @CsvSource({"1/3, 2, 2, -1.126", "1, 1, 2, 2.25"})
  void gridLaplaceReleasesSnappedValuePlusDiscreteLaplace(String sens, int gridBits, String eps, String value) {
    GridLaplace m = GridLaplace.of(Rational.parse(sens), 1, gridBits, Budget.PureDp.parse(eps));
    BigDecimal x = new BigDecimal(value);
    long center = m.snap(x).longValueExact();
    BigDecimal scaleUp = new BigDecimal(BigInteger.ONE.shiftLeft(gridBits));
    Rational scale = m.noise().scale();
    List<String> v = check(m + " at " + value,
        rnd -> m.release(x, rnd).multiply(scaleUp).longValueExact(), 22, center - 30, center + 30,
        y -> ExactPmf.laplace(scale, y - center), new BigDecimal("0.3"));
    assertTrue(v.isEmpty(), v.toString());
  }

  // ------------------------------------------------------------------ negative controls

  @Test
  void catchesRandomizedResponseThatFlipsWithProbabilityExpMinusEpsilon() {
    // a tempting shortcut: flip with Bernoulli(e^-eps) instead of 1/(1 + e^eps)
    Rational eps = Rational.ONE;
    BigDecimal p = flipProbability(eps);
    List<String> v = check("wrong RR", rnd -> Exact.bernoulliExp(1, 1, rnd) ? 1L : 0L, 24, 0, 1,
        y -> y == 0 ? BigDecimal.ONE.subtract(p) : p, new BigDecimal("0.05"));
    assertFalse(v.isEmpty(), "Bernoulli(e^-1) passed as RR flip probability 1/(1 + e)");
  }

  @Test
  void catchesKaryResponseThatKeepsWithProbabilityOneMinusExpMinusEpsilon() {
    int k = 3;
    Rational eps = Rational.ONE;
    BigDecimal q = ExactPmf.expNeg(eps);
    BigDecimal keep = BigDecimal.ONE.divide(BigDecimal.ONE.add(q.multiply(BigDecimal.valueOf(k - 1))), MC);
    BigDecimal other = q.multiply(keep, MC);
    Function<RandomSource, Long> wrong = rnd -> {
      if (!Exact.bernoulliExp(1, 1, rnd)) {
        return 0L; // keep the true bucket 0
      }
      return 1 + Exact.uniform(k - 1, rnd);
    };
    List<String> v = check("wrong k-RR", wrong, 22, 0, k - 1, j -> j == 0 ? keep : other, new BigDecimal("0.3"));
    assertFalse(v.isEmpty(), "a k-RR keeping with probability 1 - e^-eps passed");
  }

  @Test
  void catchesRapporThatClipsInsteadOfResampling() {
    // clipping the extra bits (keep the lowest set ones) is not the conditioned distribution
    int length = 3;
    Rational eps = Rational.of(2);
    SymmetricRappor untruncated = SymmetricRappor.untruncated(length, eps);
    Function<RandomSource, Long> clipped = rnd -> {
      long m = mask(untruncated.randomize(1, rnd));
      while (Long.bitCount(m) > 1) {
        m &= m - 1;
      }
      return m;
    };
    List<String> v = check("clipped RAPPOR", clipped, 21, 0, 7, rapporPmf(length, eps, 1, 1), new BigDecimal("0.4"));
    assertFalse(v.isEmpty(), "clipping passed as resampling");
  }

  @Test
  void catchesGridLaplaceThatTruncatesInsteadOfRounding() {
    // floor instead of round-half-up moves the centre of the noise for 0.3 on the grid 1/1
    GridLaplace m = GridLaplace.of(Rational.ONE, 1, 0, Budget.PureDp.parse("2"));
    BigDecimal x = new BigDecimal("0.7");
    Rational scale = m.noise().scale();
    Function<RandomSource, Long> floored = rnd -> x.longValue() + m.noise().sample(rnd);
    List<String> v = check("floored grid Laplace", floored, 22, -30, 30,
        y -> ExactPmf.laplace(scale, y - 1), new BigDecimal("0.3"));
    assertFalse(v.isEmpty(), "floor(0.7) = 0 passed as the snapped centre 1");
  }
}
