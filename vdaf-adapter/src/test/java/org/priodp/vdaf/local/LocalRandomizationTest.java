package org.priodp.vdaf.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.priodp.field.FieldVector;
import org.priodp.noise.Accuracy;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.local.KaryRandomizedResponse;
import org.priodp.noise.local.LocalEstimator;
import org.priodp.noise.local.RandomizedResponse;
import org.priodp.noise.local.SymmetricRappor;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/**
 * End to end through Prio3 with two aggregators: clients randomize and shard, the aggregators
 * verify and aggregate (optionally adding central discrete Laplace noise to their aggregate
 * shares), the collector unshards and debiases. With fixed seeds every debiased count must lie
 * within 5 standard deviations (as stated by the estimator) of the true count.
 */
class LocalRandomizationTest {
  private static final byte[] CTX = "local dp test".getBytes(StandardCharsets.US_ASCII);

  /** Runs n clients with true values truth(i) through Prio3; adds central noise of the given scale if not null. */
  private static List<LocalEstimator.Debiased> run(LocalRandomization lr, int[] truth, DiscreteLaplace central,
      String seedHex) {
    SeededRandomSource rnd = SeededRandomSource.fromHex(seedHex);
    System.out.println(lr.variant() + ": seed " + rnd.seedHex());
    SecureRandom shardRandom = new SecureRandom();
    Prio3 prio3 = new Prio3(lr.variant());
    byte[] verifyKey = new byte[Prio3.VERIFY_KEY_SIZE];
    List<List<FieldVector>> outShares = List.of(new ArrayList<>(), new ArrayList<>());
    for (int t : truth) {
      byte[] nonce = new byte[Prio3.NONCE_SIZE];
      shardRandom.nextBytes(nonce);
      Prio3.ShardResult s = lr.shard(prio3, CTX, List.of(BigInteger.valueOf(t)), nonce, rnd, shardRandom);
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
    List<FieldVector> aggShares = new ArrayList<>();
    for (int a = 0; a < 2; a++) {
      FieldVector agg = prio3.aggregate(outShares.get(a));
      if (central != null) {
        long[] z = new long[agg.length()];
        central.fill(z, rnd);
        agg = agg.add(FieldVector.fromSigned(prio3.field(), z));
      }
      aggShares.add(agg);
    }
    double v = central == null ? 0 : 2 * Accuracy.laplaceVariance(central.scale());
    return lr.debias(prio3.unshard(aggShares, truth.length), truth.length, v);
  }

  private static void assertNear(List<LocalEstimator.Debiased> est, long[] trueCounts) {
    assertEquals(trueCounts.length, est.size());
    for (int j = 0; j < trueCounts.length; j++) {
      LocalEstimator.Debiased d = est.get(j);
      System.out.printf("  coordinate %d: true %d, estimate %.1f ± %.1f%n", j, trueCounts[j], d.count(),
          d.standardDeviation());
      assertTrue(Math.abs(d.count() - trueCounts[j]) <= 5 * d.standardDeviation(),
          "coordinate " + j + ": " + d + " vs " + trueCounts[j]);
    }
  }

  private static long[] histogram(int[] truth, int k) {
    long[] c = new long[k];
    for (int t : truth) {
      c[t]++;
    }
    return c;
  }

  @Test
  void countWithRandomizedResponse() {
    int[] truth = new int[300];
    for (int i = 0; i < 90; i++) {
      truth[i] = 1;
    }
    LocalRandomization lr = new LocalRandomization.CountRr(RandomizedResponse.ofEpsilon(Rational.ONE));
    assertNear(run(lr, truth, null, "c0"), new long[] {90});
  }

  @Test
  void histogramWithKaryResponseAndCentralNoise() {
    int[] truth = new int[200];
    for (int i = 0; i < truth.length; i++) {
      truth[i] = i < 120 ? 0 : i % 4;
    }
    LocalRandomization lr = new LocalRandomization.HistogramKrr(new KaryRandomizedResponse(4, Rational.of(2)), 2);
    assertNear(run(lr, truth, null, "c1"), histogram(truth, 4));
    assertNear(run(lr, truth, DiscreteLaplace.of(Rational.of(10)), "c2"), histogram(truth, 4));
  }

  @Test
  void multihotCountVecWithTruncatedRappor() {
    int[] truth = new int[150];
    for (int i = 0; i < truth.length; i++) {
      truth[i] = i % 3 == 0 ? 5 : i % 8;
    }
    SymmetricRappor rappor = new SymmetricRappor(8, Rational.of(3), 3);
    LocalRandomization lr = new LocalRandomization.MultihotRappor(rappor, 3);
    assertEquals(new Prio3Variant.MultihotCountVec(8, 3, 3), lr.variant());
    assertNear(run(lr, truth, DiscreteLaplace.of(Rational.of(2)), "c3"), histogram(truth, 8));
  }

  @Test
  void rejectsMalformedMeasurementsAndTheWrongPrio3() {
    LocalRandomization lr = new LocalRandomization.HistogramKrr(new KaryRandomizedResponse(4, Rational.ONE), 2);
    SeededRandomSource rnd = SeededRandomSource.fromHex("00");
    assertThrows(IllegalArgumentException.class, () -> lr.randomize(List.of(BigInteger.valueOf(4)), rnd));
    assertThrows(IllegalArgumentException.class, () -> lr.randomize(List.of(BigInteger.ONE, BigInteger.ONE), rnd));
    Prio3 count = new Prio3(new Prio3Variant.Count());
    assertThrows(IllegalArgumentException.class,
        () -> lr.shard(count, CTX, List.of(BigInteger.ONE), new byte[16], rnd, new SecureRandom()));
    assertThrows(IllegalArgumentException.class, () -> lr.debias(List.of(BigInteger.ONE), 10, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new LocalRandomization.MultihotRappor(new SymmetricRappor(4, Rational.ONE, 2), 99));
  }
}
