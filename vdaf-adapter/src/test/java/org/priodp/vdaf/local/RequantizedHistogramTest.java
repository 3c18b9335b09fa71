package org.priodp.vdaf.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.priodp.field.FieldVector;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.requantization.DistributionFamily;
import org.priodp.noise.compress.requantization.LloydMaxQuantizer;
import org.priodp.noise.compress.requantization.RequantizationChannel;
import org.priodp.noise.compress.requantization.RequantizationDesigner;
import org.priodp.noise.compress.requantization.RequantizationEstimator;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/** End to end through Prio3Histogram with two aggregators: requantize, shard, aggregate, unshard, estimate. */
class RequantizedHistogramTest {
  private static final byte[] CTX = "requantization test".getBytes(StandardCharsets.US_ASCII);

  private static RequantizationChannel channel(int bitsOut, double delta) {
    var density = LloydMaxQuantizer.gaussianDensity(10, 2);
    LloydMaxQuantizer in = LloydMaxQuantizer.fromDensity(density, -14, 34, 16);
    LloydMaxQuantizer out = LloydMaxQuantizer.fromDensity(density, -14, 34, 1 << bitsOut);
    DistributionFamily fam = DistributionFamily.gaussianGrid(in, 8, 12, 1, 3, 0.5);
    return RequantizationDesigner.of(in, out, fam).design(delta).channel();
  }

  @Test
  void meanOfReadingsIsRecoveredThroughPrio3() {
    RequantizedHistogram rh = new RequantizedHistogram(channel(4, 0.25), 4);
    assertEquals(new Prio3Variant.Histogram(16, 4), rh.variant());
    SeededRandomSource rnd = SeededRandomSource.fromHex("7265717561");
    System.out.println("seed " + rnd.seedHex());
    Random data = new Random(17);
    SecureRandom shardRandom = new SecureRandom();
    Prio3 prio3 = new Prio3(rh.variant());
    byte[] verifyKey = new byte[Prio3.VERIFY_KEY_SIZE];
    List<List<FieldVector>> outShares = List.of(new ArrayList<>(), new ArrayList<>());
    int n = 200;
    double truth = 0;
    for (int u = 0; u < n; u++) {
      double reading = 10 + 2 * data.nextGaussian();
      truth += rh.channel().input().quantize(reading);
      byte[] nonce = new byte[Prio3.NONCE_SIZE];
      shardRandom.nextBytes(nonce);
      Prio3.ShardResult s = rh.shard(prio3, CTX, reading, nonce, rnd, shardRandom);
      List<Prio3.VerifyState> states = new ArrayList<>();
      List<Prio3.VerifierShare> shares = new ArrayList<>();
      for (int a = 0; a < 2; a++) {
        Prio3.VerifyInitResult init = prio3.verifyInit(verifyKey, CTX, a, nonce, s.publicShare(), s.inputShares().get(a));
        states.add(init.state());
        shares.add(init.verifierShare());
      }
      Prio3.VerifierMessage msg = prio3.verifierSharesToMessage(CTX, shares);
      for (int a = 0; a < 2; a++) {
        outShares.get(a).add(prio3.verifyNext(states.get(a), msg));
      }
    }
    truth /= n;
    List<FieldVector> aggShares = List.of(prio3.aggregate(outShares.get(0)), prio3.aggregate(outShares.get(1)));
    List<BigInteger> unsharded = prio3.unshard(aggShares, n);
    double total = 0;
    for (double c : rh.counts(unsharded)) {
      total += c;
    }
    assertEquals(n, total);
    RequantizationEstimator.Estimate m = rh.estimateMean(unsharded, n, 0);
    System.out.printf("truth %.4f, estimate %.4f ± %.4f%n", truth, m.value(), m.standardDeviation());
    assertTrue(Math.abs(m.value() - truth) < 5 * m.standardDeviation() + m.biasBound(), m + " vs " + truth);
    RequantizationEstimator.Estimate[] dist = rh.estimateDistribution(unsharded, n, 0);
    double s = 0;
    for (RequantizationEstimator.Estimate e : dist) {
      s += e.value();
    }
    assertEquals(1.0, s, 1e-9);
  }

  @Test
  void rejectsWrongVariantAndMalformedAggregates() {
    RequantizedHistogram rh = new RequantizedHistogram(channel(2, 4.0), 2);
    assertEquals(new Prio3Variant.Histogram(4, 2), rh.variant());
    Prio3 count = new Prio3(new Prio3Variant.Count());
    assertThrows(IllegalArgumentException.class,
        () -> rh.shard(count, CTX, 10.0, new byte[16], SeededRandomSource.fromHex("01"), new SecureRandom()));
    assertThrows(IllegalArgumentException.class, () -> rh.counts(List.of(BigInteger.ONE)));
    assertThrows(IllegalArgumentException.class,
        () -> rh.counts(List.of(BigInteger.ONE, BigInteger.ONE, BigInteger.ONE, BigInteger.ONE.negate())));
    assertThrows(IllegalArgumentException.class, () -> rh.estimateDistribution(
        List.of(BigInteger.ONE, BigInteger.ONE, BigInteger.ONE, BigInteger.ONE), 4, 0));
    assertThrows(IllegalArgumentException.class, () -> new RequantizedHistogram(channel(2, 4.0), 0));
    int idx = rh.randomize(10.0, SeededRandomSource.fromHex("02")).get(0).intValueExact();
    assertTrue(idx >= 0 && idx < 4);
  }
}
