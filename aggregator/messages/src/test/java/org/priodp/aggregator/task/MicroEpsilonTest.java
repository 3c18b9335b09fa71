package org.priodp.aggregator.task;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.noise.Rational;

class MicroEpsilonTest {
  @Test
  void theWireFormIsAUint32InNetworkOrder() {
    // draft-ietf-ppm-dap-attribution-00 section 3: micro-epsilons, 32-bit, network byte order.
    MicroEpsilon e = MicroEpsilon.parseEpsilon("0.5");
    assertEquals(500_000, e.micros());
    assertArrayEquals(new byte[] {0x00, 0x07, (byte) 0xa1, 0x20}, e.encode());
    assertEquals(e, MicroEpsilon.decode(ByteString.copyOf(e.encode()), "x"));
    MicroEpsilon max = MicroEpsilon.decode(ByteString.copyOf(new byte[] {-1, -1, -1, -1}), "x");
    assertEquals(0xffff_ffffL, max.micros());
    assertEquals("4294.967295", max.toDecimal());
  }

  @Test
  void epsilonIsExact() {
    assertEquals(Rational.of(1, 3).multiply(Rational.of(0)), MicroEpsilon.parseEpsilon("0").epsilon());
    assertEquals(Rational.of(1, 1_000_000), MicroEpsilon.parseEpsilon("0.000001").epsilon());
    assertEquals(Rational.of(3, 2), MicroEpsilon.parseEpsilon("1.5").epsilon());
    assertEquals("1.5", MicroEpsilon.parseEpsilon("1.500000").toDecimal());
  }

  @Test
  void refusesWhatIsNotAWholeNumberOfMicroEpsilonsOrDoesNotFit() {
    assertThrows(IllegalArgumentException.class, () -> MicroEpsilon.parseEpsilon("0.0000001"));
    assertThrows(IllegalArgumentException.class, () -> MicroEpsilon.parseEpsilon("-1"));
    assertThrows(IllegalArgumentException.class, () -> MicroEpsilon.parseEpsilon("4294.967296"));
    assertThrows(IllegalArgumentException.class, () -> MicroEpsilon.parseEpsilon("one"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MicroEpsilon.decode(ByteString.copyOf(new byte[3]), "privacy_budget"));
    assertTrue(e.getMessage().startsWith("privacy_budget: "), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new MicroEpsilon(1L << 32));
  }

  @Test
  void ordersByValue() {
    assertTrue(MicroEpsilon.parseEpsilon("0.1").compareTo(MicroEpsilon.parseEpsilon("0.2")) < 0);
  }
}
