package org.priodp.noise.compress.ppr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PprGuaranteesTest {
  @Test
  void theoremsAsFunctions() {
    assertEquals(4.0, PprGuarantees.localEpsilon(1, 2), 1e-12);
    assertEquals(new PprGuarantees.ApproxDp(3.0, 2e-6), PprGuarantees.localApproxDp(0.5, 1e-6, 3));
    assertEquals(2.2, PprGuarantees.metricEpsilon(0.5, 2.2), 1e-12);
    // alpha = 2: log2(3.56) / (1/2); alpha >= 3: log2(3.56)
    assertEquals(10 + 2 * Math.log(3.56) / Math.log(2), PprGuarantees.expectedLog2IndexBound(10, 2), 1e-12);
    assertEquals(10 + Math.log(3.56) / Math.log(2), PprGuarantees.expectedLog2IndexBound(10, 5), 1e-12);
    assertEquals(7 + 3 + 2, PprGuarantees.shannonCodeBits(7), 1e-12);
    assertEquals(7 + 6 + 1, PprGuarantees.eliasDeltaBits(7), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> PprGuarantees.localEpsilon(1, 1));
    assertThrows(IllegalArgumentException.class, () -> PprGuarantees.localEpsilon(0, 2));
    assertThrows(IllegalArgumentException.class, () -> PprGuarantees.localApproxDp(1, 1, 2));
  }
}
