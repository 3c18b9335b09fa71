package org.priodp.noise.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

/** Parameters and input checks of binary RR; its distribution is in LocalExactnessTest. */
class RandomizedResponseTest {

  @Test
  void reportsTheExactPrivacyLevelOfAGivenP() {
    FlipProbability.Given p = new FlipProbability.Given(Rational.of(1, 4));
    assertEquals(Rational.of(3), p.expEpsilon()); // lecture Theorem 2: e^eps = (1 - p)/p
    assertEquals(Math.log(3), LocalEstimator.epsilon(p), 1e-15);
    assertEquals(Rational.ONE, new FlipProbability.Given(Rational.of(1, 2)).expEpsilon()); // Example 1: eps = 0
    FlipProbability.OfEpsilon e = RandomizedResponse.of(Budget.PureDp.parse("1/2")).flipProbability() instanceof
        FlipProbability.OfEpsilon o ? o : null;
    assertEquals(Rational.of(1, 2), e.epsilon());
    assertEquals(1 / (1 + Math.exp(0.5)), LocalEstimator.flipProbability(e), 1e-15);
  }

  @Test
  void rejectsBadParametersAndInputs() {
    assertThrows(IllegalArgumentException.class, () -> RandomizedResponse.ofFlipProbability(Rational.ZERO));
    assertThrows(IllegalArgumentException.class, () -> RandomizedResponse.ofFlipProbability(Rational.of(3, 5)));
    assertThrows(IllegalArgumentException.class, () -> RandomizedResponse.ofEpsilon(Rational.of(-1)));
    RandomizedResponse rr = RandomizedResponse.ofEpsilon(Rational.ONE);
    SeededRandomSource rnd = SeededRandomSource.fromHex("00");
    assertThrows(IllegalArgumentException.class, () -> rr.randomize(2, rnd));
    int r = rr.randomize(1, rnd);
    assertTrue(r == 0 || r == 1);
    assertEquals(2, rr.domainSize());
  }
}
