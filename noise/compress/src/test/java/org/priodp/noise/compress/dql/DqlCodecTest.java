package org.priodp.noise.compress.dql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.BitWriter;
import org.priodp.noise.compress.EliasCode;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.internal.Uniforms;

class DqlCodecTest {

  private static RandomSource seeded(long seed) {
    return RandomSource.seeded(ByteBuffer.allocate(8).putLong(seed).array());
  }

  /** Kolmogorov-Smirnov p-value of sorted samples against the Laplace(0, 1/epsilon) cdf. */
  static double ksLaplace(double[] sorted, double epsilon) {
    int n = sorted.length;
    double d = 0;
    for (int i = 0; i < n; i++) {
      double z = sorted[i];
      double f = z < 0 ? 0.5 * Math.exp(epsilon * z) : 1 - 0.5 * Math.exp(-epsilon * z);
      d = Math.max(d, Math.max(f - (double) i / n, (double) (i + 1) / n - f));
    }
    double sn = Math.sqrt(n);
    double lambda = (sn + 0.12 + 0.11 / sn) * d;
    double q = 0;
    for (int k = 1; k < 100; k++) {
      q += 2 * (k % 2 == 1 ? 1 : -1) * Math.exp(-2.0 * k * k * lambda * lambda);
    }
    return Math.max(0, Math.min(1, q));
  }

  /** Errors X-hat - x of n encode/decode round trips through the scalar API. */
  private static double[] errors(DqlCodec codec, double x, int n, long seed) {
    RandomSource shared = seeded(seed);
    RandomSource decoderShared = seeded(seed);
    RandomSource local = seeded(~seed);
    double[] e = new double[n];
    for (int i = 0; i < n; i++) {
      e[i] = codec.decode(codec.encode(x, shared, local), decoderShared) - x;
    }
    return e;
  }

  @ParameterizedTest
  @CsvSource({"1, 2, 0.3, 101", "1, 1.05, -0.77, 102", "3, 5, 40, 103", "0.5, 20, 2000, 104", "2, 10, -100, 105"})
  void theErrorIsLaplaceOneOverEpsilon(double epsilon, double ell, double x, long seed) {
    System.out.println("theErrorIsLaplaceOneOverEpsilon: seed=" + seed);
    DqlCodec codec = DqlCodec.of(DqlParameters.of(epsilon, ell), EliasCode.DELTA);
    double[] e = errors(codec, x, 1_000_000, seed);
    Arrays.sort(e);
    double p = ksLaplace(e, epsilon);
    System.out.printf("KS eps %s ell %s x %s: p = %.4f%n", epsilon, ell, x, p);
    assertTrue(p > 1e-3, "KS p-value " + p);
  }

  @Test
  void aWrongMixtureWeightFailsTheKsTest() {
    // negative control: the same pipeline with the odd-vertex weight of every level cut by 20%
    DqlParameters params = DqlParameters.of(1, 2);
    DqlCodec codec = DqlCodec.of(params, EliasCode.DELTA);
    DqlMixture m = codec.mixture();
    RandomSource shared = seeded(5);
    RandomSource local = seeded(6);
    double x = 0.3;
    double[] e = new double[1_000_000];
    for (int i = 0; i < e.length; i++) {
      int t = m.sampleLevel(shared);
      double u = Uniforms.centered(shared);
      DqlLevel good = m.level(t);
      DqlLevel bad = new DqlLevel(t, good.delta(), good.q(), good.oneMinusQ2(), good.evenPositive(), good.evenNegative(), 0.8 * good.odd());
      long msg = codec.encodeAt(bad, params.epsilon() * x, u, local);
      e[i] = good.delta() * (msg + u) / params.epsilon() - x;
    }
    Arrays.sort(e);
    double p = ksLaplace(e, params.epsilon());
    System.out.printf("KS negative control: p = %.3g%n", p);
    assertTrue(p < 1e-6, "a wrong weight should be caught, p " + p);
  }

  /** Largest excess of |ln P(m|x) - ln P(m|x')| over ell eps |x - x'| on a grid (Lemma 5, Theorem 7). */
  static double worstDecoderPrivacyExcess(DqlLevel level, double epsilon, double ell, double u) {
    double worst = Double.NEGATIVE_INFINITY;
    double step = 0.05;
    int span = (int) Math.ceil(40 / level.delta());
    for (int i = -60; i < 60; i++) {
      double x = i * step;
      double x2 = x + step;
      long center = Math.round(epsilon * x / level.delta());
      for (long msg = center - span; msg <= center + span; msg++) {
        double p = level.descriptionProbability(msg, epsilon * x, u);
        double p2 = level.descriptionProbability(msg, epsilon * x2, u);
        if (p > 1e-250 && p2 > 1e-250) {
          double loss = Math.abs(Math.log(p) - Math.log(p2));
          worst = Math.max(worst, loss - ell * epsilon * step);
        }
      }
    }
    return worst;
  }

