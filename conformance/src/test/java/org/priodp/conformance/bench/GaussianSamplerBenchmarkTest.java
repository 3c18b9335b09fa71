package org.priodp.conformance.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs each benchmark configuration once (not a measurement): both samplers fill their array. */
class GaussianSamplerBenchmarkTest {

  @ParameterizedTest
  @ValueSource(strings = {"2", "100", "10000", "1000000"})
  void bothSamplersFillTheArray(String sigma2) {
    GaussianSamplerBenchmark b = new GaussianSamplerBenchmark();
    b.sigma2 = sigma2;
    b.source = "seeded";
    b.setup();
    assertEquals(1024, b.exact().length);
    long[] hardened = b.hardened().clone();
    assertTrue(Arrays.stream(hardened).anyMatch(z -> z != 0), "noise drawn");
  }
}
