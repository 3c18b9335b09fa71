package org.priodp.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fixed-work discrete Gaussian: its output against the exact PMF of N_Z(0, sigma^2) by a
 * G-test on seeded draws, with a negative control (sigma^2 off by 5%) that the same test
 * rejects; its delta recomputed independently (the exact tail mass and the exact acceptance
 * probability of a round, in 60-digit decimals) and compared with {@link
 * HardenedDiscreteGaussian#delta()}; the exact output distribution enumerated from the stored
 * tables and the sampler's own fixed-point product ({@link HardenedGaussianEnumeration}), its
 * exact total variation below delta, with negative controls (plausible bugs enumerated the same
 * way) that it rejects; the same number of random bits for every draw.
 */
class HardenedDiscreteGaussianTest {
  private static final MathContext MC = new MathContext(60);
  private static final int DRAWS = 200_000;

  @ParameterizedTest
  @CsvSource({"1/2, 201", "2, 202", "100, 203", "1000000, 204", "12345/7, 205"})
  void gTestAgainstTheExactPmf(String sigma2Text, int seed) {
    Rational s2 = Rational.parse(sigma2Text);
    double[] g = gTest(HardenedDiscreteGaussian.of(s2), s2, seed);
    assertTrue(g[0] < GaussianGTest.limit(g[1]), "G = " + g[0] + " with df " + g[1]);
  }

  /** The negative control: the same test rejects a sampler built for sigma^2 5% too large. */
  @ParameterizedTest
  @CsvSource({"1/2, 211", "2, 212", "100, 213", "1000000, 214"})
  void theGTestRejectsASigma2FivePercentOff(String sigma2Text, int seed) {
    Rational s2 = Rational.parse(sigma2Text);
    HardenedDiscreteGaussian wrong = HardenedDiscreteGaussian.of(s2.multiply(Rational.of(105, 100)));
    double[] g = gTest(wrong, s2, seed);
    assertTrue(g[0] > GaussianGTest.limit(g[1]), "sigma^2 5% off passed: G = " + g[0] + " with df " + g[1]);
  }

  private static double[] gTest(HardenedDiscreteGaussian h, Rational claimed, int seed) {
    long[] draws = new long[DRAWS];
    h.fill(draws, RandomSource.seeded(new byte[] {(byte) seed}));
    double[] g = GaussianGTest.gStatistic(new GaussianGTest.Pmf(claimed), draws);
    System.out.printf("G-test %s against sigma^2 %s, %d draws, seed %d: G = %.1f, df = %.0f, limit %.1f%n",
        h, claimed, DRAWS, seed, g[0], g[1], GaussianGTest.limit(g[1]));
    return g;
  }

  @ParameterizedTest
  @ValueSource(strings = {"1/2", "2", "100", "1000000", "12345/7"})
  void everyDrawConsumesTheSameRandomnessWhateverItsMagnitude(String sigma2Text) {
    Rational s2 = Rational.parse(sigma2Text);
    HardenedDiscreteGaussian h = HardenedDiscreteGaussian.of(s2);
    RandomSource r = RandomSource.seeded(new byte[] {21});
    long before = r.bitsConsumed();
    long smallest = Long.MAX_VALUE;
    long largest = 0;
    double sigma = Math.sqrt(Accuracy.toDouble(s2)); // double: only to classify draws in the test
    for (int i = 0; i < 20_000; i++) {
      long z = Math.abs(h.sample(r));
      long after = r.bitsConsumed();
      assertEquals(h.bitsPerSample(), after - before, "draw " + i + " (|z| = " + z + ")");
      before = after;
      smallest = Math.min(smallest, z);
      largest = Math.max(largest, z);
    }
    assertEquals(0, smallest, "zero drawn");
    assertTrue(largest >= 2 * sigma, "a draw beyond 2 sigma: largest " + largest);
    System.out.println(h + ": " + h.bitsPerSample() + " bits per draw, |z| from 0 to " + largest);
  }

  @Test
  void theSmallestAndTheLargestDrawReadTheSameBits() {
    // all-zero bits: block 0, y = 0, s = 0, accepted (V = 0): Z = 0. U and y all ones, s = 0 and
    // V = 0: the last block's last value, accepted in the first round: Z = kX - 1.
    HardenedDiscreteGaussian h = HardenedDiscreteGaussian.of(Rational.of(1_000_000));
    long k = 1L << h.blockBits();
    Counting zeros = new Counting(new long[] {0, 0, 0, 0, 0, 0});
    Counting largest = new Counting(new long[] {-1, -1, -1, 0, 0, 0});
    assertEquals(0, h.sample(zeros));
    assertEquals(k * h.blocks() - 1, h.sample(largest));
    assertEquals(h.bitsPerSample(), zeros.bits);
    assertEquals(h.bitsPerSample(), largest.bits);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1/2", "2", "100", "10000", "1000000", "12345/7"})
  void deltaIsBelowTwoToTheMinus64AndAboveTheTrueBound(String sigma2Text) {
    Rational s2 = Rational.parse(sigma2Text);
    HardenedDiscreteGaussian h = HardenedDiscreteGaussian.of(s2);
    assertTrue(h.delta().compareTo(HardenedDiscreteGaussian.DEFAULT_DELTA) <= 0, "delta " + h.delta());
    assertEquals(h.delta(), h.totalVariationPerDraw());
    long k = 1L << h.blockBits();
    long bigK = k * h.blocks();
    // the true tail P[Z outside [-K, K)] and the true acceptance probability p of a round
    BigDecimal[] w = weights(s2, bigK + 12 * (long) Math.sqrt(Accuracy.toDouble(s2)) + 40);
    BigDecimal norm = w[0];
    for (int z = 1; z < w.length; z++) {
      norm = norm.add(w[z].multiply(BigDecimal.valueOf(2)), MC);
    }
    BigDecimal inside = w[0].add(w[(int) bigK], MC);
    for (int z = 1; z < bigK; z++) {
      inside = inside.add(w[z].multiply(BigDecimal.valueOf(2)), MC);
    }
    BigDecimal tail = BigDecimal.ONE.subtract(inside.divide(norm, MC), MC);
    BigDecimal delta = decimal(h.delta());
    if (h.direct()) {
      // support (-K, K): the mass at -K is outside too
      BigDecimal directTail = tail.add(w[(int) bigK].divide(norm, MC), MC);
      BigDecimal trueBound = directTail.add(decimal(HardenedDiscreteGaussian.perThresholdError())
          .multiply(BigDecimal.valueOf(2 * bigK - 2)), MC);
      System.out.printf("sigma^2 %s: direct, K = %d, tail %.3e, bound from the true tail %.3e, delta %.3e = 2^%.2f%n",
          s2, bigK, directTail.doubleValue(), trueBound.doubleValue(), delta.doubleValue(),
          Math.log(delta.doubleValue()) / Math.log(2)); // doubles: printed for people
      assertTrue(trueBound.compareTo(delta) <= 0, "true bound " + trueBound + " above delta " + delta);
      Rational shorter = HardenedDiscreteGaussian.tailBound(s2.numerator(), s2.denominator(), bigK - 1);
      assertTrue(shorter.compareTo(HardenedDiscreteGaussian.DEFAULT_DELTA.divide(Rational.of(4))) > 0, "K is minimal");
      return;
    }
    BigDecimal s = BigDecimal.ZERO;
    for (int x = 0; x < h.blocks(); x++) {
      s = s.add(w[(int) (k * x)], MC);
    }
    // a round returns Z in [-K, K) with probability w(Z) / (2kS)
    BigDecimal p = inside.divide(s.multiply(BigDecimal.valueOf(2 * k)), MC);
    BigDecimal pLow = decimal(h.acceptanceLowerBound());
    assertTrue(pLow.compareTo(p) <= 0, "p_low " + pLow + " above the true p " + p);
    BigDecimal perRound = decimal(HardenedDiscreteGaussian.perRoundError(h.blocks(), h.productBits()));
    BigDecimal trueBound = tail.add(perRound.multiply(BigDecimal.valueOf(h.rounds())), MC)
        .add(BigDecimal.ONE.subtract(p).pow(h.rounds(), MC), MC);
    System.out.printf("sigma^2 %s: k = %d, X = %d, R = %d, L = %d, p = %.6f (p_low %.6f), tail %.3e,"
        + " bound from the true p and tail %.3e, delta %.3e = 2^%.2f%n", s2, k, h.blocks(), h.rounds(),
        h.productBits(), p.doubleValue(), pLow.doubleValue(), tail.doubleValue(), trueBound.doubleValue(),
        delta.doubleValue(), Math.log(delta.doubleValue()) / Math.log(2)); // doubles: printed for people
    assertTrue(trueBound.compareTo(delta) <= 0, "true bound " + trueBound + " above delta " + delta);
    assertTrue(tail.compareTo(decimal(HardenedDiscreteGaussian.tailBound(s2.numerator(), s2.denominator(), bigK))) <= 0);
    // minimality: one round fewer breaks the bound
    Rational q = HardenedDiscreteGaussian.roundUp64(Rational.ONE.subtract(h.acceptanceLowerBound()));
    Rational fewer = HardenedDiscreteGaussian.delta(
        HardenedDiscreteGaussian.tailBound(s2.numerator(), s2.denominator(), bigK),
        HardenedDiscreteGaussian.perRoundError(h.blocks(), h.productBits()), h.rounds() - 1, power(q, h.rounds() - 1));
    assertTrue(fewer.compareTo(HardenedDiscreteGaussian.DEFAULT_DELTA) > 0, "R is minimal");
  }

  /**
   * The exact output distribution of {@code sample()}, enumerated from the stored tables and the
   * sampler's own fixed-point product ({@link HardenedGaussianEnumeration}), is within delta of
   * N_Z(0, sigma^2) and has total mass 1: an independent check of the class comment's bound.
   */
  @ParameterizedTest
  @ValueSource(strings = {"1/2", "2", "100", "255", "256", "12345/7", "10000", "1000000", "100000000"})
  void theExactlyEnumeratedDistributionIsWithinDelta(String sigma2Text) {
    HardenedDiscreteGaussian h = HardenedDiscreteGaussian.of(Rational.parse(sigma2Text));
    HardenedGaussianEnumeration.Result r = HardenedGaussianEnumeration.enumerate(h, HardenedGaussianEnumeration.Variant.EXACT);
    print(h, HardenedGaussianEnumeration.Variant.EXACT, r);
    assertTrue(r.mass().subtract(BigDecimal.ONE).abs().compareTo(BigDecimal.ONE.movePointLeft(60)) <= 0,
        "total mass " + r.mass());
    assertTrue(r.tv().compareTo(HardenedGaussianEnumeration.decimal(h.delta())) <= 0,
        "exact TV " + r.tv() + " above delta " + h.delta());
    assertTrue(r.within(h.delta()));
  }

  /**
   * The negative controls: the same enumeration with a plausible bug built in (too few rounds,
   * the all-fail output counted twice, a sign mapping that doubles 0, a biased offset, an
   * acceptance that ignores the sign, a direct inversion off by one) is rejected: TV above delta
   * or mass not 1.
   */
  @ParameterizedTest
  @CsvSource({"256, ONE_ROUND", "256, TWO_ROUNDS", "256, FAIL_COUNTED_TWICE", "256, SIGN_DOUBLES_ZERO",
      "256, BIASED_OFFSET", "256, ACCEPTANCE_IGNORES_SIGN", "12345/7, TWO_ROUNDS", "12345/7, FAIL_COUNTED_TWICE",
      "12345/7, SIGN_DOUBLES_ZERO", "12345/7, BIASED_OFFSET", "1000000, ONE_ROUND", "1000000, FAIL_COUNTED_TWICE",
      "1000000, SIGN_DOUBLES_ZERO", "1000000, BIASED_OFFSET", "1000000, ACCEPTANCE_IGNORES_SIGN",
      "1/2, DIRECT_OFF_BY_ONE", "100, DIRECT_OFF_BY_ONE"})
  void theEnumerationRejectsPlausibleBugs(String sigma2Text, HardenedGaussianEnumeration.Variant variant) {
    HardenedDiscreteGaussian h = HardenedDiscreteGaussian.of(Rational.parse(sigma2Text));
    HardenedGaussianEnumeration.Result r = HardenedGaussianEnumeration.enumerate(h, variant);
    print(h, variant, r);
    assertFalse(r.within(h.delta()), variant + " passed: mass " + r.mass() + ", TV " + r.tv());
  }

  private static void print(HardenedDiscreteGaussian h, HardenedGaussianEnumeration.Variant variant,
      HardenedGaussianEnumeration.Result r) {
    System.out.printf("%s %s: exact TV %.4e = 2^%.2f, delta 2^%.2f, all-rounds-fail mass %.3e, mass - 1 = %.3e%n",
        h, variant, r.tv().doubleValue(), r.log2Tv(), Math.log(decimal(h.delta()).doubleValue()) / Math.log(2),
        r.failMass().doubleValue(), r.mass().subtract(BigDecimal.ONE).doubleValue()); // doubles: printed for people
  }

  /**
   * Rejection rounds with k = 1 are never used: at the top of the direct range (floor(sigma) =
   * 15) direct inversion meets even the smallest supported bound, 2^-100.
   */
  @Test
  void directInversionMeetsTheSmallestSupportedBound() {
    Rational smallest = Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(100));
    HardenedDiscreteGaussian h = HardenedDiscreteGaussian.of(Rational.parse("255999/1000"), smallest);
    System.out.println(h + " at delta bound 2^-100: delta 2^" + HardenedDiscreteLaplace.log2(h.delta()));
    assertTrue(h.direct(), h.toString());
    assertTrue(h.blocks() < 256, "K " + h.blocks());
    assertTrue(HardenedDiscreteGaussian.of(Rational.of(256), smallest).blockBits() >= 1);
  }

  @Test
  void aLooserBoundNeedsFewerRounds() {
    HardenedDiscreteGaussian loose = HardenedDiscreteGaussian.of(Rational.of(10000), Rational.of(1, 1000));
    HardenedDiscreteGaussian tight = HardenedDiscreteGaussian.of(Rational.of(10000));
    assertTrue(loose.rounds() < tight.rounds());
    assertTrue(loose.delta().compareTo(Rational.of(1, 1000)) <= 0);
  }

  @Test
  void theLargestSupportedSigma2IsAcceptedAndBeyondItIsRefusedByName() {
    HardenedDiscreteGaussian top = HardenedDiscreteGaussian.of(HardenedDiscreteGaussian.MAX_SIGMA2);
    assertTrue(top.delta().compareTo(HardenedDiscreteGaussian.DEFAULT_DELTA) <= 0);
    long k = 1L << top.blockBits();
    assertTrue(BigInteger.valueOf(k).pow(2).multiply(BigInteger.valueOf(2L * top.blocks() - 1)).bitLength() <= 62,
        "N fits 62 bits at the top of the range: " + top);
    long z = top.sample(RandomSource.seeded(new byte[] {5}));
    System.out.println(top + ": a draw " + z + ", delta 2^" + HardenedDiscreteLaplace.log2(top.delta()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HardenedDiscreteGaussian.of(HardenedDiscreteGaussian.MAX_SIGMA2.add(Rational.of(1, 2))));
    assertTrue(e.getMessage().contains("largest supported sigma^2 is 1000000000000000000"), e.getMessage());
  }

  @Test
  void rejectsBadParameters() {
    assertThrows(IllegalArgumentException.class, () -> HardenedDiscreteGaussian.of(Rational.ZERO));
    assertThrows(IllegalArgumentException.class, () -> HardenedDiscreteGaussian.of(Rational.ONE, Rational.ONE));
    assertThrows(IllegalArgumentException.class,
        () -> HardenedDiscreteGaussian.of(Rational.ONE, Rational.of(BigInteger.ONE, BigInteger.ONE.shiftLeft(200))));
  }

  @Test
  void answersTheExactGaussianAccuracyFigures() {
    HardenedDiscreteGaussian h = HardenedDiscreteGaussian.of(Rational.of(4));
    DiscreteGaussian exact = DiscreteGaussian.of(Rational.of(4));
    assertEquals(exact.variance(), h.variance());
    assertEquals(exact.halfWidth(2, 0.95), h.halfWidth(2, 0.95));
    assertTrue(h.drawsFitLong());
    assertEquals(Rational.ZERO, exact.totalVariationPerDraw());
    assertTrue(h.describe().startsWith("fixed-work discrete Gaussian with sigma^2 4 (total variation <= 2^-"),
        h.describe());
    assertEquals(h.toString(), exact.hardened().toString());
  }

  @Test
  void selectsTheFirstAcceptedRound() {
    // the value is a function of the first accepted round only: rounds after it do not matter
    HardenedDiscreteGaussian h = HardenedDiscreteGaussian.of(Rational.of(12345, 7));
    long seed = 0xFEEDL;
    System.out.println("selectsTheFirstAcceptedRound: seed=0x" + Long.toHexString(seed));
    SplittableRandom rnd = new SplittableRandom(seed);
    int accepted0 = 0;
    for (int t = 0; t < 200; t++) {
      long[] words = new long[6 * h.rounds()];
      for (int i = 0; i < words.length; i++) {
        words[i] = rnd.nextLong();
      }
      Scripted original = new Scripted(words, -1);
      long a = h.sample(original);
      // the same bits, but every round after the first accepted one replaced by other bits
      int first = original.firstAcceptedRound(h);
      assertEquals(a, h.sample(new Scripted(words, first)), "trial " + t + ", first accepted round " + first);
      if (first == 0) {
        accepted0++;
      }
    }
    assertTrue(accepted0 < 200, "some trials accept only after the first round: " + accepted0);
  }

  // ------------------------------------------------------------------ helpers

  private static BigDecimal[] weights(Rational s2, long upTo) {
    BigDecimal[] w = new BigDecimal[(int) upTo + 1];
    for (int z = 0; z <= upTo; z++) {
      w[z] = ExactPmf.expNeg(Rational.of((long) z * z).divide(s2.multiply(Rational.of(2))));
    }
    return w;
  }

  private static BigDecimal decimal(Rational r) {
    return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), MC);
  }

  private static Rational power(Rational q, int r) {
    Rational out = Rational.ONE;
    for (int i = 0; i < r; i++) {
      out = out.multiply(q);
    }
    return out;
  }

  /** A source that cycles through six words, one per read of a round, counting the bits. */
  private static final class Counting implements RandomSource {
    private final long[] words;
    private int reads;
    long bits;

    Counting(long[] words) {
      this.words = words;
    }

    @Override
    public int nextBit() {
      return (int) nextBits(1);
    }

    @Override
    public long nextBits(int k) {
      bits += k;
      long w = words[reads++ % words.length];
      return k == 64 ? w : w & ((1L << k) - 1);
    }

    @Override
    public long bitsConsumed() {
      return bits;
    }
  }

  /**
   * Replays fixed words, six reads per round (U hi, U lo, y, s, V hi, V lo); from round {@code
   * scrambleFrom} + 1 on (if >= 0), every read is replaced by its complement. Records the
   * acceptance of each round as the sampler would decide it.
   */
  private static final class Scripted implements RandomSource {
    private final long[] words;
    private final int scrambleFrom;
    private int reads;

    Scripted(long[] words, int scrambleFrom) {
      this.words = words;
      this.scrambleFrom = scrambleFrom;
    }

    @Override
    public int nextBit() {
      return (int) nextBits(1);
    }

    @Override
    public long nextBits(int k) {
      int round = reads / 6;
      long w = words[reads++];
      if (scrambleFrom >= 0 && round > scrambleFrom) {
        w = ~w;
      }
      return k == 64 ? w : w & ((1L << k) - 1);
    }

    @Override
    public long bitsConsumed() {
      return 0;
    }

    /** The first round whose V < e^(-N/(2 sigma^2)), decided in 60-digit decimals. */
    int firstAcceptedRound(HardenedDiscreteGaussian h) {
      for (int round = 0; round < h.rounds(); round++) {
        long[] one = new long[6];
        System.arraycopy(words, 6 * round, one, 0, 6);
        if (acceptsAlone(h, one)) {
          return round;
        }
      }
      return h.rounds();
    }

    private static boolean acceptsAlone(HardenedDiscreteGaussian h, long[] round) {
      // the candidate of this round: Z from U, y, s; accepted iff V below the exact threshold
      long k = 1L << h.blockBits();
      BigDecimal u = new BigDecimal(BigInteger.valueOf(round[0] & ((1L << 62) - 1)).shiftLeft(64)
          .or(new BigInteger(Long.toUnsignedString(round[1])))).divide(new BigDecimal(BigInteger.ONE.shiftLeft(126)), MC);
      Rational s2 = h.sigma2();
      BigDecimal[] w = weights(s2, k * h.blocks());
      BigDecimal total = BigDecimal.ZERO;
      for (int x = 0; x < h.blocks(); x++) {
        total = total.add(w[(int) (k * x)], MC);
      }
      long x = 0;
      BigDecimal acc = BigDecimal.ZERO;
      for (int i = 1; i < h.blocks(); i++) {
        acc = acc.add(w[(int) (k * (i - 1))], MC);
        if (u.compareTo(acc.divide(total, MC)) >= 0) {
          x++;
        }
      }
      long y = round[2] & (k - 1);
      long s = round[3] & 1;
      long big = (y + s) * (2 * k * x + y + s);
      BigDecimal threshold = ExactPmf.expNeg(Rational.of(big).divide(s2.multiply(Rational.of(2))));
      BigDecimal v = new BigDecimal(BigInteger.valueOf(round[4] & ((1L << 62) - 1)).shiftLeft(64)
          .or(new BigInteger(Long.toUnsignedString(round[5])))).divide(new BigDecimal(BigInteger.ONE.shiftLeft(126)), MC);
      return v.compareTo(threshold) < 0;
    }
  }
}