  @ParameterizedTest
  @CsvSource({"1, 2", "1, 1.2", "2.5, 5", "0.5, 20"})
  void theDescriptionIsEllEpsilonPrivateAgainstTheDecoder(double epsilon, double ell) {
    DqlMixture m = DqlMixture.of(ell);
    for (int t : new int[] {0, 1, 2, 3, 6}) {
      for (double u : new double[] {-0.5, -0.13, 0, 0.31}) {
        double excess = worstDecoderPrivacyExcess(m.level(t), epsilon, ell, u);
        assertTrue(excess <= 1e-9 * ell * epsilon, "eps " + epsilon + " ell " + ell + " t " + t + " u " + u + ": excess " + excess);
      }
    }
  }

  @Test
  void aWrongMixtureWeightBreaksDecoderPrivacy() {
    DqlLevel good = DqlMixture.of(2).level(2);
    DqlLevel bad = new DqlLevel(2, good.delta(), good.q(), good.oneMinusQ2(), good.evenPositive(), good.evenNegative(), 0.9 * good.odd());
    assertTrue(worstDecoderPrivacyExcess(good, 1, 2, 0.2) <= 1e-9);
    double excess = worstDecoderPrivacyExcess(bad, 1, 2, 0.2);
    System.out.println("decoder privacy negative control: excess " + excess);
    assertTrue(excess > 1e-3, "excess " + excess);
  }

  @Test
  void theEncoderDrawsDescriptionsWithTheComponentsProbabilities() {
    // the encoder's frequencies of M, for fixed level and dither, match P(m | x, t, u) of Lemma 5
    DqlParameters params = DqlParameters.of(1.5, 3);
    DqlCodec codec = DqlCodec.of(params, EliasCode.GAMMA);
    DqlLevel level = codec.mixture().level(1);
    double y = params.epsilon() * 0.42;
    double u = 0.27;
    RandomSource local = seeded(77);
    int n = 300_000;
    int span = 30;
    long[] counts = new long[2 * span + 1];
    for (int i = 0; i < n; i++) {
      long msg = codec.encodeAt(level, y, u, local);
      if (Math.abs(msg) <= span) {
        counts[(int) msg + span]++;
      }
    }
    for (int msg = -span; msg <= span; msg++) {
      double e = n * level.descriptionProbability(msg, y, u);
      assertTrue(Math.abs(counts[msg + span] - e) <= 6 * Math.sqrt(e) + 2, "m " + msg + ": " + counts[msg + span] + " vs " + e);
    }
  }

  @Test
  void vectorsRoundTripThroughTheDescription() {
    DqlCodec codec = DqlCodec.of(DqlParameters.of(2, 4), EliasCode.DELTA);
    SharedRandomness shared = SharedRandomness.fromHex("c0ffee");
    double[] x = {0, 1, -1, 0.5, 3.25, -7, 1e-9, 12};
    DqlDescription d = codec.encode(x, shared, 9, seeded(1));
    assertEquals(x.length, d.count());
    double[] xhat = codec.decode(d, shared, 9);
    // the same values through the scalar API with the jumped-to streams
    RandomSource local = seeded(1);
    BitWriter w = new BitWriter();
    for (int i = 0; i < x.length; i++) {
      long msg = codec.encode(x[i], shared.stream(9, i), local);
      EliasCode.DELTA.writeSigned(w, msg);
      assertEquals(codec.decode(msg, shared.stream(9, i)), xhat[i]);
    }
    assertArrayEquals(w.toByteArray(), d.bytes());
    assertEquals(w.bitLength(), d.bitLength());
    assertArrayEquals(xhat, codec.decode(d.bytes(), x.length, shared, 9));
    // another report index gives other values
    assertTrue(!Arrays.equals(xhat, codec.decode(d, shared, 10)));
  }

  @Test
  void badInputFailsClearly() {
    DqlCodec codec = DqlCodec.of(DqlParameters.of(1, 2), EliasCode.GAMMA);
    SharedRandomness shared = SharedRandomness.fromHex("01");
    RandomSource local = seeded(2);
    assertThrows(IllegalArgumentException.class, () -> codec.encode(new double[] {Double.NaN}, shared, 0, local));
    assertThrows(IllegalArgumentException.class, () -> codec.encode(Double.POSITIVE_INFINITY, shared.stream(0, 0), local));
    IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
        () -> codec.encode(new double[] {1e6}, shared, 0, local));
    assertTrue(big.getMessage().contains("exceeds"), big.getMessage());
    codec.encode(new double[] {codec.maxAbsScaledInput(), -codec.maxAbsScaledInput()}, shared, 0, local);
    DqlDescription d = codec.encode(new double[] {1, 2, 3, 4, 5}, shared, 0, local);
    byte[] b = d.bytes();
    assertThrows(IllegalArgumentException.class, () -> codec.decode(b, 6, shared, 0));
    assertThrows(IllegalArgumentException.class, () -> codec.decode(b, 2, shared, 0));
    assertThrows(IllegalArgumentException.class, () -> codec.decode(Arrays.copyOf(b, b.length - 1), 5, shared, 0));
    assertThrows(IllegalArgumentException.class, () -> codec.decode(b, -1, shared, 0));
    assertEquals(0, codec.decode(new byte[0], 0, shared, 0).length);
  }
}
