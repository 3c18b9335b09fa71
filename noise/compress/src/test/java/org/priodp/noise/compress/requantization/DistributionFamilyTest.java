package org.priodp.noise.compress.requantization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class DistributionFamilyTest {

  @Test
  void paperGridHas153DiscretizedGaussians() {
    DistributionFamily f = RequantizationFixtures.FAMILY;
    assertEquals(17 * 9, f.size());
    assertEquals(16, f.inputSize());
    assertEquals("N(8.0, 1.0)", f.labels().get(0));
    assertEquals("N(12.0, 3.0)", f.labels().get(f.size() - 1));
    for (double[] p : f.pmfs()) {
      double s = 0;
      for (double v : p) {
        s += v;
      }
      assertEquals(1.0, s, 1e-12);
    }
  }

  @Test
  void discretizationIsTheNormalCellMass() {
    // N(0, 1) over thresholds {0}: two cells of mass 1/2; over {-1, 1}: 0.158655, 0.682689, 0.158655.
    double[] half = DistributionFamily.discretizedGaussian(new double[] {0}, 0, 1);
    assertEquals(0.5, half[0], 1e-15);
    double[] three = DistributionFamily.discretizedGaussian(new double[] {-1, 1}, 0, 1);
    assertEquals(0.15865525393145707, three[0], 1e-14);
    assertEquals(0.6826894921370859, three[1], 1e-14);
  }

  @Test
  void gridIncludesEndPointsWhenStepDoesNotDivide() {
    DistributionFamily f = DistributionFamily.gaussianGrid(LloydMaxQuantizer.of(0, 1, 2), 0, 1, 1, 1, 0.4);
    assertEquals(List.of("N(0.0, 1.0)", "N(0.4, 1.0)", "N(0.8, 1.0)", "N(1.0, 1.0)"), f.labels());
  }

  @Test
  void rejectsMalformedFamilies() {
    LloydMaxQuantizer q = LloydMaxQuantizer.of(0, 1);
    assertThrows(IllegalArgumentException.class, () -> DistributionFamily.of(List.of()));
    assertThrows(IllegalArgumentException.class, () -> DistributionFamily.of(List.of(new double[] {0.5, 0.6})));
    assertThrows(IllegalArgumentException.class, () -> DistributionFamily.of(List.of(new double[] {1, 0}, new double[] {1})));
    assertThrows(IllegalArgumentException.class, () -> DistributionFamily.of(List.of(new double[] {-0.5, 1.5})));
    assertThrows(IllegalArgumentException.class, () -> DistributionFamily.gaussianGrid(q, 2, 1, 1, 2, 0.5));
    assertThrows(IllegalArgumentException.class, () -> DistributionFamily.gaussianGrid(q, 1, 2, 0, 2, 0.5));
    assertThrows(IllegalArgumentException.class, () -> DistributionFamily.gaussianGrid(q, 1, 2, 1, 2, 0));
    assertThrows(IllegalArgumentException.class, () -> DistributionFamily.gaussianGrid(q, 0, 1000, 1, 1000, 0.001));
  }
}
