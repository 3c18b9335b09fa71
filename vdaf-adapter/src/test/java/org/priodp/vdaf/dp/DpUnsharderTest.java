package org.priodp.vdaf.dp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.field.DecodeException;
import org.priodp.field.Field128;
import org.priodp.field.FieldVector;
import org.priodp.field.PrimeField;
import org.priodp.noise.Accuracy;
import org.priodp.noise.NoiseSampler;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.vdaf.Prio3Variant;

/**
 * The collector: noised end-to-end aggregates, interval coverage, post-processing and bad
 * input. The unshard of every official Prio3 vector is checked in the conformance module
 * (CollectorVectorTest).
 */
class DpUnsharderTest {

  /** Secret-shares a vector of integers: a random share and the difference. */
  static List<FieldVector> secretShare(PrimeField f, long[] truth, SplittableRandom rnd) {
    FieldVector mask = Prio3DpMechanismTest.randomShare(f, truth.length, rnd);
    return List.of(mask, FieldVector.fromSigned(f, truth).sub(mask));
  }

  @Test
  void noisedAggregateIsTruthPlusBothAggregatorsNoise() {
    long seed = 0xc011ec7L;
    System.out.println("seed " + Long.toHexString(seed));
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(6, 2);
    Prio3DpMechanism m = Prio3DpMechanism.of(h, DpStrategy.PureDpDiscreteLaplace.parse("1/2"));
    long[] truth = {10, 0, 3, 0, 7, 1};
    List<FieldVector> shares = secretShare(Field128.FIELD, truth, new SplittableRandom(seed));
    byte[] leader = m.addNoiseToAggShare(shares.get(0).encode(), SeededRandomSource.fromHex("aa"));
    byte[] helper = m.addNoiseToAggShare(shares.get(1).encode(), SeededRandomSource.fromHex("bb"));
    UnshardResult r = DpUnsharder.of(m).unshard(List.of(leader, helper), 21);
    NoiseSampler s = m.sampler().orElseThrow();
    RandomSource a = SeededRandomSource.fromHex("aa");
    RandomSource b = SeededRandomSource.fromHex("bb");
    boolean negative = false;
    for (int i = 0; i < truth.length; i++) {
      long expected = truth[i] + s.sample(a) + s.sample(b);
      negative |= expected < 0;
      assertEquals(BigInteger.valueOf(expected), r.estimates().get(i), "coordinate " + i);
      assertEquals(r.estimates().get(i).subtract(r.halfWidth()), r.lower(i));
    }
    assertTrue(negative, "seed chosen so that a noised count is negative");
    assertEquals(Accuracy.laplaceHalfWidth(Rational.of(4), 2, 0.95), r.halfWidth());
    assertEquals(2, r.noisedShares());
    assertTrue(r.noiseNote().contains("the sum of 2 independent noise draws, one per aggregator"), r.noiseNote());
    assertTrue(r.postProcessed().isEmpty());
    assertEquals(PostProcessing.NONE, r.postProcessing());
  }

  /**
   * The 95% intervals cover the truth at least 95% of the time (minus 4 standard errors) over
   * 3000 two-aggregator runs of a 10-bucket histogram, for both strategies.
   */
  @Test
  void intervalsCoverTheTruth() {
    long seed = 0xc0fe40L;
    System.out.println("seed " + Long.toHexString(seed));
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(10, 3);
    long[] truth = {5, 0, 0, 100, 2, 0, 0, 0, 9, 1};
    for (DpStrategy strategy : new DpStrategy[] {
        DpStrategy.PureDpDiscreteLaplace.parse("0.5"), DpStrategy.ZCdpDiscreteGaussian.parse("0.05")}) {
      Prio3DpMechanism m = Prio3DpMechanism.of(h, strategy);
      DpUnsharder c = DpUnsharder.of(m);
      SplittableRandom masks = new SplittableRandom(seed);
      RandomSource rnd = SeededRandomSource.fromHex(Long.toHexString(seed));
      int runs = 3000;
      long covered = 0;
      for (int run = 0; run < runs; run++) {
        List<FieldVector> shares = secretShare(Field128.FIELD, truth, masks);
        UnshardResult r = c.unshardVectors(List.of(
            m.addNoiseToAggShare(shares.get(0), rnd), m.addNoiseToAggShare(shares.get(1), rnd)), 117);
        for (int i = 0; i < truth.length; i++) {
          BigInteger t = BigInteger.valueOf(truth[i]);
          if (r.lower(i).compareTo(t) <= 0 && t.compareTo(r.upper(i)) <= 0) {
            covered++;
          }
        }
      }
      double n = runs * truth.length;
      double coverage = covered / n;
      System.out.printf("%s: coverage %.4f, half-width %d%n", strategy.describe(), coverage,
          m.noiseHalfWidth(2, DpUnsharder.DEFAULT_CONFIDENCE));
      assertTrue(coverage >= 0.95 - 4 * Math.sqrt(0.95 * 0.05 / n), strategy.describe() + " coverage " + coverage);
    }
  }

