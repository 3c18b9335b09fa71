package org.priodp.vdaf;

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

/**
 * The collector: noised end-to-end aggregates, interval coverage, post-processing and bad
 * input. The unshard of every official Prio3 vector is checked in the conformance module
 * (CollectorVectorTest).
 */
class CollectorTest {

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
    CollectorResult r = Collector.of(m).unshard(List.of(leader, helper), 21);
    NoiseSampler s = m.sampler().orElseThrow();
    RandomSource a = SeededRandomSource.fromHex("aa");
    RandomSource b = SeededRandomSource.fromHex("bb");
    boolean negative = false;
    for (int i = 0; i < truth.length; i++) {
      long expected = truth[i] + s.sample(a) + s.sample(b);
      negative |= expected < 0;
      assertEquals(BigInteger.valueOf(expected), r.estimates().get(i), "coordinate " + i);
      assertEquals(r.estimates().get(i).subtract(BigInteger.valueOf(r.halfWidth())), r.lower(i));
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
      Collector c = Collector.of(m);
      SplittableRandom masks = new SplittableRandom(seed);
      RandomSource rnd = SeededRandomSource.fromHex(Long.toHexString(seed));
      int runs = 3000;
      long covered = 0;
      for (int run = 0; run < runs; run++) {
        List<FieldVector> shares = secretShare(Field128.FIELD, truth, masks);
        CollectorResult r = c.unshardVectors(List.of(
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
          m.noiseHalfWidth(2, Collector.DEFAULT_CONFIDENCE));
      assertTrue(coverage >= 0.95 - 4 * Math.sqrt(0.95 * 0.05 / n), strategy.describe() + " coverage " + coverage);
    }
  }

  @Test
  void postProcessingIsReportedApart() {
    Prio3Variant.Histogram h = new Prio3Variant.Histogram(4, 2);
    Prio3DpMechanism m = Prio3DpMechanism.of(h, DpStrategy.PureDpDiscreteLaplace.parse("1"));
    List<FieldVector> shares = List.of(FieldVector.fromSigned(Field128.FIELD, -3, 6, 2, 25));
    CollectorResult none = Collector.of(m).unshardVectors(shares, 10);
    assertEquals(bigs(-3, 6, 2, 25), none.estimates());
    CollectorResult clamp = Collector.of(m).withPostProcessing(PostProcessing.CLAMP).unshardVectors(shares, 10);
    assertEquals(bigs(-3, 6, 2, 25), clamp.estimates(), "estimates stay as they are");
    assertEquals(bigs(0, 6, 2, 10), clamp.postProcessed());
    CollectorResult round = Collector.of(m).withPostProcessing(PostProcessing.ROUND_HISTOGRAM_TO_COUNT)
        .unshardVectors(shares, 10);
    // clamp to [0, 10]: 0 6 2 10 (sum 18); x 10/18: 0, 3.33, 1.11, 5.56 -> 0 3 1 5 + 1 to the largest remainder (5.56)
    assertEquals(bigs(0, 3, 1, 6), round.postProcessed());
    assertEquals(PostProcessing.ROUND_HISTOGRAM_TO_COUNT, round.postProcessing());

    Prio3DpMechanism sum = Prio3DpMechanism.of(new Prio3Variant.Sum(BigInteger.valueOf(7)), DpStrategy.PureDpDiscreteLaplace.parse("1"));
    CollectorResult s = Collector.of(sum).withPostProcessing(PostProcessing.CLAMP)
        .unshardVectors(List.of(FieldVector.fromSigned(org.priodp.field.Field64.FIELD, 40)), 5);
    assertEquals(bigs(35), s.postProcessed(), "Sum clamps to 5 * 7");
    assertThrows(IllegalArgumentException.class,
        () -> Collector.of(sum).withPostProcessing(PostProcessing.ROUND_HISTOGRAM_TO_COUNT));
  }

  @Test
  void roundToCountHandCases() {
    assertEquals(bigs(1, 1, 1, 0), Collector.roundToCount(bigs(0, 0, 0, 0), BigInteger.valueOf(3)));
    assertEquals(bigs(2, 1, 1), Collector.roundToCount(bigs(1, 1, 1), BigInteger.valueOf(4)));
    assertEquals(bigs(0, 7), Collector.roundToCount(bigs(0, 3), BigInteger.valueOf(7)));
    assertEquals(bigs(0, 0), Collector.roundToCount(bigs(4, 9), BigInteger.ZERO));
    assertEquals(PostProcessing.CLAMP, PostProcessing.parse("clamp"));
    assertThrows(IllegalArgumentException.class, () -> PostProcessing.parse("nope"));
  }

  @Test
  void badInputIsRefusedWithClearMessages() {
    Prio3DpMechanism m = Prio3DpMechanism.of(new Prio3Variant.Histogram(4, 2), DpStrategy.PureDpDiscreteLaplace.parse("1"));
    Collector c = Collector.of(m);
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
