package org.priodp.noise.compress.dql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.EliasCode;
import org.priodp.noise.compress.internal.Uniforms;

class DqlGuaranteesTest {

  private static double meanDeltaLength(DqlCodec codec, double x, int n, RandomSource shared, RandomSource local) {
    long bits = 0;
    for (int i = 0; i < n; i++) {
      bits += EliasCode.DELTA.signedLength(codec.encode(x, shared, local));
    }
    return (double) bits / n;
  }

  @Test
  void meanDescriptionLengthIsWithinTheTheorem8Bound() {
    long seed = 8;
    System.out.println("meanDescriptionLengthIsWithinTheTheorem8Bound: seed=" + seed);
    RandomSource shared = RandomSource.seeded(new byte[] {(byte) seed});
    RandomSource local = RandomSource.seeded(new byte[] {(byte) seed, 1});
    for (double eps : new double[] {0.5, 1, 5}) {
      for (double ell : new double[] {1.1, 2, 10, 20}) {
        for (double x : new double[] {0, 1, -3, 4.5}) {
          DqlParameters p = DqlParameters.of(eps, ell);
          DqlCodec codec = DqlCodec.of(p, EliasCode.DELTA);
          double measured = meanDeltaLength(codec, x, 20_000, shared, local);
          double bound = DqlGuarantees.expectedLengthBound(p, new double[] {x});
          double closed = DqlGuarantees.expectedLengthBoundClosedForm(p, new double[] {x});
          assertTrue(measured <= bound, String.format("eps %s ell %s x %s: %.3f > %.3f", eps, ell, x, measured, bound));
          assertTrue(bound <= closed + 1e-12, "closed form is the looser bound");
        }
      }
    }
  }

  @Test
  void aCodecStuckAtADeepLevelExceedsTheBound() {
    // negative control: always quantizing at level 8 (instead of sampling T) costs more bits
    DqlParameters p = DqlParameters.of(1, 2);
    DqlCodec codec = DqlCodec.of(p, EliasCode.DELTA);
    DqlLevel deep = codec.mixture().level(8);
    RandomSource rnd = RandomSource.seeded(new byte[] {9});
    long bits = 0;
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      bits += EliasCode.DELTA.signedLength(codec.encodeAt(deep, 1.0, Uniforms.centered(rnd), rnd));
    }
    double bound = DqlGuarantees.expectedLengthBound(p, new double[] {1});
    assertTrue((double) bits / n > bound, (double) bits / n + " vs " + bound);
  }

  @Test
  void privacyStatements() {
    DqlParameters p = DqlParameters.of(0.5, 3);
    assertEquals(0.5, DqlGuarantees.databaseEpsilon(p));
    assertEquals(1.5, DqlGuarantees.decoderEpsilon(p));
    double[] x = {1, -2, 0.5};
    double[] y = {0, -2, 1.5};
    assertEquals(1.0, DqlGuarantees.databasePrivacyLoss(p, x, y), 1e-15);
    assertEquals(3.0, DqlGuarantees.decoderPrivacyLoss(p, x, y), 1e-15);
    assertThrows(IllegalArgumentException.class, () -> DqlGuarantees.decoderPrivacyLoss(p, x, new double[2]));
    // L(z) of Theorem 8, and the vector bound is n times the per-coordinate bound at ||x||_1 / n
    assertEquals(1, DqlGuarantees.lengthFunction(0), 1e-15);
    double z = 2;
    assertEquals(z / Math.log(2) + 2 * Math.log(z / Math.log(2) + 1) / Math.log(2) + 1, DqlGuarantees.lengthFunction(z), 1e-12);
    assertEquals(3 * DqlGuarantees.expectedLengthBound(p, new double[] {3.5 / 3}),
        DqlGuarantees.expectedLengthBound(p, x), 1e-9);
    assertEquals(0, DqlGuarantees.expectedLengthBound(p, new double[0]));
  }
}
