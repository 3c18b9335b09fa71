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
import org.priodp.noise.internal.LaplaceInversion;

/**
 * The inversion sampler of the discrete Laplace (org.priodp.noise.internal.LaplaceInversion):
 * its exact distribution by enumeration of every random bit string up to 26 bits (the depth of
 * {@link SamplerExactnessTest}), on the fast path, on the slow path, and on both together with
 * coarse tables that force many hand-overs; negative controls that the check catches; G-tests
 * on 10^6 seeded samples; and its random bits per sample next to the entropy.
 */
class LaplaceInversionTest {
  private static final int DEPTH = 26;
  private static final BigDecimal SLACK = new BigDecimal("1e-40");

  /**
   * Enumerates the sampler and returns the violations. Every output in [-range, range] and
   * every observed output is checked: its exact probability must lie in [mass, mass +
   * unresolved]. Outputs outside the range and never observed have exact probability at most
   * the unresolved mass (all their paths are unresolved), so the bracket is rigorous for them too.
   */
  static List<String> enumerate(String what, Function<RandomSource, Long> sampler, Rational claimed,
      long range, BigDecimal maxUnresolved) {
    Enumeration e = Enumeration.of(sampler, DEPTH);
    List<String> v = e.violations(-range, range, z -> ExactPmf.laplace(claimed, z), SLACK);
    System.out.println(what + ": depth " + DEPTH + ", unresolved mass "
        + e.unresolvedMass().round(new MathContext(4)) + ", outputs " + e.mass.size()
        + ", violations " + v.size() + (v.isEmpty() ? "" : " first: " + v.get(0)));
    assertTrue(e.unresolvedMass().compareTo(maxUnresolved) < 0,
        what + ": unresolved mass " + e.unresolvedMass() + " is too large to say anything");
    return v;
  }

  private static LaplaceInversion inversion(Rational t) {
    return new LaplaceInversion(t.numerator(), t.denominator());
  }

  @ParameterizedTest
  @ValueSource(strings = {"1/4", "1/2", "1", "2", "7/3", "100"})
  void fastPathIsExact(String scaleText) {
    Rational t = Rational.parse(scaleText);
    LaplaceInversion s = inversion(t);
    assertTrue(s.fastPath());
    List<String> v = enumerate("inversion(" + t + ")", s::sample, t, 60, new BigDecimal("0.05"));
    assertTrue(v.isEmpty(), v.toString());
  }