  /**
   * Issue 14: Prio3Sum(max_measurement = 2^40) with 2^23 clients who all send the maximum: the
   * true sum 2^63 is below p but above (p - 1)/2, so the symmetric signed lift decoded it near
   * -9.22e18 and the interval excluded the truth. The lift to the valid range decodes it.
   */
  @Test
  void sumOfTwoToThe63DecodesToTheTruth() {
    long seed = 0x263L;
    System.out.println("seed " + Long.toHexString(seed));
    Prio3Variant.Sum sum = new Prio3Variant.Sum(BigInteger.ONE.shiftLeft(40));
    Prio3DpMechanism m = Prio3DpMechanism.of(sum, DpStrategy.PureDpDiscreteLaplace.parse("1"));
    long reports = 1L << 23;
    BigInteger truth = BigInteger.ONE.shiftLeft(63);
    PrimeField f = sum.field();
    FieldVector mask = Prio3DpMechanismTest.randomShare(f, 1, new SplittableRandom(seed));
    FieldVector other = FieldVector.of(f, truth).sub(mask);
    String hexA = Long.toHexString(seed) + "a";
    String hexB = Long.toHexString(seed) + "b";
    byte[] leader = m.addNoiseToAggShare(mask.encode(), SeededRandomSource.fromHex(hexA));
    byte[] helper = m.addNoiseToAggShare(other.encode(), SeededRandomSource.fromHex(hexB));
    UnshardResult r = DpUnsharder.of(m).unshard(List.of(leader, helper), reports);

    NoiseSampler s = m.sampler().orElseThrow();
    BigInteger noise = s.sampleBig(SeededRandomSource.fromHex(hexA)).add(s.sampleBig(SeededRandomSource.fromHex(hexB)));
    BigInteger estimate = r.estimates().get(0);
    System.out.printf("true sum %s, noise %s, estimate %s, 95%% interval [%s, %s]; symmetric lift would give %s%n",
        truth, noise, estimate, r.lower(0), r.upper(0), FieldVector.of(f, r.fieldValues().get(0)).getSigned(0));
    assertEquals(truth.add(noise), estimate);
    assertTrue(r.lower(0).compareTo(truth) <= 0 && truth.compareTo(r.upper(0)) <= 0, "the interval holds 2^63");
    assertTrue(FieldVector.of(f, r.fieldValues().get(0)).getSigned(0).signum() < 0,
        "the symmetric lift is what failed here");
  }

