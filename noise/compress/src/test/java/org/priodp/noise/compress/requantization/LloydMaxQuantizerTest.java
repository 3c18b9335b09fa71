package org.priodp.noise.compress.requantization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LloydMaxQuantizerTest {

  @Test
  void gaussianFourLevelsMatchMaxsTable() {
    // Max (1960), Table I: the 4-level optimum for N(0, 1) is +-0.4528, +-1.510.
    LloydMaxQuantizer q = LloydMaxQuantizer.fromDensity(LloydMaxQuantizer.gaussianDensity(0, 1), -10, 10, 4);
    assertArrayEquals(new double[] {-1.510, -0.4528, 0.4528, 1.510}, q.levels(), 1e-3);
    assertArrayEquals(new double[] {-0.9816, 0, 0.9816}, q.thresholds(), 1e-3);
  }

  @Test
  void sampleDesignFindsClusterCentroids() {
    long seed = 11;
    System.out.println("seed " + seed);
    Random r = new Random(seed);
    double[] x = new double[3000];
    for (int i = 0; i < x.length; i++) {
      x[i] = (i % 3) * 10 + 0.1 * r.nextGaussian();
    }
    LloydMaxQuantizer q = LloydMaxQuantizer.fromSample(x, 3);
    assertArrayEquals(new double[] {0, 10, 20}, q.levels(), 0.02);
  }

  @Test
  void indexUsesNearestLevel() {
    LloydMaxQuantizer q = LloydMaxQuantizer.of(0, 1, 3);
    assertEquals(0, q.index(-5));
    assertEquals(0, q.index(0.49));
    assertEquals(1, q.index(0.5));
    assertEquals(1, q.index(1.99));
    assertEquals(2, q.index(2));
    assertEquals(2, q.index(1e9));
    assertEquals(3.0, q.quantize(2.5));
    assertEquals(3, q.size());
  }

  @Test
  void rejectsMalformedInput() {
    assertThrows(IllegalArgumentException.class, () -> LloydMaxQuantizer.of(1, 1));
    assertThrows(IllegalArgumentException.class, () -> LloydMaxQuantizer.of(0, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> LloydMaxQuantizer.of());
    assertThrows(IllegalArgumentException.class, () -> LloydMaxQuantizer.fromSample(new double[] {1, 1, 2}, 3));
    assertThrows(IllegalArgumentException.class, () -> LloydMaxQuantizer.fromDensity(v -> -1, 0, 1, 2));
    assertThrows(IllegalArgumentException.class, () -> LloydMaxQuantizer.fromDensity(v -> 1, 1, 0, 2));
    assertThrows(IllegalArgumentException.class, () -> LloydMaxQuantizer.of(0, 1).index(Double.NaN));
  }

  @Test
  void levelsAreCopied() {
    double[] l = {0, 1};
    LloydMaxQuantizer q = new LloydMaxQuantizer(l);
    l[0] = 5;
    q.levels()[1] = 7;
    assertArrayEquals(new double[] {0, 1}, q.levels());
    assertTrue(q.equals(LloydMaxQuantizer.of(0, 1)));
  }
}
