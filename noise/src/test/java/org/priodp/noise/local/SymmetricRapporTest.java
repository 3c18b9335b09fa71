package org.priodp.noise.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

/** Parameters, the weight bound and input checks of RAPPOR; its distribution is in LocalExactnessTest. */
class SymmetricRapporTest {

  @Test
  void reportsNeverExceedTheMaxWeight() {
    SymmetricRappor r = new SymmetricRappor(40, Rational.ONE, 15);
    SeededRandomSource rnd = SeededRandomSource.fromHex("5e");
    for (int i = 0; i < 500; i++) {
      boolean[] y = r.randomize(i % 40, rnd);
      int w = 0;
      for (boolean b : y) {
        w += b ? 1 : 0;
      }
      assertEquals(40, y.length);
      assertTrue(w <= 15, "weight " + w);
    }
    assertEquals(new FlipProbability.OfEpsilon(Rational.of(1, 2)), r.perBitFlip());
  }

  @Test
  void rejectsBadParametersAndInputs() {
    assertThrows(IllegalArgumentException.class, () -> new SymmetricRappor(1, Rational.ONE, 1));
    assertThrows(IllegalArgumentException.class, () -> new SymmetricRappor(4, Rational.ONE, 0));
    assertThrows(IllegalArgumentException.class, () -> new SymmetricRappor(4, Rational.ONE, 5));
    assertThrows(IllegalArgumentException.class, () -> new SymmetricRappor(4, Rational.ZERO, 2));
    SymmetricRappor r = new SymmetricRappor(4, Rational.ONE, 2);
    assertThrows(IllegalArgumentException.class, () -> r.randomize(4, SeededRandomSource.fromHex("00")));
    // a max weight that (almost) never fits gives up with a clear error, whatever the bucket
    SymmetricRappor hopeless = new SymmetricRappor(60, Rational.of(1, 100), 1);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> hopeless.randomize(0, SeededRandomSource.fromHex("00")));
    assertTrue(e.getMessage().contains("choose a larger max weight"));
  }
}
