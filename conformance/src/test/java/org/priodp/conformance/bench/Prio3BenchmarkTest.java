package org.priodp.conformance.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs each benchmark configuration once (not a measurement): setup, shard and verify work. */
class Prio3BenchmarkTest {

  @ParameterizedTest
  @ValueSource(strings = {"Histogram10", "Histogram100", "Histogram1000", "SumVec100", "SumVec1000"})
  void everyConfigurationShardsAndVerifies(String config) {
    Prio3Benchmark b = new Prio3Benchmark();
    b.config = config;
    b.setup();
    assertEquals(2, b.shard().inputShares().size());
    String digits = config.replaceAll("[^0-9]", "");
    assertEquals(Integer.parseInt(digits), b.verify().length());
  }
}