  /**
   * A Laplace scale of 2^71 (a histogram at epsilon 2^-70) gives intervals wider than the long
   * range; Field128 still holds them, so the collector decodes and reports them without overflow.
   */
  @Test
  void hugeScaleIntervalsDoNotOverflow() {
    long seed = 0x2e71L;
    System.out.println("seed " + Long.toHexString(seed));
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(4, 2);
    Prio3DpMechanism m = Prio3DpMechanism.of(h,
        DpStrategy.PureDpDiscreteLaplace.parse("1/" + BigInteger.ONE.shiftLeft(70)));
    long[] truth = {3, 0, 1, 6};
    List<FieldVector> shares = secretShare(Field128.FIELD, truth, new SplittableRandom(seed));
    RandomSource a = SeededRandomSource.fromHex(Long.toHexString(seed) + "0a");
    RandomSource b = SeededRandomSource.fromHex(Long.toHexString(seed) + "0b");
    UnshardResult r = DpUnsharder.of(m).unshardVectors(
        List.of(m.addNoiseToAggShare(shares.get(0), a), m.addNoiseToAggShare(shares.get(1), b)), 10);
    assertTrue(r.halfWidth().bitLength() > 63, "half-width " + r.halfWidth());
    NoiseSampler s = m.sampler().orElseThrow();
    RandomSource a2 = SeededRandomSource.fromHex(Long.toHexString(seed) + "0a");
    RandomSource b2 = SeededRandomSource.fromHex(Long.toHexString(seed) + "0b");
    BigInteger[] za = new BigInteger[truth.length];
    for (int i = 0; i < truth.length; i++) {
      za[i] = s.sampleBig(a2);
    }
    for (int i = 0; i < truth.length; i++) {
      assertEquals(BigInteger.valueOf(truth[i]).add(za[i]).add(s.sampleBig(b2)), r.estimates().get(i), "coordinate " + i);
      assertEquals(r.estimates().get(i).add(r.halfWidth()), r.upper(i));
    }
    System.out.printf("scale 2^71: 95%% half-width %s (%d bits), estimates %s%n", r.halfWidth(),
        r.halfWidth().bitLength(), r.estimates());
  }

  /** The lift picks the representative inside the range, else the nearer one (the lower on a tie). */
  @Test
  void liftNearestHandCases() {
    BigInteger p = BigInteger.valueOf(101);
    BigInteger lo = BigInteger.valueOf(-10);
    BigInteger hi = BigInteger.valueOf(60); // 71 integers; the other 30 residues lie in (60, 91)
    assertEquals(BigInteger.valueOf(60), DpUnsharder.liftNearest(BigInteger.valueOf(60), lo, hi, p));
    assertEquals(BigInteger.valueOf(-10), DpUnsharder.liftNearest(BigInteger.valueOf(91), lo, hi, p));
    assertEquals(BigInteger.valueOf(-1), DpUnsharder.liftNearest(BigInteger.valueOf(100), lo, hi, p));
    assertEquals(BigInteger.valueOf(75), DpUnsharder.liftNearest(BigInteger.valueOf(75), lo, hi, p), "15 above, 16 below");
    assertEquals(BigInteger.valueOf(-25), DpUnsharder.liftNearest(BigInteger.valueOf(76), lo, hi, p), "16 above, 15 below");
    assertEquals(BigInteger.valueOf(-26), DpUnsharder.liftNearest(BigInteger.valueOf(75), lo, BigInteger.valueOf(59), p),
        "16 above and 16 below: the lower");
    assertEquals(BigInteger.valueOf(0), DpUnsharder.liftNearest(BigInteger.ZERO, lo, hi, p));
  }