  @ParameterizedTest
  @CsvSource({"1/4, 6, 3", "1/2, 8, 4", "2, 8, 5", "7/3, 10, 6", "100, 12, 10"})
  void coarseTablesAndEarlyHandOverAreExact(String scaleText, int tableBits, int cap) {
    // tables rounded outward to a few bits and the fast path capped at a few bits of V: many
    // comparisons are undecided, and many draws finish on the BigInteger slow path
    Rational t = Rational.parse(scaleText);
    LaplaceInversion s = LaplaceInversion.forTest(t.numerator(), t.denominator(), tableBits, cap, 0);
    List<String> v = enumerate("inversion(" + t + ") tables " + tableBits + " bits, cap " + cap,
        s::sample, t, 60, new BigDecimal("0.05"));
    assertTrue(v.isEmpty(), v.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2", "7/3"})
  void slowPathAloneIsExact(String scaleText) {
    Rational t = Rational.parse(scaleText);
    LaplaceInversion s = LaplaceInversion.forTest(t.numerator(), t.denominator(), 63, 1, 0);
    List<String> v = enumerate("inversion(" + t + ") slow path", s::sample, t, 60, new BigDecimal("0.05"));
    assertTrue(v.isEmpty(), v.toString());
  }

  // ------------------------------------------------------------------ negative controls

  @ParameterizedTest
  @CsvSource({"2, 8", "7/3, 10", "100, 12"})
  void catchesABoundOffByOneUnitOfTheFixedPoint(String scaleText, int tableBits) {
    // every table bound shifted up by one unit of 2^-tableBits: no longer certified. The fast
    // path hands undecided draws to the (exact) slow path after tableBits + 2 bits, so that the
    // enumeration resolves nearly everything and sees the wrongly certified decisions.
    Rational t = Rational.parse(scaleText);
    LaplaceInversion wrong = LaplaceInversion.forTest(t.numerator(), t.denominator(), tableBits, tableBits + 2, 1);
    List<String> v = enumerate("inversion(" + t + ") bounds +1 unit of 2^-" + tableBits, wrong::sample, t, 60,
        new BigDecimal("0.05"));
    assertFalse(v.isEmpty(), "a threshold bound off by one unit passed");
    System.out.println("  negative control caught: " + v.size() + " outputs outside their bracket");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2", "1/2", "100"})
  void catchesAScaleOnePercentOff(String scaleText) {
    Rational t = Rational.parse(scaleText);
    Rational off = t.multiply(Rational.of(101, 100));
    List<String> v = enumerate("inversion(" + off + ") checked as " + t, inversion(off)::sample, t, 60,
        new BigDecimal("0.05"));
    assertFalse(v.isEmpty(), "scale " + off + " passed as scale " + t);
    System.out.println("  negative control caught: " + v.size() + " outputs outside their bracket");
  }

  // ------------------------------------------------------------------ statistics and bits

  /** P[Z >= k] for k >= 0 (exact to about 50 digits): r^k / (1 + r) for k >= 1. */
  private static BigDecimal upperTail(Rational t, long k) {
    BigDecimal r = ExactPmf.expNeg(Rational.ONE.divide(t));
    if (k <= 0) {
      BigDecimal p0 = BigDecimal.ONE.subtract(r).divide(BigDecimal.ONE.add(r), ExactPmf.MC);
      return p0.add(upperTail(t, 1), ExactPmf.MC);
    }
    return ExactPmf.expNeg(Rational.of(k).divide(t)).divide(BigDecimal.ONE.add(r), ExactPmf.MC);
  }

  /**
   * G-test of n draws against the exact PMF: bins on Z >= 0 with edges at about equal
   * probability (at most 200 bins, each with expected count >= 50), mirrored for Z < 0. Returns
   * {G, degrees of freedom}.
   */
  static double[] gTest(Rational t, long[] draws) {
    int n = draws.length;
    double tt = new BigDecimal(t.numerator()).divide(new BigDecimal(t.denominator()), MathContext.DECIMAL64).doubleValue(); // double: only to place the bin edges of a test statistic
    java.util.TreeSet<Long> edges = new java.util.TreeSet<>();
    edges.add(0L);
    for (int i = 1; i < 100; i++) {
      // quantile of |Z| ~ geometric tail: P[|Z| >= k] ~ e^(-k/t), so k = t ln(100 / i)
      long k = (long) Math.ceil(tt * Math.log(100.0 / i));
      if (k >= 1) {
        edges.add(k);
      }
    }
    List<Long> e = new java.util.ArrayList<>(edges);
    // bin probabilities: [e_i, e_{i+1}) on the positive side, the mirror on the negative side
    List<Double> expected = new java.util.ArrayList<>();
    List<long[]> ranges = new java.util.ArrayList<>();
    for (int i = 0; i < e.size(); i++) {
      long lo = e.get(i);
      long hi = i + 1 < e.size() ? e.get(i + 1) : Long.MAX_VALUE;
      BigDecimal p = upperTail(t, lo).subtract(hi == Long.MAX_VALUE ? BigDecimal.ZERO : upperTail(t, hi));
      expected.add(p.doubleValue() * n);
      ranges.add(new long[] {lo, hi});
      if (lo == 0) {
        lo = 1; // the negative mirror of [0, hi) is (-hi, -1]
        p = upperTail(t, 1).subtract(hi == Long.MAX_VALUE ? BigDecimal.ZERO : upperTail(t, hi));
      }
      expected.add(p.doubleValue() * n);
      ranges.add(new long[] {-hi + 1, -lo});
    }
    long[] observed = new long[ranges.size()];
    for (long z : draws) {
      for (int b = 0; b < ranges.size(); b++) {
        long[] rg = ranges.get(b);
        boolean in = z >= 0 ? (rg[0] >= 0 && z >= rg[0] && (rg[1] == Long.MAX_VALUE || z < rg[1]))
            : (rg[1] < 0 && z <= rg[1] && (rg[0] == -Long.MAX_VALUE + 1 || z >= rg[0]));
        if (in) {
          observed[b]++;
          break;
        }
      }
    }
    double g = 0;
    long seen = 0;
    for (int b = 0; b < observed.length; b++) {
      seen += observed[b];
      if (observed[b] > 0) {
        g += 2 * observed[b] * Math.log(observed[b] / expected.get(b));
      }
    }
    if (seen != n) {
      throw new AssertionError("binning lost draws: " + seen + " of " + n);
    }
    return new double[] {g, observed.length - 1};
  }

  @ParameterizedTest
  @CsvSource({"1/2, 101", "2, 102", "100, 103", "1000000, 104"})
  void gTestOnAMillionDraws(String scaleText, int seed) {
    Rational t = Rational.parse(scaleText);
    DiscreteLaplace dl = DiscreteLaplace.of(t);
    RandomSource rnd = RandomSource.seeded(new byte[] {(byte) seed});
    long[] draws = new long[1_000_000];
    dl.fill(draws, rnd);
    double[] g = gTest(t, draws);
    // G ~ chi^2(df) under the null; df + 7 sqrt(2 df) is beyond the 1 - 10^-6 quantile for these df
    double limit = g[1] + 7 * Math.sqrt(2 * g[1]);
    System.out.printf("G-test scale %s seed %d: G = %.1f, df = %.0f, limit %.1f%n", t, seed, g[0], g[1], limit);
    assertTrue(g[0] < limit, "G = " + g[0] + " with df " + g[1]);
  }

  /** The entropy of the discrete Laplace in bits, for people: -log2 P0 + E|Z| log2(e) / t. */
  static double entropy(Rational t) { // double: a figure shown to people, never used to sample
    double tt = new BigDecimal(t.numerator()).divide(new BigDecimal(t.denominator()), MathContext.DECIMAL64).doubleValue();
    double r = Math.exp(-1 / tt);
    double p0 = (1 - r) / (1 + r);
    double meanAbs = 2 * r / ((1 - r) * (1 + r));
    return (-Math.log(p0) + meanAbs / tt) / Math.log(2);
  }

  @Test
  void bitsPerSampleNextToTheEntropy() {
    String[] scales = {"1/4", "1/2", "2", "7/3", "100", "1000000", "1000000000"};
    for (String sc : scales) {
      Rational t = Rational.parse(sc);
      DiscreteLaplace dl = DiscreteLaplace.of(t);
      RandomSource rnd = RandomSource.seeded(new byte[] {7});
      int n = 200_000;
      for (int i = 0; i < n; i++) {
        dl.sample(rnd);
      }
      double bits = (double) rnd.bitsConsumed() / n;
      RandomSource ref = RandomSource.seeded(new byte[] {8});
      int nRef = 20_000;
      for (int i = 0; i < nRef; i++) {
        dl.sampleReference(ref);
      }
      double refBits = (double) ref.bitsConsumed() / nRef;
      double h = entropy(t);
      System.out.printf("scale %s: entropy %.2f bits, inversion %.2f bits/sample (+%.2f), CKS %.2f (+%.2f) [seeds 7, 8]%n",
          sc, h, bits, bits - h, refBits, refBits - h);
      // sanity only (the targets are checked by the benchmark): no sampler beats the entropy
      assertTrue(bits > h - 0.1 && bits < h + 10, "bits " + bits + " entropy " + h);
    }
  }
}
