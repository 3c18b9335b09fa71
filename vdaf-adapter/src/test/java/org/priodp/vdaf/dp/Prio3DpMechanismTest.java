package org.priodp.vdaf.dp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.field.DecodeException;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.FieldVector;
import org.priodp.field.PrimeField;
import org.priodp.noise.Accuracy;
import org.priodp.noise.NoiseSampler;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.vdaf.Prio3Variant;

/**
 * addNoiseToAggShare: the noise it adds is exactly the seeded sampler's draws, projected into
 * the field; projection and lift round-trip at the edges; bad shares are refused.
 */
class Prio3DpMechanismTest {
  private static final long SEED = 0x5eed_0004L;

  static FieldVector randomShare(PrimeField field, int n, SplittableRandom rnd) {
    BigInteger[] v = new BigInteger[n];
    for (int i = 0; i < n; i++) {
      v[i] = new BigInteger(field.modulus().bitLength() + 8, new java.util.Random(rnd.nextLong()))
          .mod(field.modulus());
    }
    return FieldVector.of(field, v);
  }

  static Stream<Arguments> mechanisms() {
    BigInteger max = BigInteger.valueOf(255);
    return Stream.of(
        Arguments.of(new Prio3Variant.Count(), DpStrategy.PureDpDiscreteLaplace.parse("1")),
        Arguments.of(new Prio3Variant.Sum(max), DpStrategy.PureDpDiscreteLaplace.parse("0.1")),
        Arguments.of(new Prio3Variant.Histogram(50, 7), DpStrategy.PureDpDiscreteLaplace.parse("1/2")),
        Arguments.of(Prio3Variant.SumVec.of(20, max, 10), DpStrategy.PureDpDiscreteLaplace.parse("2")),
        Arguments.of(Prio3Variant.SumVec.field64Multiproof(20, max, 10, 3), DpStrategy.ZCdpDiscreteGaussian.parse("1")),
        Arguments.of(new Prio3Variant.MultihotCountVec(30, 3, 5), DpStrategy.ZCdpDiscreteGaussian.parse("1/8")),
        Arguments.of(new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9), DpStrategy.PureDpDiscreteLaplace.parse("1")),
        Arguments.of(new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9), DpStrategy.ZCdpDiscreteGaussian.parse("1/2")),
        // scale 2^60 * 1000 is beyond the long fast path: samples are reduced mod p
        Arguments.of(new Prio3Variant.Sum(BigInteger.ONE.shiftLeft(60)), DpStrategy.PureDpDiscreteLaplace.parse("0.001")));
  }

  /** noised - unnoised, lifted, equals the draws of the same seeded source, coordinate by coordinate. */
  @ParameterizedTest
  @MethodSource("mechanisms")
  void noiseIsExactlyTheSampledNoise(Prio3Variant variant, DpStrategy strategy) {
    System.out.println("seed " + Long.toHexString(SEED) + " " + variant + " " + strategy.describe());
    Prio3DpMechanism m = Prio3DpMechanism.of(variant, strategy);
    PrimeField f = variant.field();
    int n = variant.outputLength();
    for (FieldVector share : new FieldVector[] {
        randomShare(f, n, new SplittableRandom(SEED)), FieldVector.zeros(f, n)}) {
      byte[] noised = m.addNoiseToAggShare(share.encode(), SeededRandomSource.fromHex("0401"));
      assertEquals(share.encode().length, noised.length);
      FieldVector diff = FieldVector.decode(f, noised, n).sub(share);
      NoiseSampler sampler = m.sampler().orElseThrow();
      RandomSource replay = SeededRandomSource.fromHex("0401");
      boolean sawNegative = false;
      for (int i = 0; i < n; i++) {
        BigInteger z = sampler.sampleBig(replay);
        sawNegative |= z.signum() < 0;
        assertEquals(z.mod(f.modulus()), diff.get(i), "coordinate " + i);
        if (z.abs().compareTo(f.modulus().shiftRight(1)) <= 0) {
          assertEquals(z, diff.getSigned(i), "lifted coordinate " + i);
        }
      }
      assertTrue(sawNegative || n == 1, "some noise is negative");
      // the FieldVector overload draws the same noise
      assertEquals(FieldVector.decode(f, noised, n),
          m.addNoiseToAggShare(share, SeededRandomSource.fromHex("0401")));
    }
  }

  @Test
  void bigScalesAreReducedModP() {
    // scale 2^60 * 1000 ~ 2^70 > p64: at least one of 20 draws exceeds p in size
    Prio3DpMechanism m = Prio3DpMechanism.of(new Prio3Variant.Sum(BigInteger.ONE.shiftLeft(60)),
        DpStrategy.PureDpDiscreteLaplace.parse("0.001"));
    RandomSource rnd = SeededRandomSource.fromHex("0402");
    boolean beyondP = false;
    for (int k = 0; k < 20; k++) {
      beyondP |= m.sampler().orElseThrow().sampleBig(rnd).abs().compareTo(Field64.FIELD.modulus()) >= 0;
    }
    assertTrue(beyondP, "the scale produces draws beyond p");
  }

  @Test
  void projectionAndLiftRoundTripAtTheEdges() {
    for (PrimeField f : new PrimeField[] {Field64.FIELD, Field128.FIELD}) {
      BigInteger p = f.modulus();
      BigInteger half = p.subtract(BigInteger.ONE).shiftRight(1);
      BigInteger[] zs = {half, half.negate(), half.subtract(BigInteger.ONE), half.negate().add(BigInteger.ONE),
          BigInteger.ONE.negate(), BigInteger.ZERO, BigInteger.valueOf(-12345)};
      for (BigInteger z : zs) {
        long[] w = f.newArray(1);
        Prio3DpMechanism.setProjected(f, w, 0, z);
        assertEquals(z, f.getSigned(w, 0), f.name() + " z=" + z);
        assertEquals(z.signum() < 0 ? p.add(z) : z, f.get(w, 0));
      }
      // beyond p: reduced mod p, so z and z + p project to the same element
      long[] a = f.newArray(2);
      Prio3DpMechanism.setProjected(f, a, 0, p.add(BigInteger.valueOf(5)));
      Prio3DpMechanism.setProjected(f, a, 1, p.negate().subtract(BigInteger.valueOf(5)));
      assertEquals(BigInteger.valueOf(5), f.getSigned(a, 0));
      assertEquals(BigInteger.valueOf(-5), f.getSigned(a, 1));
      // a share at p - 1 (i.e. -1) plus noise -3 wraps to p - 4 and lifts to -4
      long[] s = f.newArray(1);
      f.set(s, 0, p.subtract(BigInteger.ONE));
      long[] z = f.newArray(1);
      f.setSigned(z, 0, -3L);
      f.add(s, 0, z, 0, s, 0);
      assertEquals(BigInteger.valueOf(-4), f.getSigned(s, 0));
    }
  }

  @Test
  void noDifferentialPrivacyReturnsTheShareUnchanged() {
    Prio3DpMechanism m = Prio3DpMechanism.of(new Prio3Variant.Histogram(8, 2), new DpStrategy.NoDifferentialPrivacy());
    FieldVector share = randomShare(Field128.FIELD, 8, new SplittableRandom(SEED));
    RandomSource rnd = SeededRandomSource.fromHex("00");
    assertArrayEquals(share.encode(), m.addNoiseToAggShare(share.encode(), rnd));
    assertEquals(0, rnd.bitsConsumed());
    assertFalse(m.addsNoise());
    assertEquals(0, m.noiseHalfWidth(2, 0.95));
  }

  @Test
  void refusesSharesOfTheWrongLengthOrField() {
    Prio3DpMechanism m = Prio3DpMechanism.of(new Prio3Variant.Histogram(4, 2), DpStrategy.PureDpDiscreteLaplace.parse("1"));
    RandomSource rnd = SeededRandomSource.fromHex("01");
    DecodeException shortShare = assertThrows(DecodeException.class, () -> m.addNoiseToAggShare(new byte[48], rnd));
    assertTrue(shortShare.getMessage().startsWith("Prio3Histogram aggregate share (4 Field128 elements)"),
        shortShare.getMessage());
    byte[] nonCanonical = new byte[64];
    Field128.FIELD.encode(Field128.FIELD.newArray(4), 4, nonCanonical, 0);
    java.util.Arrays.fill(nonCanonical, 32, 48, (byte) 0xff); // element 2 = 2^128 - 1 >= p
    DecodeException big = assertThrows(DecodeException.class, () -> m.addNoiseToAggShare(nonCanonical, rnd));
    assertTrue(big.getMessage().contains("element 2"), big.getMessage());
    IllegalArgumentException field = assertThrows(IllegalArgumentException.class,
        () -> m.addNoiseToAggShare(FieldVector.zeros(Field64.FIELD, 4), rnd));
    assertTrue(field.getMessage().contains("Field128"), field.getMessage());
    IllegalArgumentException length = assertThrows(IllegalArgumentException.class,
        () -> m.addNoiseToAggShare(FieldVector.zeros(Field128.FIELD, 5), rnd));
    assertTrue(length.getMessage().contains("4 elements"), length.getMessage());
    assertThrows(IllegalArgumentException.class, () -> m.addNoiseInPlace(new long[7], rnd));
    assertEquals(0, rnd.bitsConsumed(), "nothing is drawn for a refused share");
  }

  @Test
  void accuracyFiguresMatchTheNoiseModule() {
    Prio3DpMechanism m = Prio3DpMechanism.of(new Prio3Variant.Histogram(4, 2), DpStrategy.PureDpDiscreteLaplace.parse("1"));
    Rational scale = Rational.of(2);
    assertEquals(Accuracy.laplaceHalfWidth(scale, 1, 0.95), m.noiseHalfWidthBig(1, 0.95));
    assertEquals(Accuracy.laplaceHalfWidth(scale, 2, 0.95), m.noiseHalfWidthBig(2, 0.95));
    assertEquals(Accuracy.laplaceHalfWidth(scale, 2, 0.95).longValueExact(), m.noiseHalfWidth(2, 0.95));
    assertTrue(m.noiseHalfWidth(3, 0.95) >= m.noiseHalfWidth(2, 0.95));
    assertEquals(2 * Accuracy.laplaceVariance(scale), m.noiseVariance(2), 1e-12);
    assertEquals("discrete Laplace with scale 2", m.describeNoise());
    assertThrows(IllegalArgumentException.class, () -> m.noiseHalfWidth(0, 0.95));
    assertThrows(IllegalArgumentException.class, () -> m.noiseHalfWidth(2, 1.0));
    Prio3DpMechanism g = Prio3DpMechanism.of(new Prio3Variant.Count(), DpStrategy.ZCdpDiscreteGaussian.parse("1/2"));
    assertEquals(Accuracy.gaussianHalfWidth(Rational.ONE, 2, 0.95), g.noiseHalfWidthBig(2, 0.95));
    assertEquals(2.0, g.noiseVariance(2), 1e-12);
  }

  /**
   * A Laplace scale of 2^71 (epsilon 2^-70 on a histogram) has half-widths beyond the long
   * range: the BigInteger figure is computed, the long one refuses with a message, not an
   * overflow deep inside.
   */
  @Test
  void hugeScalesHaveHalfWidthsBeyondTheLongRange() {
    Prio3DpMechanism m = Prio3DpMechanism.of(new Prio3Variant.Histogram(4, 2),
        DpStrategy.PureDpDiscreteLaplace.parse("1/" + BigInteger.ONE.shiftLeft(70)));
    for (int aggregators = 1; aggregators <= 3; aggregators++) {
      BigInteger k = m.noiseHalfWidthBig(aggregators, 0.95);
      assertTrue(k.bitLength() > 63 && k.bitLength() < 80, aggregators + " aggregators: " + k);
    }
    ArithmeticException e = assertThrows(ArithmeticException.class, () -> m.noiseHalfWidth(2, 0.95));
    assertTrue(e.getMessage().contains("noiseHalfWidthBig"), e.getMessage());
    Prio3DpMechanism g = Prio3DpMechanism.of(new Prio3Variant.Count(),
        DpStrategy.ZCdpDiscreteGaussian.parse("1/" + BigInteger.ONE.shiftLeft(200)));
    assertTrue(g.noiseHalfWidthBig(2, 0.95).bitLength() > 90);
  }

  /**
   * Prio3L1BoundSum(10, max_value 240): discrete Laplace scale L1 / epsilon = 480 / epsilon,
   * discrete Gaussian sigma^2 = L2^2 / (2 rho) = 115200 / (2 rho), exact and hardened alike.
   */
  @Test
  void l1BoundSumIsCalibratedToTwiceMaxValue() {
    Prio3Variant.L1BoundSum v = new Prio3Variant.L1BoundSum(10, BigInteger.valueOf(240), 9);
    Prio3DpMechanism laplace = Prio3DpMechanism.of(v, DpStrategy.PureDpDiscreteLaplace.parse("1/2"));
    assertEquals("discrete Laplace with scale 960", laplace.describeNoise());
    assertEquals(Rational.of(960),
        ((org.priodp.noise.HardenedDiscreteLaplace) laplace.withHardenedSampler().sampler().orElseThrow()).scale());
    Prio3DpMechanism gauss = Prio3DpMechanism.of(v, DpStrategy.ZCdpDiscreteGaussian.parse("2"));
    assertEquals("discrete Gaussian with sigma^2 28800", gauss.describeNoise());
    assertEquals(Rational.of(28800),
        ((org.priodp.noise.HardenedDiscreteGaussian) gauss.withHardenedSampler().sampler().orElseThrow()).sigma2());
    // the Janus rule has nothing looser for this variant
    assertEquals("discrete Laplace with scale 960", Prio3DpMechanism.of(v,
        DpStrategy.PureDpDiscreteLaplace.parse("1/2"), SensitivityRule.JANUS_COMPATIBLE).describeNoise());
  }

  @Test
  void janusRuleGivesTheLooserScale() {
    Prio3Variant.SumVec v = Prio3Variant.SumVec.of(10, BigInteger.valueOf(5), 3);
    DpStrategy eps = DpStrategy.PureDpDiscreteLaplace.parse("1");
    assertEquals("discrete Laplace with scale 50", Prio3DpMechanism.of(v, eps).describeNoise());
    assertEquals("discrete Laplace with scale 70",
        Prio3DpMechanism.of(v, eps, SensitivityRule.JANUS_COMPATIBLE).describeNoise());
  }

  /**
   * The draws and their field elements do not outlive the call: both scratch arrays are zero
   * afterwards, on every path (fixed-work, exact long, exact BigInteger), and the noise added is
   * still exactly the sampled one.
   */
  @ParameterizedTest
  @MethodSource("mechanisms")
  void theScratchArraysAreZeroedAfterNoising(Prio3Variant variant, DpStrategy strategy) {
    Prio3DpMechanism exact = Prio3DpMechanism.of(variant, strategy);
    Prio3DpMechanism hardened;
    try {
      hardened = exact.withHardenedSampler();
    } catch (IllegalArgumentException e) {
      hardened = exact; // beyond the fixed-work range: the exact path twice
    }
    for (Prio3DpMechanism m : new Prio3DpMechanism[] {exact, hardened}) {
      PrimeField field = variant.field();
      int n = variant.outputLength();
      FieldVector share = randomShare(field, n, new SplittableRandom(7));
      long[] words = share.toWords();
      long[] z = new long[n];
      long[] noise = field.newArray(n);
      m.addNoise(words, SeededRandomSource.fromHex("77"), z, noise);
      assertArrayEquals(new long[n], z, m + ": draws left in memory");
      assertArrayEquals(field.newArray(n), noise, m + ": noise left in memory");
      NoiseSampler sampler = m.sampler().orElseThrow();
      RandomSource again = SeededRandomSource.fromHex("77");
      FieldVector diff = FieldVector.ofWords(field, words).sub(share);
      for (int i = 0; i < n; i++) {
        BigInteger draw = sampler.sampleBig(again);
        assertEquals(draw.mod(field.modulus()), diff.get(i), m + " coordinate " + i);
      }
    }
  }

  /** A draw that throws midway (here: the random source fails) still leaves both arrays zero. */
  @Test
  void theScratchArraysAreZeroedWhenADrawThrows() {
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(50, 7);
    Prio3DpMechanism m = Prio3DpMechanism.of(h, DpStrategy.ZCdpDiscreteGaussian.parse("1/8")).withHardenedSampler();
    RandomSource seeded = SeededRandomSource.fromHex("78");
    RandomSource failing = new RandomSource() {
      private int calls;

      @Override
      public int nextBit() {
        return (int) nextBits(1);
      }

      @Override
      public long nextBits(int k) {
        if (++calls > 41) { // midway through the 50 draws
          throw new IllegalStateException("source failed");
        }
        return seeded.nextBits(k);
      }

      @Override
      public long bitsConsumed() {
        return seeded.bitsConsumed();
      }
    };
    long[] words = randomShare(h.field(), 50, new SplittableRandom(8)).toWords();
    long[] z = new long[50];
    long[] noise = h.field().newArray(50);
    assertThrows(IllegalStateException.class, () -> m.addNoise(words, failing, z, noise));
    assertArrayEquals(new long[50], z, "draws left in memory");
    assertArrayEquals(h.field().newArray(50), noise, "noise left in memory");
  }

  @Test
  void hardenedSamplerNoisesWithFixedRandomnessPerShare() {
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(50, 7);
    Prio3DpMechanism m = Prio3DpMechanism.of(h, DpStrategy.PureDpDiscreteLaplace.parse("1/2"))
        .withHardenedSampler();
    assertTrue(m.hardened());
    org.priodp.noise.HardenedDiscreteLaplace sampler =
        (org.priodp.noise.HardenedDiscreteLaplace) m.sampler().orElseThrow();
    assertEquals(org.priodp.noise.Rational.of(4), sampler.scale(), "scale L1/epsilon = 2/(1/2)");
    assertTrue(m.describeNoise().startsWith("fixed-work discrete Laplace with scale 4"), m.describeNoise());
    FieldVector share = randomShare(h.field(), 50, new SplittableRandom(5));
    org.priodp.noise.RandomSource a = org.priodp.noise.SeededRandomSource.fromHex("5a");
    org.priodp.noise.RandomSource b = org.priodp.noise.SeededRandomSource.fromHex("5a");
    for (int round = 0; round < 20; round++) {
      long before = a.bitsConsumed();
      FieldVector noised = m.addNoiseToAggShare(share, a);
      assertEquals(50 * sampler.bitsPerSample(), a.bitsConsumed() - before,
          "every share reads the same number of random bits");
      FieldVector diff = noised.sub(share);
      for (int i = 0; i < 50; i++) {
        assertEquals(java.math.BigInteger.valueOf(sampler.sample(b)), diff.getSigned(i), "coordinate " + i);
      }
    }
    // accuracy figures are those of the same scale
    Prio3DpMechanism exact = Prio3DpMechanism.of(h, DpStrategy.PureDpDiscreteLaplace.parse("1/2"));
    assertEquals(exact.noiseHalfWidth(2, 0.95), m.noiseHalfWidth(2, 0.95));
    assertEquals(exact.noiseVariance(2), m.noiseVariance(2));
  }

  @Test
  void hardenedPathEqualsTheBranchingProjectionAndAdditionInBothFields() {
    for (Prio3Variant v : new Prio3Variant[] {new Prio3Variant.Count(), new Prio3Variant.Histogram(40, 7)}) {
      Prio3DpMechanism m = Prio3DpMechanism.of(v, DpStrategy.PureDpDiscreteLaplace.parse("1/8"))
          .withHardenedSampler();
      long seed = 0x4A5DL;
      System.out.println("hardenedPath " + v.field().name() + ": seed=0x" + Long.toHexString(seed));
      SplittableRandom shareRnd = new SplittableRandom(seed);
      org.priodp.field.PrimeField field = v.field();
      int n = v.outputLength();
      for (int round = 0; round < 50; round++) {
        FieldVector share = randomShare(field, n, shareRnd);
        long[] words = share.toWords();
        if (round == 0) {
          // shares at the edges: p - 1 everywhere, so that every negative draw wraps and every
          // positive one reduces
          for (int i = 0; i < n; i++) {
            field.set(words, i, field.modulus().subtract(java.math.BigInteger.ONE));
          }
        }
        long[] got = words.clone();
        org.priodp.noise.RandomSource a = org.priodp.noise.SeededRandomSource.fromHex(String.format("7%03x", round));
        org.priodp.noise.RandomSource b = org.priodp.noise.SeededRandomSource.fromHex(String.format("7%03x", round));
        m.addNoiseInPlace(got, a);
        long[] z = new long[n];
        m.sampler().orElseThrow().fill(z, b);
        long[] noise = field.newArray(n);
        for (int i = 0; i < n; i++) {
          field.setSigned(noise, i, z[i]);
        }
        long[] want = field.newArray(n);
        field.addVec(words, noise, want, n);
        assertArrayEquals(want, got, field.name() + " round " + round + " (seed=0x" + Long.toHexString(seed) + ")");
      }
    }
  }

  @Test
  void describeSettingsNamesTheStrategyTheNoiseAndTheSampler() {
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(4, 2);
    DpStrategy eps = DpStrategy.PureDpDiscreteLaplace.parse("1");
    assertEquals("PureDpDiscreteLaplace(epsilon=1), discrete Laplace with scale 2, fixed-work sampler"
        + " (total variation <= 2^-64 per draw, <= 2^-62 per share of 4)",
        Prio3DpMechanism.of(h, eps).withHardenedSampler().describeSettings());
    assertEquals("PureDpDiscreteLaplace(epsilon=1), discrete Laplace with scale 2, exact sampler"
        + " (running time depends on the noise)", Prio3DpMechanism.of(h, eps).describeSettings());
    assertEquals("ZCdpDiscreteGaussian(rho=1/2), discrete Gaussian with sigma^2 2, fixed-work sampler"
        + " (total variation <= 2^-69 per draw, <= 2^-67 per share of 4)",
        Prio3DpMechanism.of(h, DpStrategy.ZCdpDiscreteGaussian.parse("1/2")).withHardenedSampler().describeSettings());
    assertEquals("NoDifferentialPrivacy, no noise",
        Prio3DpMechanism.of(h, new DpStrategy.NoDifferentialPrivacy()).describeSettings());
  }

  @Test
  void hardenedSamplerIsForNoisingStrategiesOnly() {
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(4, 2);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Prio3DpMechanism.of(h, new DpStrategy.NoDifferentialPrivacy()).withHardenedSampler());
    assertTrue(e.getMessage().contains("noising strategies only"), e.getMessage());
  }

  @Test
  void hardenedGaussianNoisesWithFixedRandomnessAndTheBranchFreeProjection() {
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(30, 7);
    DpStrategy rho = DpStrategy.ZCdpDiscreteGaussian.parse("1/800"); // sigma^2 = 2/(2/800) = 800: rejection rounds
    Prio3DpMechanism m = Prio3DpMechanism.of(h, rho).withHardenedSampler();
    assertTrue(m.hardened());
    org.priodp.noise.HardenedDiscreteGaussian sampler =
        (org.priodp.noise.HardenedDiscreteGaussian) m.sampler().orElseThrow();
    assertEquals(org.priodp.noise.Rational.of(800), sampler.sigma2());
    assertTrue(m.describeNoise().startsWith("fixed-work discrete Gaussian with sigma^2 800"), m.describeNoise());
    assertEquals(sampler.delta().multiply(org.priodp.noise.Rational.of(30)), m.totalVariation());
    assertEquals(org.priodp.noise.Rational.ZERO, Prio3DpMechanism.of(h, rho).totalVariation());
    org.priodp.field.PrimeField field = h.field();
    long seed = 0x6A55L;
    System.out.println("hardenedGaussian: seed=0x" + Long.toHexString(seed));
    SplittableRandom shareRnd = new SplittableRandom(seed);
    for (int round = 0; round < 20; round++) {
      FieldVector share = randomShare(field, 30, shareRnd);
      long[] words = share.toWords();
      if (round == 0) {
        for (int i = 0; i < 30; i++) {
          field.set(words, i, field.modulus().subtract(java.math.BigInteger.ONE));
        }
      }
      long[] got = words.clone();
      org.priodp.noise.RandomSource a = org.priodp.noise.SeededRandomSource.fromHex(String.format("8%03x", round));
      org.priodp.noise.RandomSource b = org.priodp.noise.SeededRandomSource.fromHex(String.format("8%03x", round));
      m.addNoiseInPlace(got, a);
      assertEquals(30 * sampler.bitsPerSample(), a.bitsConsumed(), "every share reads the same number of bits");
      long[] z = new long[30];
      sampler.fill(z, b);
      long[] noise = field.newArray(30);
      for (int i = 0; i < 30; i++) {
        field.setSigned(noise, i, z[i]);
      }
      long[] want = field.newArray(30);
      field.addVec(words, noise, want, 30);
      assertArrayEquals(want, got, "round " + round + " (seed=0x" + Long.toHexString(seed) + ")");
    }
  }

  @Test
  void refusesAReportBudgetStrategyWithoutAReleaseEpsilon() {
    Prio3Variant v = new Prio3Variant.Histogram(4, 2);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Prio3DpMechanism.of(v, new DpStrategy.ReportBudgetDiscreteLaplace()));
    assertTrue(e.getMessage().contains("forRelease"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Prio3DpMechanism.of(v,
        DpStrategy.ReportBudgetDiscreteGaussian.parse("1/1000000000")));
    Prio3DpMechanism m = Prio3DpMechanism.of(v,
        new DpStrategy.ReportBudgetDiscreteLaplace().forRelease(Rational.of(1, 2)));
    assertEquals("discrete Laplace with scale 4", m.describeNoise()); // L1 2 / (1/2)
  }
}
