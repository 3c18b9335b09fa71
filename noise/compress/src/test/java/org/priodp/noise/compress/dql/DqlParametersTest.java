package org.priodp.noise.compress.dql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DqlParametersTest {

  @Test
  void validParametersAreKept() {
    DqlParameters p = DqlParameters.of(0.25, 1.5);
    assertEquals(0.25, p.epsilon());
    assertEquals(1.5, p.ell());
    assertEquals(new DqlParameters(1.0 / 3, 10), DqlParameters.parse("1/3", "10"));
    assertEquals(new DqlParameters(0.1, 1.01), DqlParameters.parse(" 0.1 ", "1.01"));
  }

  @Test
  void badParametersAreRejectedWithTheirName() {
    double[][] bad = {{0, 2}, {-1, 2}, {Double.NaN, 2}, {Double.POSITIVE_INFINITY, 2}, {1, 1}, {1, 0.5}, {1, Double.NaN}, {1, Double.POSITIVE_INFINITY}};
    for (double[] b : bad) {
      assertThrows(IllegalArgumentException.class, () -> DqlParameters.of(b[0], b[1]), b[0] + ", " + b[1]);
    }
    String[][] text = {{"0", "2"}, {"-1", "2"}, {"NaN", "2"}, {"abc", "2"}, {"1", "1"}, {"1", "0.5"}, {"1", "1/1"}, {"1", "x"}};
    for (String[] t : text) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DqlParameters.parse(t[0], t[1]));
      assertTrue(e.getMessage().contains("--epsilon") || e.getMessage().contains("--ell") || e.getMessage().contains("ell"), e.getMessage());
    }
  }
}
