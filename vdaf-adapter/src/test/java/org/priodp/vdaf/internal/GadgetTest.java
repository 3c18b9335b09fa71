package org.priodp.vdaf.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.XofTurboShake128;

/**
 * The gadgets of section "FLP Gadgets": values, sizes, and the property the query shim relies
 * on: the gadget polynomial at the k-th wire point equals the gadget on the k-th wire values.
 */
class GadgetTest {
  private static long[] random(PrimeField f, int n, String label) {
    return XofTurboShake128.expandIntoVec(
        f, new byte[32], label.getBytes(StandardCharsets.UTF_8), new byte[0], n);
  }

  @Test
  void sizesFollowTheSpecification() {
    assertEquals(2, Gadget.wirePolyLen(1));
    assertEquals(4, Gadget.wirePolyLen(3));
    assertEquals(8, Gadget.wirePolyLen(4));
    assertEquals(15, Gadget.gadgetPolyLen(2, 8));
    assertEquals(10, Gadget.gadgetPolyLen(3, 4));
    assertEquals(1, Gadget.nextPowerOf2(1));
    assertEquals(16, Gadget.nextPowerOf2(9));
    Gadget ps = new Gadget.ParallelSum(Gadget.Mul.INSTANCE, 5);
    assertEquals(10, ps.arity());
    assertEquals(2, ps.degree());
    assertEquals(3, new Gadget.PolyEval(Field64.FIELD, new long[] {0, 2, -3, 1, 0, 0}, 1).degree());
    assertThrows(IllegalArgumentException.class, () -> new Gadget.PolyEval(Field64.FIELD, new long[] {0, 0}, 1));
  }

  @Test
  void gadgetsEvaluateOnValues() {
    PrimeField f = Field64.FIELD;
    long[] inp = f.newArray(4);
    for (int i = 0; i < 4; i++) {
      f.setSigned(inp, i, i + 2); // 2, 3, 4, 5
    }
    long[] out = f.newArray(1);
    Gadget.Mul.INSTANCE.eval(f, inp, 1, out, 0);
    assertEquals(BigInteger.valueOf(12), f.get(out, 0));
    new Gadget.ParallelSum(Gadget.Mul.INSTANCE, 2).eval(f, inp, 0, out, 0);
    assertEquals(BigInteger.valueOf(2 * 3 + 4 * 5), f.get(out, 0));
    Gadget range3 = new Gadget.PolyEval(f, new long[] {0, 2, -3, 1}, 1);
    range3.eval(f, inp, 3, out, 0); // 5 * 4 * 3
    assertEquals(BigInteger.valueOf(60), f.get(out, 0));
    for (int x = 0; x < 3; x++) {
      long[] v = f.newArray(1);
      f.setSigned(v, 0, x);
      range3.eval(f, v, 0, out, 0);
      assertTrue(f.isZero(out, 0));
    }
  }

  @Test
  void gadgetPolynomialsInterpolateTheGadgetOnTheWires() {
    for (PrimeField f : new PrimeField[] {Field64.FIELD, Field128.FIELD}) {
      check(f, Gadget.Mul.INSTANCE, 3);
      check(f, new Gadget.ParallelSum(Gadget.Mul.INSTANCE, 3), 5);
      check(f, new Gadget.PolyEval(f, new long[] {0, -1, 1}, 7), 7);
      check(f, new Gadget.PolyEval(f, new long[] {0, 2, -3, 1}, 3), 3);
    }
  }

  private static void check(PrimeField f, Gadget g, int calls) {
    int p = Gadget.wirePolyLen(calls);
    int w = f.words();
    long[][] wires = new long[g.arity()][];
    for (int j = 0; j < wires.length; j++) {
      wires[j] = random(f, p, "wire " + j + " " + g);
    }
    long[] poly = g.evalPoly(f, wires);
    int size = Gadget.nextPowerOf2(Gadget.gadgetPolyLen(g.degree(), p));
    assertEquals(size, f.length(poly), g.toString());
    int step = size / p;
    long[] inp = f.newArray(g.arity());
    long[] out = f.newArray(1);
    for (int k = 0; k < p; k++) {
      for (int j = 0; j < wires.length; j++) {
        System.arraycopy(wires[j], k * w, inp, j * w, w);
      }
      g.eval(f, inp, 0, out, 0);
      assertTrue(f.equal(out, 0, poly, k * step), g + " at wire point " + k);
    }
  }
}
