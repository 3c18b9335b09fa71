package org.priodp.noise.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

/** Parameters and input checks of k-RR; its distribution is in LocalExactnessTest. */
class KaryRandomizedResponseTest {

  @Test
  void twoBucketsIsBinaryRandomizedResponse() {
    LocalEstimator k2 = new KaryRandomizedResponse(2, Rational.ONE).estimator();
    LocalEstimator rr = RandomizedResponse.ofEpsilon(Rational.ONE).estimator();
    assertEquals(rr.a(), k2.a(), 1e-15);
    assertEquals(rr.b(), k2.b(), 1e-15);
    assertEquals(Math.E, k2.a() / k2.b(), 1e-12); // the privacy ratio e^eps
  }

  @Test
  void rejectsBadParametersAndInputs() {
    assertThrows(IllegalArgumentException.class, () -> new KaryRandomizedResponse(1, Rational.ONE));
    assertThrows(IllegalArgumentException.class, () -> new KaryRandomizedResponse(3, Rational.ZERO));
    KaryRandomizedResponse k = new KaryRandomizedResponse(3, Rational.ONE);
    SeededRandomSource rnd = SeededRandomSource.fromHex("00");
    assertThrows(IllegalArgumentException.class, () -> k.randomize(3, rnd));
    assertThrows(IllegalArgumentException.class, () -> k.randomize(-1, rnd));
    assertEquals(3, k.domainSize());
  }
}
