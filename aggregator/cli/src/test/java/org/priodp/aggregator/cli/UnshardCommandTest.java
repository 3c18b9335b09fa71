package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.FieldVector;

class UnshardCommandTest {
  private static String hex(FieldVector v) {
    return HexFormat.of().formatHex(v.encode());
  }

  @Test
  void officialCountVectorWithoutNoise() {
    // vectors/vdaf-18/Prio3Count_0.json
    CliRun r = CliRun.of("unshard", "--vdaf", "Prio3Count", "--num-measurements", "1",
        "355e16daa732744c", "cda1e92557cd8bb3");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("\"aggregate\": [1],"), r.out());
    assertTrue(r.out().contains("\"noised_shares\": 0,"), r.out());
    assertTrue(r.out().contains("\"intervals\": [[1, 1]],"), r.out());
  }

  @Test
  void l1BoundSumVectorWithoutNoise() {
    // ../shared/vectors/l1-bound-sum/Prio3L1BoundSum_0.json: 5 reports, agg_result
    CliRun r = CliRun.of("unshard", "--vdaf", "Prio3L1BoundSum", "--length", "10", "--max-value", "240",
        "--chunk-length", "9", "--num-measurements", "5",
        "c34a15da99b00146339c3ea06c819e8f55dc6a0e6ab80fabcb2c853a27ee7acdb8948a3bca62c8a3d74ede4820415c"
            + "eefcd317a29717b8fd7005fe35fa792d81200086c9691fd40f4f3b27db460571272d44cd48593bb4f30c455c59"
            + "557975f6fdf0ad1d557cbf7060b855b35c45913a44753e5718b25f074fea2c52076500a24c8a5b75dc636f101a"
            + "34b48ea3257d59f5c4cedbcb56a7ec475f2b39b9ec4557",
        "2fb6ea25664ffeb9b063c15f937e6170ae2395f19547f05418d37ac5d81185324c6b75c4359d375c0cb121b7dfbea3"
            + "11092ce85d68e8470273fa01ca0586d27ee6ff793696e02bf094c4d824b9fa8ed8dabb32b7a6c44b0cd7baa3a6"
            + "aa868a090b0f52e2aa83408f8347aa4ca3ba6ec5c58ac1a8e74da0f89415d3adf89aff5dbe75a48a239c90efc9"
            + "cb4b715cda82a6063c312434a958139ca0d4c64613baa8");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("\"vdaf\": \"Prio3L1BoundSum(length=10, max_value=240, chunk_length=9)\","),
        r.out());
    assertTrue(r.out().contains("\"aggregate\": [241, 2, 3, 4, 5, 6, 7, 8, 9, 250],"), r.out());
    assertTrue(r.out().contains("\"sensitivity_l1\": 480,"), r.out());
  }

  @Test
  void noisedHistogramJson() {
    FieldVector leader = FieldVector.fromSigned(Field128.FIELD, 100, -50, 7);
    FieldVector helper = FieldVector.fromSigned(Field128.FIELD, -95, 49, -20);
    CliRun r = CliRun.of("unshard", "--vdaf", "Prio3Histogram", "--length", "3", "--chunk-length", "1",
        "--num-measurements", "4", "--epsilon", "1", "--post-process", "clamp", hex(leader), hex(helper));
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        {
          "vdaf": "Prio3Histogram(length=3, chunk_length=1)",
          "num_measurements": 4,
          "strategy": "PureDpDiscreteLaplace(epsilon=1)",
          "sensitivity_rule": "priodp",
          "sensitivity_l1": 2,
          "sensitivity_l2_squared": 2,
          "aggregate": [5, -1, -13],
          "noise": {
            "noised_shares": 2,
            "per_aggregator": "discrete Laplace with scale 2",
            "confidence": 0.95,
            "half_width": 8,
            "note": "each value carries the sum of 2 independent noise draws, one per aggregator, each discrete Laplace with scale 2 (PureDpDiscreteLaplace(epsilon=1), L1 sensitivity 2, squared L2 sensitivity 2); value +- half-width covers the noise-free value with probability at least 0.95"
          },
          "intervals": [[-3, 13], [-9, 7], [-21, -5]],
          "post_processing": {
            "kind": "clamp",
            "note": "post-processed for display: biased, and not covered by the intervals; the aggregate above is the unbiased estimate",
            "values": [4, 0, 0]
          }
        }
        """, r.out());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "--num-measurements 1 abc|aggregate share 1 has an odd number of hex digits (3)",
    "--num-measurements 1 0000000000000000 00|aggregate share 2 of 2 (Prio3Count, 1 Field64 elements)",
    "--num-measurements 1 ffffffffffffffff|element 0 is not canonical",
    "--num-measurements x 0000000000000000|--num-measurements: 'x' is not an integer",
    "--num-measurements -1 0000000000000000|number of measurements must be >= 0",
    "--num-measurements 1|give the aggregate shares",
    "--num-measurements 1 --post-process round-histogram-to-count 0000000000000000|needs Prio3Histogram",
    "--num-measurements 1 --post-process sort 0000000000000000|unknown post-processing 'sort'",
  })
  void badInputFailsWithOneLine(String args, String message) {
    java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of("unshard", "--vdaf", "Prio3Count"));
    a.addAll(java.util.List.of(args.split(" ")));
    CliRun r = CliRun.of(a.toArray(String[]::new));
    assertTrue(r.failedWithOneLine(message), r.err());
  }

  @Test
  void missingNumMeasurementsIsAUsageError() {
    CliRun r = CliRun.of("unshard", "--vdaf", "Prio3Count", "0000000000000000");
    assertEquals(2, r.code());
    assertEquals("Missing required option: '--num-measurements=N'\nsee './prio-dp unshard --help'\n",
        r.err());
  }

  @Test
  void field64SharesOfTheWrongVdafAreRefused() {
    FieldVector s = FieldVector.fromSigned(Field64.FIELD, 1, 2, 3, 4);
    CliRun r = CliRun.of("unshard", "--vdaf", "Prio3Histogram", "--length", "4", "--chunk-length", "2",
        "--num-measurements", "3", hex(s));
    assertTrue(r.failedWithOneLine("Field128 vector of 4 elements needs 64 bytes, got 32"), r.err());
  }

  /** Issue 14: a Sum of 2^63 (2^23 reports of max 2^40) decodes to 2^63, not to a negative number. */
  @Test
  void largeSumDecodesToTheValidRange() {
    FieldVector leader = FieldVector.of(Field64.FIELD, java.math.BigInteger.ONE.shiftLeft(63));
    FieldVector helper = FieldVector.zeros(Field64.FIELD, 1);
    CliRun r = CliRun.of("unshard", "--vdaf", "Prio3Sum", "--max-measurement", "1099511627776",
        "--num-measurements", "8388608", "--epsilon", "1", hex(leader), hex(helper));
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("\"aggregate\": [9223372036854775808],"), r.out());
  }

  @Test
  void aRangeTheFieldCannotHoldIsRefusedWithOneLine() {
    FieldVector zero = FieldVector.zeros(Field64.FIELD, 1);
    CliRun r = CliRun.of("unshard", "--vdaf", "Prio3Sum", "--max-measurement", "4611686018427387904",
        "--num-measurements", "4", "--epsilon", "1073741824", hex(zero), hex(zero));
    assertTrue(r.failedWithOneLine("unshard: Prio3Sum(max_measurement=4611686018427387904) with 4 reports"), r.err());
    assertTrue(r.err().contains("Field64 cannot represent it unambiguously"), r.err());
  }
}