  /**
   * A range [-h, n * max + h] of more than p integers is refused with a message naming the VDAF,
   * the count and p; one of exactly p integers is accepted and decodes both of its ends.
   */
  @Test
  void aRangeOfMoreThanPIntegersIsRefused() {
    // epsilon 2^30: scale 2^32, so h (about 2^37) is small next to 4 * 2^62 = 2^64 > p
    Prio3DpMechanism huge = Prio3DpMechanism.of(new Prio3Variant.Sum(BigInteger.ONE.shiftLeft(62)),
        DpStrategy.PureDpDiscreteLaplace.parse("1073741824"));
    FieldVector zero = FieldVector.zeros(org.priodp.field.Field64.FIELD, 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DpUnsharder.of(huge).unshardVectors(List.of(zero, zero), 4));
    System.out.println("refusal: " + e.getMessage());
    assertTrue(e.getMessage().startsWith("Prio3Sum(max_measurement=4611686018427387904) with 4 reports"), e.getMessage());
    assertTrue(e.getMessage().contains("spans >= p = 18446744069414584321; Field64 cannot represent it unambiguously"),
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DpUnsharder.of(huge).checkDecodable(2, 4));
    DpUnsharder.of(huge).checkDecodable(2, 3);
    // with epsilon 1 the scale is 2^62 and the noise alone outgrows Field64: even 0 reports are refused
    DpUnsharder wide = DpUnsharder.of(Prio3DpMechanism.of(new Prio3Variant.Sum(BigInteger.ONE.shiftLeft(62)),
        DpStrategy.PureDpDiscreteLaplace.parse("1")));
    assertThrows(IllegalArgumentException.class, () -> wide.checkDecodable(2, 0));

    // the figures docs/PRIVACY.md quotes: Sum(2^40) at epsilon 1 decodes up to 16,777,154 reports;
    // a Field64 VDAF with Laplace scale 2^59 cannot be decoded at all, one with 2^58 can
    DpUnsharder sum40 = DpUnsharder.of(Prio3DpMechanism.of(new Prio3Variant.Sum(BigInteger.ONE.shiftLeft(40)),
        DpStrategy.PureDpDiscreteLaplace.parse("1")));
    sum40.checkDecodable(2, 16_777_154);
    assertThrows(IllegalArgumentException.class, () -> sum40.checkDecodable(2, 16_777_155));
    DpUnsharder.of(Prio3DpMechanism.of(new Prio3Variant.Count(),
        DpStrategy.PureDpDiscreteLaplace.parse("1/" + BigInteger.ONE.shiftLeft(58)))).checkDecodable(2, 0);
    assertThrows(IllegalArgumentException.class, () -> DpUnsharder.of(Prio3DpMechanism.of(new Prio3Variant.Count(),
        DpStrategy.PureDpDiscreteLaplace.parse("1/" + BigInteger.ONE.shiftLeft(59)))).checkDecodable(2, 0));

    // at the threshold: Count with scale 1.6e17, so that 2h is about 2^63 and n = p - 1 - 2h fits a long
    BigInteger p = org.priodp.field.Field64.FIELD.modulus();
    Prio3DpMechanism count = Prio3DpMechanism.of(new Prio3Variant.Count(),
        DpStrategy.PureDpDiscreteLaplace.parse("1/160000000000000000"));
    BigInteger h = count.noiseHalfWidthBig(2, 1 - DpUnsharder.LIFT_FAILURE_PROBABILITY);
    long n = p.subtract(BigInteger.ONE).subtract(h.shiftLeft(1)).longValueExact();
    System.out.printf("Count at scale 1.6e17: h = %s, the largest decodable report count is %d%n", h, n);
    DpUnsharder c = DpUnsharder.of(count);
    c.checkDecodable(2, n); // hi - lo = n + 2h = p - 1: p integers, each residue once
    IllegalArgumentException over = assertThrows(IllegalArgumentException.class, () -> c.checkDecodable(2, n + 1));
    assertTrue(over.getMessage().startsWith("Prio3Count with " + (n + 1) + " reports"), over.getMessage());
    BigInteger hi = BigInteger.valueOf(n).add(h);
    for (BigInteger end : new BigInteger[] {h.negate(), hi, BigInteger.ZERO, BigInteger.valueOf(n)}) {
      FieldVector agg = FieldVector.of(org.priodp.field.Field64.FIELD, end.mod(p));
      assertEquals(end, c.unshardVectors(List.of(agg), n).estimates().get(0), "decodes " + end);
    }
    // a noise beyond h by one lands on the other end of the range: the 2^-40 failure event
    FieldVector beyond = FieldVector.of(org.priodp.field.Field64.FIELD, hi.add(BigInteger.ONE).mod(p));
    assertEquals(h.negate(), c.unshardVectors(List.of(beyond), n).estimates().get(0));
  }

