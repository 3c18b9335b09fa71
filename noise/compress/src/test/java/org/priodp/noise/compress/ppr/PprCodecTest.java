package org.priodp.noise.compress.ppr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.BitReader;
import org.priodp.noise.compress.BitWriter;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.local.KaryRandomizedResponse;

/** Deterministic properties of the PPR codec; the statistical tests live in conformance. */
class PprCodecTest {
  static final PprKaryRandomizedResponse RR = new PprKaryRandomizedResponse(new KaryRandomizedResponse(6, Rational.ONE));

  @Test
  void decodeRegeneratesTheSameSampleAndEncodingIsReproducible() {
    SharedRandomness shared = SharedRandomness.fromHex("0102");
    PprCodec<Integer> a = new PprCodec<>(RR.proposal(), shared, 5, 2, 10_000);
    PprCodec<Integer> b = new PprCodec<>(RR.proposal(), shared, 5, 2, 10_000);
    for (long k = 1; k < 200; k++) {
      assertEquals(a.decode(k), b.decode(k));
    }
    PprEncoding e1 = a.encode(RR.target(3), SeededRandomSource.fromHex("aa"));
    PprEncoding e2 = b.encode(RR.target(3), SeededRandomSource.fromHex("aa"));
    assertEquals(e1, e2);
    assertTrue(!e1.capped() && e1.iterations() >= 1 && e1.evaluations() >= 1);
    BitWriter w = new BitWriter();
    PprCodec.writeIndex(w, e1.index());
    assertEquals(e1.bits(), w.bitLength());
    assertEquals(e1.index(), PprCodec.readIndex(new BitReader(w.toByteArray())));
  }

  @Test
  void theCapIsReportedNeverHidden() {
    PprCodec<Integer> capped = new PprCodec<>(RR.proposal(), SharedRandomness.fromHex("03"), 0, 2, 1);
    RandomSource local = SeededRandomSource.fromHex("bb");
    int cappedRuns = 0;
    for (int i = 0; i < 50; i++) {
      PprEncoding e = capped.encode(RR.target(0), local);
      assertEquals(1, e.iterations());
      if (e.capped()) {
        cappedRuns++;
      }
    }
    // one visited point can never certify the choice: every run is capped
    assertEquals(50, cappedRuns);
  }

  @Test
  void rejectsBadParametersAndAViolatedBound() {
    SharedRandomness s = SharedRandomness.fromHex("04");
    assertThrows(IllegalArgumentException.class, () -> new PprCodec<>(RR.proposal(), s, 0, 1.0, 10));
    assertThrows(IllegalArgumentException.class, () -> new PprCodec<>(RR.proposal(), s, 0, Double.NaN, 10));
    assertThrows(IllegalArgumentException.class, () -> new PprCodec<>(RR.proposal(), s, -1, 2, 10));
    assertThrows(IllegalArgumentException.class, () -> new PprCodec<>(RR.proposal(), s, 0, 2, 0));
    PprCodec<Integer> c = new PprCodec<>(RR.proposal(), s, 0, 2, 1000);
    assertThrows(IllegalArgumentException.class, () -> c.decode(0));
    PprTarget<Integer> lying = new PprTarget<>() {
      @Override
      public double logRatio(Integer z) {
        return RR.target(0).logRatio(z);
      }

      @Override
      public double logRatioBound() {
        return -1; // the true supremum is log(6 e/(e + 5)) > 0
      }
    };
    assertThrows(IllegalStateException.class, () -> {
      RandomSource local = SeededRandomSource.fromHex("cc");
      for (int i = 0; i < 100; i++) {
        c.encode(lying, local);
      }
    });
  }
}
