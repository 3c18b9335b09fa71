package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SensitivityCommandTest {

  @Test
  void sumVecWithEpsilon() {
    CliRun r = CliRun.of("sensitivity", "--vdaf", "Prio3SumVec", "--length", "4", "--max-measurement", "255",
        "--chunk-length", "2", "--epsilon", "1");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        vdaf: Prio3SumVec(length=4, max_measurement=255, chunk_length=2)
        sensitivity rule: priodp
        L1 sensitivity: 1020
        squared L2 sensitivity: 260100
        strategy: PureDpDiscreteLaplace(epsilon=1)
        noise per aggregator and coordinate: discrete Laplace with scale 1020
        standard deviation, one aggregator: 1442.50
        standard deviation, two aggregators: 2040.00
        95% interval half-width, one aggregator: 3056
        95% interval half-width, two aggregators: 4195
        (the collector sees the sum of both aggregators' noise; privacy holds if one is honest)
        """, r.out());
  }

  /** Prio3L1BoundSum: L1 2 max_value, squared L2 2 max_value^2, under both mechanisms. */
  @Test
  void l1BoundSumUnderBothMechanisms() {
    CliRun laplace = CliRun.of("sensitivity", "--vdaf", "Prio3L1BoundSum", "--length", "10", "--max-value", "240",
        "--chunk-length", "9", "--epsilon", "1");
    assertEquals(0, laplace.code(), laplace.err());
    assertTrue(laplace.out().contains("vdaf: Prio3L1BoundSum(length=10, max_value=240, chunk_length=9)\n"),
        laplace.out());
    assertTrue(laplace.out().contains("L1 sensitivity: 480\n"), laplace.out());
    assertTrue(laplace.out().contains("discrete Laplace with scale 480\n"), laplace.out());
    CliRun gauss = CliRun.of("sensitivity", "--vdaf", "prio3l1boundsum", "--length", "10", "--max-value", "240",
        "--chunk-length", "9", "--rho", "1/2", "--sensitivity-rule", "janus");
    assertEquals(0, gauss.code(), gauss.err());
    assertTrue(gauss.out().contains("squared L2 sensitivity: 115200\n"), gauss.out());
    assertTrue(gauss.out().contains("discrete Gaussian with sigma^2 115200\n"), gauss.out());
  }

  @Test
  void rhoAndJanusRule() {
    CliRun r = CliRun.of("sensitivity", "--vdaf", "Prio3SumVec", "--length", "10", "--max-measurement", "5",
        "--chunk-length", "3", "--rho", "1/2", "--sensitivity-rule", "janus");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("L1 sensitivity: 70\n"), r.out());
    assertTrue(r.out().contains("squared L2 sensitivity: 490\n"), r.out());
    assertTrue(r.out().contains("discrete Gaussian with sigma^2 490\n"), r.out());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "Prio3Count||1|1",
    "Prio3Sum|--max-measurement 100|100|10000",
    "Prio3Histogram|--length 4 --chunk-length 2|2|2",
    "Prio3MultihotCountVec|--length 10 --max-weight 2 --chunk-length 3|4|4",
    "Prio3L1BoundSum|--length 10 --max-value 240 --chunk-length 9|480|115200",
    "Prio3L1BoundSum|--length 1 --max-value 240 --chunk-length 9|240|57600",
    "Prio3SumVecWithMultiproof|--length 3 --max-measurement 65535 --chunk-length 7|196605|12884508675",
  })
  void everyVdafWithoutBudget(String vdaf, String params, String l1, String l2s) {
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("sensitivity", "--vdaf", vdaf));
    if (params != null) {
      args.addAll(java.util.List.of(params.split(" ")));
    }
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("L1 sensitivity: " + l1 + "\n"), r.out());
    assertTrue(r.out().contains("squared L2 sensitivity: " + l2s + "\n"), r.out());
    assertTrue(r.out().contains("give --epsilon or --rho"), r.out());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "--vdaf Prio3Histogram --chunk-length 2|Prio3Histogram needs --length",
    "--vdaf Prio3Bogus|unknown --vdaf 'Prio3Bogus'",
    "--vdaf Prio3Histogram --length 4 --chunk-length 2 --max-weight 2|--max-weight does not apply to Prio3Histogram",
    "--vdaf Prio3Histogram --length x --chunk-length 2|--length: 'x' is not an integer",
    "--vdaf Prio3Histogram --length 4 --chunk-length 5|chunk_length must be in [1, 4]",
    "--vdaf Prio3Sum --max-measurement 0|max_measurement must be in [1, p)",
    "--vdaf Prio3Count --epsilon -1|epsilon must be > 0",
    "--vdaf Prio3Count --epsilon 1 --rho 1|not both",
    "--vdaf Prio3Count --rho abc|rho: 'abc' is not a number",
    "--vdaf Prio3Count --epsilon 1 --confidence 1.5|--confidence must be in (0, 1)",
    "--vdaf Prio3Count --sensitivity-rule libprio|unknown --sensitivity-rule",
    "--vdaf Prio3MultihotCountVec --length 4 --max-weight 5 --chunk-length 1|max_weight must be in [1, length = 4]",
    "--vdaf Prio3L1BoundSum --length 4 --chunk-length 2|Prio3L1BoundSum needs --max-value",
    "--vdaf Prio3L1BoundSum --length 4 --max-value 0 --chunk-length 2|max_value must be in [1, p)",
    "--vdaf Prio3L1BoundSum --length 4 --max-value 10 --max-measurement 10 --chunk-length 2|--max-measurement does not apply to Prio3L1BoundSum",
    "--vdaf Prio3Sum --max-value 10|--max-value does not apply to Prio3Sum",
  })
  void badInputFailsWithOneLine(String args, String message) {
    java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of("sensitivity"));
    a.addAll(java.util.List.of(args.split(" ")));
    CliRun r = CliRun.of(a.toArray(String[]::new));
    assertEquals(2, r.code());
    assertTrue(r.failedWithOneLine(message), r.err());
    assertTrue(r.err().startsWith("sensitivity: "), r.err());
  }

  @Test
  void aMissingVdafIsAUsageError() {
    CliRun r = CliRun.of("sensitivity", "--length", "4");
    assertEquals(2, r.code());
    assertEquals("Missing required option: '--vdaf=NAME'\nsee './prio-dp sensitivity --help'\n", r.err());
  }

  @Test
  void hugeScalesPrintTheirHalfWidthsInsteadOfFailing() {
    // scale 10^21: beyond a long; the half-width is printed exactly, not overflowed
    CliRun r = CliRun.of("sensitivity", "--vdaf", "Prio3Count", "--epsilon",
        "1/1000000000000000000000");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("half-width, one aggregator: 2995732273553990188119\n"), r.out());
  }

  @Test
  void help() {
    CliRun r = CliRun.of("sensitivity", "--help");
    assertEquals(0, r.code());
    assertTrue(r.out().startsWith("Usage: prio-dp sensitivity"), r.out());
    assertTrue(r.out().contains("--sensitivity-rule"), r.out());
  }
}