  @Test
  void postProcessingIsReportedApart() {
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(4, 2);
    Prio3DpMechanism m = Prio3DpMechanism.of(h, DpStrategy.PureDpDiscreteLaplace.parse("1"));
    List<FieldVector> shares = List.of(FieldVector.fromSigned(Field128.FIELD, -3, 6, 2, 25));
    UnshardResult none = DpUnsharder.of(m).unshardVectors(shares, 10);
    assertEquals(bigs(-3, 6, 2, 25), none.estimates());
    UnshardResult clamp = DpUnsharder.of(m).withPostProcessing(PostProcessing.CLAMP).unshardVectors(shares, 10);
    assertEquals(bigs(-3, 6, 2, 25), clamp.estimates(), "estimates stay as they are");
    assertEquals(bigs(0, 6, 2, 10), clamp.postProcessed());
    UnshardResult round = DpUnsharder.of(m).withPostProcessing(PostProcessing.ROUND_HISTOGRAM_TO_COUNT)
        .unshardVectors(shares, 10);
    // clamp to [0, 10]: 0 6 2 10 (sum 18); x 10/18: 0, 3.33, 1.11, 5.56 -> 0 3 1 5 + 1 to the largest remainder (5.56)
    assertEquals(bigs(0, 3, 1, 6), round.postProcessed());
    assertEquals(PostProcessing.ROUND_HISTOGRAM_TO_COUNT, round.postProcessing());

    Prio3DpMechanism sum = Prio3DpMechanism.of(new Prio3Variant.Sum(BigInteger.valueOf(7)), DpStrategy.PureDpDiscreteLaplace.parse("1"));
    UnshardResult s = DpUnsharder.of(sum).withPostProcessing(PostProcessing.CLAMP)
        .unshardVectors(List.of(FieldVector.fromSigned(org.priodp.field.Field64.FIELD, 40)), 5);
    assertEquals(bigs(35), s.postProcessed(), "Sum clamps to 5 * 7");
    assertThrows(IllegalArgumentException.class,
        () -> DpUnsharder.of(sum).withPostProcessing(PostProcessing.ROUND_HISTOGRAM_TO_COUNT));
  }

  @Test
  void roundToCountHandCases() {
    assertEquals(bigs(1, 1, 1, 0), DpUnsharder.roundToCount(bigs(0, 0, 0, 0), BigInteger.valueOf(3)));
    assertEquals(bigs(2, 1, 1), DpUnsharder.roundToCount(bigs(1, 1, 1), BigInteger.valueOf(4)));
    assertEquals(bigs(0, 7), DpUnsharder.roundToCount(bigs(0, 3), BigInteger.valueOf(7)));
    assertEquals(bigs(0, 0), DpUnsharder.roundToCount(bigs(4, 9), BigInteger.ZERO));
    assertEquals(PostProcessing.CLAMP, PostProcessing.parse("clamp"));
    assertThrows(IllegalArgumentException.class, () -> PostProcessing.parse("nope"));
  }

  @Test
  void badInputIsRefusedWithClearMessages() {
    Prio3DpMechanism m = Prio3DpMechanism.of(new Prio3Variant.Histogram(4, 2), DpStrategy.PureDpDiscreteLaplace.parse("1"));
    DpUnsharder c = DpUnsharder.of(m);
    byte[] good = FieldVector.zeros(Field128.FIELD, 4).encode();
    DecodeException len = assertThrows(DecodeException.class, () -> c.unshard(List.of(good, new byte[63]), 1));
    assertTrue(len.getMessage().startsWith("aggregate share 2 of 2 (Prio3Histogram, 4 Field128 elements)"), len.getMessage());
    byte[] big = good.clone();
    java.util.Arrays.fill(big, 0, 16, (byte) 0xff);
    DecodeException canon = assertThrows(DecodeException.class, () -> c.unshard(List.of(big, good), 1));
    assertTrue(canon.getMessage().contains("share 1") && canon.getMessage().contains("element 0"), canon.getMessage());
    assertThrows(IllegalArgumentException.class, () -> c.unshard(List.of(), 1));
    assertThrows(IllegalArgumentException.class, () -> c.unshard(List.of(good), -1));
    assertThrows(IllegalArgumentException.class, () -> c.withConfidence(1.0));
    assertThrows(IllegalArgumentException.class,
        () -> c.unshardVectors(List.of(FieldVector.zeros(org.priodp.field.Field64.FIELD, 4)), 1));
  }

  private static List<BigInteger> bigs(long... v) {
    List<BigInteger> out = new ArrayList<>();
    for (long x : v) {
      out.add(BigInteger.valueOf(x));
    }
    return out;
  }
}
