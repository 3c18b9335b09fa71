package org.priodp.noise.compress.ppr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.Rational;
import org.priodp.noise.local.KaryRandomizedResponse;

class PprKaryRandomizedResponseTest {
  @Test
  void probabilitiesRatiosAndKl() {
    PprKaryRandomizedResponse p = new PprKaryRandomizedResponse(new KaryRandomizedResponse(4, Rational.ONE));
    double e = Math.E;
    assertEquals(e / (e + 3), Math.exp(p.logProbability(1, 1)), 1e-15);
    assertEquals(1 / (e + 3), Math.exp(p.logProbability(1, 2)), 1e-15);
    PprTarget<Integer> t = p.target(1);
    assertEquals(Math.log(4 * e / (e + 3)), t.logRatioBound(), 1e-12);
    assertEquals(t.logRatioBound(), t.logRatio(1), 1e-12);
    assertTrue(t.logRatioBound() < 1);
    double kl = (e / (e + 3) * Math.log(4 * e / (e + 3)) + 3 / (e + 3) * Math.log(4 / (e + 3))) / Math.log(2);
    assertEquals(kl, p.klBits(), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> p.target(4));
  }
}
