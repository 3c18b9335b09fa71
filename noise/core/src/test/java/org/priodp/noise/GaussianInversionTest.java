package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.noise.internal.GaussianInversion;

/**
 * The envelope-and-inversion sampler of the discrete Gaussian
 * (org.priodp.noise.internal.GaussianInversion): its exact distribution by enumeration of every
 * random bit string up to 26 bits, on the fast path and with early hand-overs to the slow path;
 * negative controls that the check catches; G-tests on 10^6 seeded draws; bits per sample next
 * to the entropy.
 */
class GaussianInversionTest {
  private static final int DEPTH = 26;
  private static final BigDecimal SLACK = new BigDecimal("1e-40");

  private static List<String> enumerate(String what, Function<RandomSource, Long> sampler, Rational claimed,
      long range, BigDecimal maxUnresolved) {
    GaussianGTest.Pmf pmf = new GaussianGTest.Pmf(claimed);
    Enumeration e = Enumeration.of(sampler, DEPTH);
    List<String> v = e.violations(-range, range, pmf::p, SLACK);
    System.out.println(what + ": depth " + DEPTH + ", unresolved mass "
        + e.unresolvedMass().round(new MathContext(4)) + ", outputs " + e.mass.size()
        + ", violations " + v.size() + (v.isEmpty() ? "" : " first: " + v.get(0)));
    assertTrue(e.unresolvedMass().compareTo(maxUnresolved) < 0,
        what + ": unresolved mass " + e.unresolvedMass() + " is too large to say anything");
    return v;
  }

  private static GaussianInversion inversion(Rational s2) {
    return new GaussianInversion(s2.numerator(), s2.denominator());
  }

  @ParameterizedTest
  @ValueSource(strings = {"1/4", "1/2", "2", "7/3", "100", "1100"})
  void fastPathIsExact(String sigma2Text) {
    Rational s2 = Rational.parse(sigma2Text);
    GaussianInversion g = inversion(s2);
    assertTrue(g.fastPath());
    List<String> v = enumerate("Gaussian inversion(" + s2 + ")", g::sample, s2, 40, new BigDecimal("0.05"));
    assertTrue(v.isEmpty(), v.toString());
  }

  @ParameterizedTest
  @CsvSource({"1/2, 8, 3", "2, 8, 4", "7/3, 10, 5", "100, 12, 6", "1100, 12, 8"})
  void coarseTablesAndEarlyHandOverAreExact(String sigma2Text, int tableBits, int cap) {
    Rational s2 = Rational.parse(sigma2Text);
    GaussianInversion g = GaussianInversion.forTest(s2.numerator(), s2.denominator(), tableBits, cap, 0);
    List<String> v = enumerate("Gaussian inversion(" + s2 + ") tables " + tableBits + " bits, cap " + cap,
        g::sample, s2, 40, new BigDecimal("0.05"));
    assertTrue(v.isEmpty(), v.toString());
  }

  @ParameterizedTest
  @CsvSource({"2, 8", "7/3, 10", "100, 12"})
  void catchesABoundOffByOneUnitOfTheFixedPoint(String sigma2Text, int tableBits) {
    Rational s2 = Rational.parse(sigma2Text);
    GaussianInversion wrong = GaussianInversion.forTest(s2.numerator(), s2.denominator(), tableBits, tableBits + 2, 1);
    List<String> v = enumerate("Gaussian inversion(" + s2 + ") bounds +1 unit of 2^-" + tableBits, wrong::sample,
        s2, 40, new BigDecimal("0.05"));
    assertFalse(v.isEmpty(), "a threshold bound off by one unit passed");
    System.out.println("  negative control caught: " + v.size() + " outputs outside their bracket");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1/2", "2", "100"})
  void catchesASigma2OnePercentOff(String sigma2Text) {
    Rational s2 = Rational.parse(sigma2Text);
    Rational off = s2.multiply(Rational.of(101, 100));
    List<String> v = enumerate("Gaussian inversion(" + off + ") checked as " + s2, inversion(off)::sample, s2, 40,
        new BigDecimal("0.05"));
    assertFalse(v.isEmpty(), "sigma^2 " + off + " passed as " + s2);
    System.out.println("  negative control caught: " + v.size() + " outputs outside their bracket");
  }

  // ------------------------------------------------------------------ statistics and bits

  @ParameterizedTest
  @CsvSource({"1/2, 111", "2, 112", "100, 113", "1000000, 114"})
  void gTestOnAMillionDraws(String sigma2Text, int seed) {
    Rational s2 = Rational.parse(sigma2Text);
    GaussianGTest.Pmf pmf = new GaussianGTest.Pmf(s2);
    int n = 1_000_000;
    DiscreteGaussian dg = DiscreteGaussian.of(s2);
    long[] draws = new long[n];
    dg.fill(draws, RandomSource.seeded(new byte[] {(byte) seed}));
    double[] gdf = GaussianGTest.gStatistic(pmf, draws);
    double g = gdf[0];
    double df = gdf[1];
    double limit = GaussianGTest.limit(df);
    System.out.printf("G-test sigma^2 %s seed %d: G = %.1f, df = %.0f, limit %.1f%n", s2, seed, g, df, limit);
    assertTrue(g < limit, "G = " + g + " with df " + df);
  }

  /** The entropy of the discrete Gaussian in bits, for people. */
  private static double entropy(GaussianGTest.Pmf pmf) { // double: a figure shown to people, never used to sample
    double h = 0;
    for (int k = 0; k < pmf.w.length; k++) {
      double p = pmf.p(k).doubleValue();
      if (p > 0) {
        h -= (k == 0 ? 1 : 2) * p * Math.log(p);
      }
    }
    return h / Math.log(2);
  }

  @Test
  void bitsPerSampleNextToTheEntropy() {
    String[] values = {"1/2", "2", "100", "10000", "1000000"};
    for (String sv : values) {
      Rational s2 = Rational.parse(sv);
      DiscreteGaussian dg = DiscreteGaussian.of(s2);
      RandomSource rnd = RandomSource.seeded(new byte[] {9});
      int n = 100_000;
      for (int i = 0; i < n; i++) {
        dg.sample(rnd);
      }
      double bits = (double) rnd.bitsConsumed() / n;
      RandomSource ref = RandomSource.seeded(new byte[] {10});
      int nRef = 20_000;
      for (int i = 0; i < nRef; i++) {
        dg.sampleReference(ref);
      }
      double refBits = (double) ref.bitsConsumed() / nRef;
      double h = entropy(new GaussianGTest.Pmf(s2));
      System.out.printf("sigma^2 %s: entropy %.2f bits, envelope inversion %.2f bits/sample (+%.2f), CKS %.2f (+%.2f) [seeds 9, 10]%n",
          sv, h, bits, bits - h, refBits, refBits - h);
      assertTrue(bits > h - 0.1 && bits < h + 12, "bits " + bits + " entropy " + h);
    }
  }
}
